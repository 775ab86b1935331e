"""Preprocessor conditionals as the macro repair sees them (kernelport/macro_repair.py): each
`#if`...`#endif` group's directive lines and branches, and which of its variants (the directives
alone, the first branch kept, the `#else` kept) to try first."""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Mapping

# `#ifdef X`, `#ifndef X`, `#if defined(X)`, `#if !defined(X)` as Group.cond spells them
_TESTED = re.compile(r"(?:(ifdef|ifndef) (\w+)|if (!?) ?defined ?\(? ?(\w+) ?\)?)( //.*| /\*.*)?")


GIVEN = ("<command line>", "<built-in>")  # where a macro the build gives (a -D, the language's own) is defined


@cache
def builtin_macros() -> dict:
    """The macros every compile of the source defines whatever its build (`__cplusplus`: nvcc and hipcc
    compile CUDA as C++), from the source backend's data (`language_macros`), defined at "<built-in>":
    a header's `#ifdef __cplusplus` is decided as the compiler decides it, its C branch dropped."""
    from .backends import source
    from .macros import MacroDef
    return {n: MacroDef(n, None, f"{v}L", "<built-in>", 0) for n, v in source().language_macros.items()}


def _given(macros: Mapping) -> dict:
    """The run's -D over the built-in macros: the names whose value the build gives (a file's own
    `#define` of a built-in name leaves it unknown)."""
    return {**{n: m for n, m in builtin_macros().items() if n not in macros},
            **{n: m for n, m in macros.items() if getattr(m, "path", None) == "<command line>"}}


def decides_any(macros: Mapping, groups: list["Group"]) -> bool:
    """Whether the build's given macros may decide a conditional: the run has a -D, or a group tests a
    built-in name."""
    if any(getattr(m, "path", None) == "<command line>" for m in macros.values()):
        return True
    return any(_reads_builtin(g, macros) for g in groups)


def _reads_builtin(g: "Group", macros: Mapping) -> bool:
    return any(n not in macros and re.search(rf"\b{n}\b", g.cond) for n in builtin_macros())


def builtin_decides(macros: Mapping, groups: list["Group"]) -> bool:
    """Whether a group tests a built-in name alone (`#ifdef __cplusplus`): no build compiles its other branch."""
    names = [n for n in builtin_macros() if n not in macros]
    return any((m := _TESTED.fullmatch(g.cond)) is not None and (m.group(2) or m.group(4)) in names for g in groups)


def decided_groups(groups: list["Group"], macros: Mapping, data: bytes) -> list[tuple["Group", str]]:
    """Each group the build's given macros decide, with its variant (decided_variant): under a -D every one
    it decides (an ordinary name nothing defines too); without one only those whose test reads a built-in
    name (`#ifndef __cplusplus`), so a run with no -D leaves `#ifdef WINDOWS` to the repair's loop as before."""
    if not decides_any(macros, groups):
        return []
    cmdline = any(getattr(m, "path", None) == "<command line>" for m in macros.values())
    return [(g, v) for g in groups if (cmdline or _reads_builtin(g, macros))
            and (v := decided_variant(g, macros, data)) is not None]


def variants(cond: str, defined: Mapping) -> tuple[str, ...]:
    """The order to try a group's variants in: the branch this run compiles first where the test is
    known, as kernelport.includewalk decides it (an ordinary name nothing visible defines is not
    defined; a reserved one, `__CUDA_ARCH__`, `_WIN32`, may be the compiler's own: unknown), so the
    branch the build compiles is the one ported where the two cannot parse together."""
    first = ("directives", "taken", "not taken")
    m = _TESTED.fullmatch(cond)
    if m is None:
        return first
    negated = m.group(1) == "ifndef" or m.group(3) == "!"
    name = m.group(2) or m.group(4)
    if name in defined or name in builtin_macros():
        holds = not negated
    elif name.startswith("__") or name.startswith("_") and name[1:2].isupper():
        return first
    else:
        holds = negated
    return first if holds else ("directives", "not taken", "taken")


def defines_itself(group: "Group", macros: Mapping, data: bytes) -> bool:
    """Whether `group` tests a name that only its own first branch defines (`#ifndef X` / `#define X`, an include
    guard, or `#if !defined(X)`): no -D or built-in gives X and every `#define X` of the text stands in that
    branch, so the file's first compile takes it.  `variants` reads X as defined (the file's macros are read
    whole, the definition after the test too) and would hide the whole file."""
    m = _TESTED.fullmatch(group.cond)
    if m is None or not (m.group(1) == "ifndef" or m.group(3) == "!"):
        return False
    name = m.group(2) or m.group(4)
    if name in _given(macros) or name not in macros:
        return False
    first = group.branches[0]
    at = [d.start() for d in re.finditer(rb"^[ \t]*#[ \t]*define[ \t]+%s\b" % re.escape(name.encode()), data, re.M)]
    return bool(at) and all(first[0] <= a < first[1] for a in at)


