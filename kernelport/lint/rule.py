"""Rules: a code, a kebab-case name, a severity policy, a message, docs and examples.

Each rule is one class in the module of its family (`rules/ws_*.py` hold the WS rules).
Its examples are the fixtures the tests run: `flags` must produce the rule's code on every line
marked `// !`, `passes` (look-alikes) must not produce it, `fixes` pairs show what `--fix` does.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Iterable

from .. import backends
from ..errors import KernelportError
from .. import lazy_re

if TYPE_CHECKING:  # pragma: no cover
    from .context import Context

# Lint targets are the backends' runs (kernelport/backends/): each names its hardware and wave.
TARGETS = backends.lint_targets()
_RUN = {t: backends.by_target(t) for t in TARGETS}
WAVE64 = frozenset(t for t, r in _RUN.items() if r.wave > 32)
# The backend whose spellings each target reads.
BACKEND = {t: r.backend for t, r in _RUN.items()}
HARDWARE = {t: r.hardware for t, r in _RUN.items()}
# The original's own hardware, where 32 is the warp size by definition.
SOURCE_TARGETS = frozenset(r.target for r in backends.source().runs)
FAMILIES = {"WS": "warp size", "SY": "synchronisation", "PT": "platform-only features", "KP": "kernelport itself"}
CODE_RE = lazy_re.compile(r"^[A-Z]{2}[0-9]{3}$")
MARK = "// !"


@dataclass(frozen=True)
class Example:
    """A rule's example for its documentation."""
    code: str
    lang: str = "cu"  # cu | hip | metal | py
    note: str = ""
    targets: tuple[str, ...] | None = None

    @property
    def clean(self) -> str:
        """The example as shown in the docs (expectation marks removed)."""
        return "\n".join(l.replace("  " + MARK, "").replace(" " + MARK, "").rstrip()
                         for l in self.code.strip("\n").splitlines())

    def marked_lines(self) -> list[int]:
        return [i for i, l in enumerate(self.code.strip("\n").splitlines(), 1) if MARK in l]


def ex(code: str, lang: str = "cu", note: str = "", targets=None) -> Example:
    return Example(code, lang, note, tuple(targets) if targets else None)


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]  # one line
    docs: ClassVar[str]  # markdown: why it breaks, on which hardware, the fix
    fixable: ClassVar[bool] = False
    # ruff's applicability: "safe" fixes cannot change what the CUDA code computes on NVIDIA and
    # `--fix` applies them; "unsafe" ones (a type change) need `--fix --unsafe-fixes`.
    fix_applicability: ClassVar[str] = "safe"
    flags: ClassVar[tuple[Example, ...]] = ()
    passes: ClassVar[tuple[Example, ...]] = ()
    fixes: ClassVar[tuple[tuple[str, str], ...]] = ()
    languages: ClassVar[frozenset[str]] = frozenset(backends.names())
    # The outputs of the divergence analysis (lint/divergence.py OUTPUTS) the rule reads: a run
    # computes only those of its enabled rules (`--select WS`, translate's self-check: no barriers)
    divergence_reads: ClassVar[tuple[str, ...]] = ()
    # The words without one of which the rule provably reports nothing (lint/triggers.py: a Trigger); a unit
    # whose text, included files and macros hold none never runs it, nor the analyses only it reads.
    # None: the rule runs on every unit.  tests/test_lint_triggers.py: every `flags` example meets it.
    triggers: ClassVar[object] = None
    # The severities `check` passes to ctx.report in place of `severity(targets)` (its `severity=`; the
    # context only lowers one to info): with it, what the rule can report for a set of targets
    # (`can_report`; translate's self-check runs only the rules that can report an error: `error_codes`).
    # tests/test_rule_severities.py fails a rule that reports a severity it does not declare.
    severities: ClassVar[frozenset[str]] = frozenset()

    @property
    def family(self) -> str:
        return self.code[:2]

    def severity(self, targets: frozenset[str]) -> str | None:
        """The severity with these targets on; None: the rule does not apply to them."""
        return family_severity(self.family, targets)

    def can_report(self, severity: str, targets: frozenset[str]) -> bool:
        """Whether a finding of this rule can have `severity` with these targets on."""
        return severity in self.severities or self.severity(targets) == severity

    def check(self, ctx: "Context") -> None:  # pragma: no cover - every rule overrides it
        raise NotImplementedError


