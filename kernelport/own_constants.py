"""A file's own `#define`s read where an `#if` test over the run's -D values names them (LOFAR Cobalt's
`#define NR_PASSES MAX((NR_STATIONS + 6) / 16, 1)`, `#define NR_STATIONS_PER_PASS ((NR_STATIONS + NR_PASSES - 1)
/ NR_PASSES)` and then `#if NR_STATIONS_PER_PASS >= 19` around a branch that only a larger station count compiles,
built with -DNR_STATIONS=48): the test is decided as the compiler decides it when every name it reaches is a -D
or a macro the text defines once, where every compile sees that one definition before the test.

A definition counts only so: exactly one `#define NAME` in the text and no `#undef NAME`, before the test and
with no `#include` between the two (a header may define the name again), outside
every conditional or in the first branch of its own guard (`#ifndef NAME` / `#define NAME`, which a first compile
takes: macro_groups.defines_itself); a name defined in a header, twice, or under another test stays unknown and
the test undecided (macro_groups._cmdline_value returns None), as before.  Function-like definitions are put in
place with their arguments (no `#`/`##` bodies), object-like ones by their replacement list, to a bounded depth.
"""
from __future__ import annotations

import re
from typing import Mapping

from . import lazy_re

_WORD = lazy_re.compile(r"(?<![\w.])[A-Za-z_]\w*")  # a name, not a literal's suffix (`1.0f`)
_DEPTH = 8


def _defines(data: bytes, name: str) -> list[int]:
    return [m.start() for m in re.finditer(rb"^[ \t]*#[ \t]*define[ \t]+%s\b" % re.escape(name.encode()), data, re.M)]


def usable(name: str, macros: Mapping, data: bytes, groups, before: int) -> bool:
    """Whether the file's one definition of `name` is what every compile reaching byte `before` sees."""
    from .macro_groups import defines_itself
    if name not in macros or re.search(rb"^[ \t]*#[ \t]*undef[ \t]+%s\b" % re.escape(name.encode()), data, re.M):
        return False
    at = _defines(data, name)
    if len(at) != 1 or at[0] >= before:
        return False
    if re.search(rb"^[ \t]*#[ \t]*include\b", data[at[0]:before], re.M):
        return False  # a header read between the definition and the test may #undef / #define it again
    for g in groups:
        if g.start <= at[0] < g.end:
            m = re.fullmatch(r"ifndef (\w+)( //.*| /\*.*)?", g.cond)
            first = g.branches[0]
            if not (m and m.group(1) == name and first[0] <= at[0] < first[1] and defines_itself(g, macros, data)):
                return False
    return True


def _calls(text: str, name: str):
    """Each `name(args)` in `text` as (start, end, args), parentheses balanced."""
    for m in re.finditer(rf"\b{re.escape(name)}\s*\(", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += text[i] == "("
            depth -= text[i] == ")"
            i += 1
        if depth == 0:
            yield m.start(), i, text[m.end():i - 1]


def expand(expr: str, own: set[str], macros: Mapping) -> str | None:
    """`expr` with the names in `own` replaced by their definitions (function-like ones called with their
    arguments), until none is left; None where one cannot be put in place (a `#`/`##` body, a wrong
    argument count, a name used bare that takes parameters) or the depth runs out."""
    from .macros import arguments
    for _ in range(_DEPTH):
        names = [n for n in dict.fromkeys(_WORD.findall(expr)) if n in own]
        if not names:
            return expr
        for name in names:
            m = macros[name]
            if "#" in m.body:
                return None
            if m.params is None:
                expr = re.sub(rf"\b{re.escape(name)}\b", lambda _: f" {m.body} ", expr)
                continue
            out, last = [], 0
            for s, e, args in _calls(expr, name):
                parts = arguments(args)
                if len(parts) != len(m.params) or "..." in m.params:
                    return None
                given = dict(zip(m.params, parts))
                out += [expr[last:s], " " + _WORD.sub(lambda w: given.get(w.group(0), w.group(0)), m.body) + " "]
                last = e
            if not out:
                return None  # named without its arguments
            expr = "".join(out) + expr[last:]
    return None


def own_names(expr: str, macros: Mapping, given: Mapping, data: bytes | None, groups, before: int) -> set[str] | None:
    """The file's own macros `expr` reaches (through their definitions), each `usable`; None where one
    it reaches is not (or nothing is there to read: no text)."""
    if data is None:
        return None
    seen: set[str] = set()
    todo = [n for n in _WORD.findall(expr) if n not in given]
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        if not usable(n, macros, data, groups, before):
            return None
        seen.add(n)
        m = macros[n]
        todo += [w for w in _WORD.findall(m.body) if w not in given and w not in (m.params or ())]
    return seen


def merged(run: Mapping, own: Mapping, data: bytes) -> dict:
    """The macros the macro repair reads: the run's (headers', -D) with the file's own definitions over them,
    except a -D whose every `#define` in the file stands in the first branch of its own `#ifndef NAME` /
    `#if !defined(NAME)` guard: the compile takes no such branch under the -D, so the -D's value is the one
    every test sees (`#ifndef N_IN` / `#define N_IN 16` built with -DN_IN=48 reads 48, not the default)."""
    from .macro_groups import _TESTED, groups
    out = {**run, **own}
    given = [n for n in own if getattr(run.get(n), "path", None) == "<command line>"]
    if not given:
        return out
    gs = groups(data)
    for name in given:
        at = _defines(data, name)
        guards = [g for g in gs if (m := _TESTED.fullmatch(g.cond)) is not None and (m.group(2) or m.group(4)) == name
                  and (m.group(1) == "ifndef" or m.group(3) == "!")]
        if at and all(any(g.branches[0][0] <= a < g.branches[0][1] for g in guards) for a in at):
            out[name] = run[name]
    return out