def group_variants(group: "Group", macros: Mapping, data: bytes) -> tuple[str, ...]:
    """`variants` for one group of `data`: a test of a name only its own first branch defines is taken, its
    other reading never tried (`#ifndef GUARD` as if not taken hides the whole file, which no first compile
    does: amrex's AMReX_Scan.H was read so, its error spanning more bytes than the code it hid)."""
    return ("directives", "taken") if defines_itself(group, macros, data) else variants(group.cond, macros)


def decided_variant(group: "Group", macros: Mapping, data: bytes) -> str | None:
    """The variant of `group` that the run's -D decides: the branch the compiler
    compiles, None where the run does not decide it.  `#ifdef X` / `#if defined(X)` where X is a -D of
    the run or an ordinary name nothing visible defines (a name a file defines may be its include guard
    or defined under a condition: left to the repair's loop); and `#if EXPR` over the run's integer -D
    values and literals (deepwave's `#if DW_NDIM >= 2` splitting a parameter list, built with
    -DDW_NDIM=1), an `#elif` chain's too where each test up to the one that holds is decided so
    ("branch k": the branch after the k-th directive)."""
    cond = group.cond
    m = _TESTED.fullmatch(cond)
    if m is not None:
        name = m.group(2) or m.group(4)
        if name in macros and getattr(macros[name], "path", None) != "<command line>" or name not in macros and (
                name not in builtin_macros()) and (name.startswith("__") or name.startswith("_") and name[1:2].isupper()):
            return None
        return variants(cond, macros)[1]
    if not cond.startswith("if "):
        return None
    tests = [cond[3:]] + [data[s:e].decode("utf-8", "replace").split("elif", 1)[1] for s, e in group.directives[1:]
                          if re.match(r"\s*#\s*elif\b", data[s:e].decode("utf-8", "replace"))]
    for k, test in enumerate(tests):
        value = _cmdline_value(re.sub(r"//.*|/\*.*?\*/", " ", test, flags=re.S), macros, data, group.start)
        if value is None:
            return None
        if value:
            return "taken" if k == 0 else f"branch {k}"
    return "not taken"


def rejected_branch_kept(masks, groups: list["Group"], macros: Mapping, data: bytes) -> bool:
    """Whether a repair that masked a conditional's branches kept one the run's -D rejects (deepwave's
    `#if DW_NDIM == 3 ... #elif DW_NDIM == 2 ... #else` around an `if (...) {` each branch opens, built
    with -DDW_NDIM=1: the first branch parses as well as the `#else`, but the build compiles the `#else`).
    Then the repair is run again from the decided branches (macro_repair.repair)."""
    spans = {(m.start, m.end, m.name) for m in masks if m.reason.startswith("conditional")}
    for g, variant in decided_groups(groups, macros, data):
        mine = {(s, e) for s, e, name in spans if name == g.cond and g.start <= s < g.end}
        if not mine - set(g.directives):
            continue  # no branch masked: each parsed where it stands
        if mine != set(g.hidden(variant)):
            return True
    return False


def _cmdline_value(expr: str, macros: Mapping, data: bytes | None = None, before: int = 0) -> int | None:
    """An `#if`'s test over the run's integer -D values, literals and `defined` terms, None where the run
    does not decide it (a name not given by -D, a -D that is no number: `-DDW_DTYPE=float`, a function-like
    macro).  `defined(X)` holds for a -D, fails for an ordinary name nothing visible defines (as for
    `#ifdef X`, `decided_variant`) and is unknown for another (a file's own, a reserved `__X`): the test is
    decided where every value of its unknown terms gives the same answer (ala_rtree's `#if defined(
    CALC_CIRCLE) || defined(CALC_POINT)` under -DCALC_POINT, whose `#else` does not parse: heldout49).  A name
    the file itself defines once before the test (`data`, the test at byte `before`) is read through its
    definition where every name that reaches is a -D or such a definition too (kernelport.own_constants)."""
    unknown: list[str] = []
    given = _given(macros)

    def term(m: re.Match) -> str:
        name = m.group(1) or m.group(2)
        if name in given:
            return " 1 "
        if name not in macros and not (name.startswith("__") or name.startswith("_") and name[1:2].isupper()):
            return " 0 "
        unknown.append(name)
        return f" __kp_defined_{len(unknown) - 1} "
    expr, terms = _DEFINED_TERM.subn(term, expr)
    placeholders = {f"__kp_defined_{i}" for i in range(len(unknown))}
    names = set(re.findall(r"\b[A-Za-z_]\w*", expr)) - placeholders
    if names - set(given) and data is not None:
        from . import own_constants
        own = own_constants.own_names(" ".join(names - set(given)), macros, given, data, groups(data), before)
        expr = own_constants.expand(expr, own, macros) if own else None
        if expr is None:
            return None
        names = set(re.findall(r"\b[A-Za-z_]\w*", expr)) - placeholders
    if not expr.strip() or not (names or terms) or len(unknown) > 4 or any(n not in given or given[n].params is not None
                                                                           for n in names):
        return None
    from .cexpr import CExprError, evaluate
    try:
        values = {n: evaluate(given[n].body or "1", {}) for n in names}
        got = {int(bool(evaluate(expr, {**values, **{f"__kp_defined_{i}": bits >> i & 1 for i in range(len(unknown))}})))
               for bits in range(1 << len(unknown))}
    except (CExprError, ValueError, TypeError, KeyError):
        return None
    return got.pop() if len(got) == 1 else None