def family_severity(family: str, targets: frozenset[str]) -> str | None:
    if family == "WS":
        if targets & WAVE64:
            return "error"
        if targets - SOURCE_TARGETS:
            return "warning"
        return None  # NVIDIA only: 32 is the warp size there
    if family == "PT":
        return "error" if targets - SOURCE_TARGETS else None
    return "error"


REGISTRY: dict[str, Rule] = {}


def register(cls: type[Rule]) -> type[Rule]:
    assert CODE_RE.match(cls.code), cls.code
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", cls.name), cls.name
    assert cls.code not in REGISTRY, f"duplicate rule code {cls.code}"
    REGISTRY[cls.code] = cls()
    return cls


def all_rules() -> list[Rule]:
    from . import rules  # noqa: F401  (registers every family)
    return [REGISTRY[c] for c in sorted(REGISTRY)]


@functools.cache
def error_codes(family: str, targets: frozenset[str]) -> tuple[str, ...]:
    """The codes of the `family` rules that can report an error with these targets on (`Rule.can_report`):
    the only ones whose findings a run that keeps errors alone (translate's self-check) reads."""
    return tuple(r.code for r in all_rules() if r.family == family and r.can_report("error", targets))


def get(code: str) -> Rule | None:
    all_rules()
    return REGISTRY.get(code.upper())


def _matches(code: str, selector: str) -> bool:
    return selector == "ALL" or code.startswith(selector)


def check_selectors(selectors: Iterable[str], where: str) -> list[str]:
    out = []
    codes = [r.code for r in all_rules()]
    for s in selectors:
        s = s.strip().upper()
        if not s:
            continue
        if not any(_matches(c, s) for c in codes):
            raise KernelportError(f"{where}: '{s}' selects no rule",
                                  hint="use a rule code (WS002), a family (WS) or ALL; `kernelport rule` lists them")
        out.append(s)
    return out


def selected(select: Iterable[str] | None, ignore: Iterable[str] = ()) -> frozenset[str]:
    """Codes enabled by --select / --ignore (prefixes; the longer selector wins, like ruff)."""
    sel = list(select) if select else ["ALL"]
    ign = list(ignore)
    rules = all_rules()
    key = (tuple(sel), tuple(ign), len(rules))  # (rules are only ever added: their number names the registry)
    got = _SELECTED.get(key)
    if got is None:
        got = _SELECTED[key] = _selected(sel, ign, rules)
    return got


_SELECTED: dict = {}  # selected's answers (translate's self-check lints each original and port with one selection)


def _selected(sel: list[str], ign: list[str], rules: list[Rule]) -> frozenset[str]:
    """selected's answer, computed: each rule's longest matching selector against its longest ignore."""
    out = set()
    for r in rules:
        s = max((len(x) if x != "ALL" else 0 for x in sel if _matches(r.code, x)), default=-1)
        i = max((len(x) if x != "ALL" else 0 for x in ign if _matches(r.code, x)), default=-1)
        if s >= 0 and s > i:
            out.add(r.code)
    return frozenset(out)


def parse_targets(values: Iterable[str], where: str = "--targets") -> frozenset[str]:
    ts = set()
    for v in values:
        for t in str(v).split(","):
            t = t.strip().lower()
            if not t:
                continue
            if t == "all":
                ts.update(TARGETS)
            elif t in backends.REGISTRY and not backends.get(t).is_source:
                ts.update(backends.get(t).lint_targets)
            elif t in TARGETS:
                ts.add(t)
            else:
                raise KernelportError(f"{where}: unknown target '{t}'", hint="targets: " + ", ".join(TARGETS))
    if not ts:
        raise KernelportError(f"{where}: names no target", hint="e.g. --targets cuda,hip-cdna")
    return frozenset(ts)
