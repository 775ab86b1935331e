"""An asm statement's template as nvcc reads it: a name in the template that is an object-like macro whose
replacement is string literals only (`#define MMA "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"` then
`asm(MMA " {%0,%1,%2,%3}, ..." : ...)`) is written as those literals, so every reader of inline PTX (the
idiom ports, kernelport/ptx_idioms.py and ptx_matrix.py; the 32-lane warp's matrix instructions,
kernelport/warpwidth.py; the lane id's readers; lint) reads the instruction nvcc assembles.

A name is expanded only where every `#define` of it that the file and its includes show has the same
replacement (a template chosen by `#if` around two definitions stays the name, and the asm stays KP201: PTX is
never guessed), after expanding its own names alike (a prefix macro inside another).  Any other name in a
template (a function-like macro, a macro of code, an unknown one) leaves the text as written.  The run's -D
definitions (`given`: the build's) count beside the file's: `#ifndef CVT #define CVT "cvt.rn.f16.f32"` built with
-DCVT='"cvt.rz.f16.f32"' assembles rz, so two replacements, and the name stays as written."""
from __future__ import annotations

import re
from pathlib import Path

from . import lazy_re
from .source import uncomment

_NAME = lazy_re.compile(r"[A-Za-z_]\w*")
_LITERALS = lazy_re.compile(r'\s*(?:"(?:[^"\\\n]|\\.)*"\s*)+')  # string literals only, side by side


def _defined(text: str, name: str) -> set[str]:
    """The replacement lists of every object-like `#define name` in `text`, whatever conditional holds it."""
    return {" ".join(uncomment(m.group(1).replace("\\\n", " ")).split()) for m in
            re.finditer(rf"^[ \t]*#[ \t]*define[ \t]+{re.escape(name)}(?![\w(])((?:[^\n\\]|\\\n|\\)*)", text, re.M)}


def _bodies(src, name: str, given) -> set[str]:
    """The replacement lists of every object-like `#define name` the file shows and the header that defines it
    for its includes (the header read whole: another definition under its `#if` counts too)."""
    out = _defined(src.text, name) | ({" ".join(uncomment(given[name]).split())} if name in given else set())
    d = getattr(src, "included_macros", {}).get(name)
    if d is not None:
        if d.params is not None:
            return {"", "(function-like)"}  # (no literal meaning)
        out.add(" ".join(d.body.split()))
        try:
            out |= _defined(Path(d.path).read_text(encoding="utf-8", errors="replace"), name)
        except OSError:
            pass
    return out


def _literals(src, name: str, seen: frozenset[str] = frozenset(), given=None) -> str | None:
    """The string literals `name` stands for (its names expanded alike), or None."""
    bodies = _bodies(src, name, given or {}) if name not in seen else set()
    if len(bodies) != 1:
        return None
    body = _expand(src, next(iter(bodies)), seen | {name}, given)
    return body if body is not None and body.strip() and _LITERALS.fullmatch(body) else None


def _expand(src, text: str, seen: frozenset[str] = frozenset(), given=None) -> str | None:
    """`text` (a template's C: literals and names) with each name written as its literals; None where a name
    has none."""
    out, at = [], 0
    for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"|[A-Za-z_]\w*', text):
        out.append(text[at:m.start()])
        word = m.group(0)
        if word.startswith('"'):
            out.append(word)
        else:
            got = _literals(src, word, seen, given)
            if got is None:
                return None
            out.append(f" {got.strip()} ")
        at = m.end()
    return "".join(out) + text[at:]


def text(src, node, defines=()) -> str:
    """The asm statement `node`'s text with its template's macro names written as their string literals,
    where each has them; the text as written otherwise.  `defines`: the run's -D, (name, value) pairs."""
    from .ptx_idioms import _ASM, asm_sections
    written = src.text_of(node)
    stripped = written.strip()
    m = _ASM.match(stripped)
    if m is None:
        return written
    template = asm_sections(m.group(1))[0]
    code = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', template)
    if not _NAME.search(code):
        return written  # (literals only: the common case)
    got = _expand(src, template, given=dict(d if isinstance(d, tuple) else (str(d).split("=")[0], "1") for d in defines))
    if got is None:
        return written
    return stripped[:m.start(1)] + got + stripped[m.start(1) + len(template):]