_DEFINED_TERM = re.compile(r"\bdefined\s*\(\s*(\w+)\s*\)|\bdefined\s+(\w+)")  # `defined(X)`, `defined X`


# A group's condition, as _Group.cond spells it, that no build compiles: `#if 0`, and a branch for an
# editor's parser only (Visual Studio's IntelliSense defines __INTELLISENSE__; no compiler does:
# ethminer's cuda_helper.h keeps `#define asm("a" : ...)` there, a define no preprocessor accepts).
NEVER_BUILT = re.compile(r"(if (0|false)|ifdef __INTELLISENSE__|if defined ?\(?__INTELLISENSE__\)?)( //.*| /\*.*)?")
DIRECTIVE_LINE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*?)(?<!\\)$", re.M | re.S)


@dataclass
class Group:
    """One `#if`...`#endif`: its directive lines and the byte spans of its branches."""
    cond: str  # the opening directive as written (`ifdef __cplusplus`)
    directives: list[tuple[int, int]] = field(default_factory=list)
    has_else: bool = False

    @property
    def start(self) -> int:
        return self.directives[0][0]

    @property
    def end(self) -> int:
        return self.directives[-1][1]

    @property
    def branches(self) -> list[tuple[int, int]]:
        """Each branch's bytes, from after its directive's newline to the next directive."""
        d = self.directives
        return [(min(d[k][1] + 1, d[k + 1][0]), d[k + 1][0]) for k in range(len(d) - 1)]

    def hidden(self, variant: str) -> list[tuple[int, int]]:
        """What is masked: the directive lines, and the branches not kept under this variant."""
        d, branches = self.directives, self.branches
        if variant == "taken":  # the first branch is kept
            drop = branches[1:]
        elif variant == "not taken":  # the #else branch is kept, or none
            drop = branches[:-1] if self.has_else else branches
        elif variant.startswith("branch "):  # the branch after directive k (an #elif's) is kept: decided_variant
            k = int(variant[7:])
            drop = branches[:k] + branches[k + 1:]
        else:
            drop = []
        return sorted(d + drop)


def groups(data: bytes) -> list[Group]:
    comments = [(m.start(), m.end()) for m in re.finditer(rb"/\*.*?\*/", data, re.S)]
    starts = [c[0] for c in comments]
    out: list[Group] = []
    stack: list[Group] = []
    for m in DIRECTIVE_LINE.finditer(data):
        i = bisect.bisect_right(starts, m.start()) - 1
        if i >= 0 and m.start() < comments[i][1]:
            continue  # inside a comment
        kind = m.group(1).decode()
        span = (m.start(), m.end())
        if kind in ("if", "ifdef", "ifndef"):
            g = Group(" ".join((kind + m.group(2).decode("utf-8", "replace")).split()), [span])
            stack.append(g)
            out.append(g)
        elif stack:
            stack[-1].directives.append(span)
            stack[-1].has_else |= kind == "else"
            if kind == "endif":
                stack.pop()
    return [g for g in out if len(g.directives) >= 2 and g not in stack]


def decided_spans(data: bytes, names) -> list[tuple[int, int]]:
    """What the compiler never sees of `data` where a conditional tests a name the run's -D defines
    (`#ifdef CUDA` under -DCUDA): its directive lines and the branches it does not compile.  A file
    whose plain parse stops on a construct such a conditional splits (an `extern "C" {` opened under
    `#ifdef CUDA`, closed under another) is read through these spans by the include walk, so the
    includes of the branch the run compiles are followed (kernelport.includewalk)."""
    out: list[tuple[int, int]] = []
    for g in groups(data):
        m = _TESTED.fullmatch(g.cond)
        if m is not None and (m.group(2) or m.group(4)) in names:
            out += g.hidden(variants(g.cond, names)[1])
    return out
