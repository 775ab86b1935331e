"""Which rules can fire on a unit: each rule's trigger (`Rule.triggers`), read from a byte scan.

A trigger is the set of words without which a rule provably reports nothing (ruff's cut: a rule
declares what it needs to fire, and the linter runs it, and the analyses only it reads, only where
that can be met).  The words come from the tables the analysis itself reads (kernelport.dialect's
concepts for every backend), so a spelling added there is a trigger word at once.

What is scanned is everything whose text can reach the unit's parse: the unit's own text, the text
of every file its include walk reached (its headers, transitively, and the includer's text before it,
`Scan.context`), the values of the macros its parse is given (its includes', the run's -D and the
project's HIP defines) and the macros its include view holds.  A line splice is joined before the
scan (`__sync\\<newline>threads` is one token to the compiler), and a `##` anywhere in that text
fires every trigger: a pasted name need not be written out.  A rule with no trigger (`None`) runs
on every unit, as every rule did before; so do the checks every file gets whatever its rules
(parse errors, annotations, suppressions' own checks: lint.engine).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .. import backends, dialect


@dataclass(frozen=True)
class Trigger:
    """Words without one of which a rule reports nothing, and what of the include view fires it besides."""
    name: str
    words: Callable[[], frozenset[str]]  # from the dialect's tables (computed once per process: _words)
    visible: Callable[[object], bool] | None = None  # a Visible that fires it whatever the text holds


def _concept_names(keep: Callable[["dialect.Concept"], bool]) -> frozenset[str]:
    """Every name (canonical or alias) that some backend's concept table maps to a concept kept by `keep`."""
    return frozenset(n for b in backends.names() for n, c in dialect._by_name(b).items() if keep(c))


def _barrier_words() -> frozenset[str]:
    # lint.divergence.barrier_kind: a block barrier is a call whose name some dialect maps to `syncthreads` (also
    # through a macro, whose value the scan reads), or a cooperative group's `sync` of a block or grid group
    from .barrier_spellings import GROUP_TYPES, GROUP_MAKERS
    return _concept_names(lambda c: c.key == "syncthreads") | frozenset(GROUP_TYPES) | frozenset(GROUP_MAKERS)


def _full_mask_words() -> frozenset[str]:
    # lint.divergence.full_mask_op: a warp shuffle or vote the source dialect names (concept_of_call),
    # taken from every dialect (a superset), or an included header's shuffle wrapper (the visible test)
    return _concept_names(lambda c: c.warp_level and c.kind in ("shuffle", "vote"))


# A block barrier (SY001's hazards: lint.divergence's summaries start only at one in the unit's own functions).
BARRIER = Trigger("barrier", _barrier_words)
# A full-mask warp operation (WS012's partial-warp operations), or a header's shuffle wrapper (fixed_full_mask).
FULL_MASK_OP = Trigger("full-mask warp operation", _full_mask_words,
                       lambda vis: bool(getattr(vis, "shuffle_wrappers", None)))

def _sync_words() -> frozenset[str]:
    # WS007: a shuffle's or vote's mask only where the call's name ends `_sync` (the rule tests the name, also
    # in a macro's replacement list: macromasks), and the masks given to a warp barrier (`__syncwarp(mask)`)
    return frozenset({"_sync"}) | _concept_names(lambda c: c.kind == "barrier" and c.warp_level)


# A `_sync` warp intrinsic or a warp barrier (WS007's 32-bit masks).
SYNC_INTRINSIC = Trigger("`_sync` intrinsic or warp barrier", _sync_words)
# Inline assembly (PT002: the model's `asm` statements; tree-sitter reads `asm`, `__asm` and `__asm__`).
INLINE_ASM = Trigger("inline assembly", lambda: frozenset({"asm"}))

_WORDS: dict[str, frozenset[str]] = {}  # trigger name -> its words (once per process)


def _words(t: Trigger) -> frozenset[str]:
    got = _WORDS.get(t.name)
    if got is None:
        got = _WORDS[t.name] = t.words()
    return got


def _joined(text: str) -> str:
    """The text with its line splices joined (the compiler reads `a\\<newline>b` as `ab`)."""
    if "\\\n" in text or "\\\r\n" in text:
        text = text.replace("\\\r\n", "").replace("\\\n", "")
    return text


def in_text(t: Trigger, text: str) -> bool:
    """Whether `text` holds one of the trigger's words, or a `##` (a name pasted from pieces)."""
    text = _joined(text)
    return "##" in text or any(w in text for w in _words(t))


class Selector:
    """The triggers a unit meets (each tested once, on the texts that can reach the unit's parse)."""

    def __init__(self, unit):
        self.unit = unit
        self._met: dict[str, bool] = {}
        self._texts: list[str] | None = None

    def texts(self) -> list[str]:
        if self._texts is None:
            self._texts = _texts_of(self.unit)
        return self._texts

    def fires(self, t: Trigger | None) -> bool:
        if t is None:
            return True
        got = self._met.get(t.name)
        if got is None:
            vis = self.unit.visible
            got = (t.visible is not None and vis is not None and t.visible(vis)) or \
                any(_file_fires(t, x) for x in self.texts())
            self._met[t.name] = got
        return got


_BY_TEXT: dict[tuple[str, str], bool] = {}  # (trigger, a file's text) -> in_text: a header is scanned once a run


def _file_fires(t: Trigger, text: str) -> bool:
    if len(text) < 4096:
        return in_text(t, text)
    key = (t.name, text)
    got = _BY_TEXT.get(key)
    if got is None:
        if len(_BY_TEXT) > 4096:
            _BY_TEXT.clear()
        got = _BY_TEXT[key] = in_text(t, text)
    return got


def _texts_of(unit) -> list[str]:
    """The unit's text, its include walk's files' texts and its macros' values."""
    out = [unit.text]
    vals = [_body(m) for m in unit.macros.values()]  # MacroDefs (kernelport.macros): `body`
    vis = unit.visible
    if vis is not None:
        vals += [_body(m) for m in vis.macros.values()]  # model.Macro: `value`
    for path in unit.reached_files:
        f = _project_file(path)
        if f is None:
            out.append("##")  # a file the walk reached and this cannot read: every trigger fires
        else:
            out.append(f.src.text)
    out.append("\n".join(vals))
    return out


def _body(m) -> str:
    got = getattr(m, "body", None)
    if got is None:
        got = getattr(m, "value", None)
    return got if isinstance(got, str) else "##"  # a value of no known shape: fire


def _project_file(path):
    from .units import project
    try:
        return project().file(path)
    except Exception:  # noqa: BLE001 - unreadable: the caller fires every trigger
        return None
