"""PTX's carry flag across calls (kernelport/carry_calls.py) in a conditional's branch the parse saw as blanks.

Where two branches of one conditional cannot parse together (mfaktc's `#ifndef DEBUG_GPU_MATH` head of
`mod_simple_96(...)` and its `#else` head with debug parameters), kernelport.macro_repair keeps one and masks
the other: the masked branch is copied into the port as written.  A carrier's masked head then lacks the flag's
parameter and a masked call of a carrier its argument, so whichever build compiles the masked branch fails
(`kp_carry` undeclared, or too few arguments).  The same edit as the kept branch's is made there by name: the
carrier's masked heads directly before its definition take the parameter; a call `NAME(` in a masked branch
inside a function that holds the flag passes it, where every function of that name in the run is a carrier
(an overload that is not stays as written: no name tells them apart in text the grammar did not read)."""
from __future__ import annotations

import re

from . import lazy_re

_CONDITIONAL = "conditional ("  # a branch macro_repair hid for another (macro_groups' variants)


def _branches(src) -> list[tuple[int, int]]:
    return sorted((m.start, m.end) for m in src.masks if m.reason.startswith(_CONDITIONAL))


def _heads_before(src, start: int) -> list[tuple[int, int]]:
    """The masked spans (directives included) that run up to `start` with only white space between."""
    out, pos = [], start
    for m in sorted(src.masks, key=lambda m: m.end, reverse=True):
        if m.end <= pos and not src.data[m.end:pos].strip():
            out.append((m.start, m.end, m.reason.startswith(_CONDITIONAL)))
            pos = m.start
    return [(s, e) for s, e, branch in out if branch]


def _open_paren(src, start: int, end: int, name: str) -> list[int]:
    pat = re.compile(rb"(?<![\w.>:])" + re.escape(name.encode()) + rb"\s*\(")
    return [m.end() - 1 for m in pat.finditer(src.data, start, end)]


def _insert(tr, paren: int, first: str) -> None:
    """`first` as the first argument or parameter of the list opened at byte `paren`."""
    rest = tr.src.data[paren + 1:paren + 64].lstrip()
    sep = "" if rest.startswith(b")") or re.match(rb"void\s*\)", rest) else ", "
    if re.match(rb"void\s*\)", rest):
        tr.rw.drop_span(paren, paren + 1 + tr.src.data[paren + 1:].index(b"void") + 4, "(" + first)
    else:
        tr.rw.drop_span(paren, paren + 1, "(" + first + sep)


# Calls in a head that are no function's name (`__attribute__((x))`, `__launch_bounds__(256)`)
_NOT_A_NAME = frozenset({"__attribute__", "__launch_bounds__", "__declspec", "alignas", "__align__", "decltype",
                         "__builtin_align__", "noexcept", "throw"})
_HEAD = lazy_re.compile(rb"\b([A-Za-z_]\w*)\s*\(")


def _head_parens(src, start: int, end: int) -> list[tuple[str, int, int]]:
    """Each function head's (name, `(` offset, `)` offset) in the masked span [start, end) (a branch may hold
    several: a nested conditional's), the attributes' parentheses skipped."""
    out, pos = [], start
    while (m := _HEAD.search(src.data, pos, end)) is not None:
        close = _close(src.data, m.end() - 1, end)
        if close is None:
            break
        if m.group(1).decode() not in _NOT_A_NAME:
            out.append((m.group(1).decode(), m.end() - 1, close))
        pos = close + 1
    return out


def _close(data: bytes, paren: int, end: int) -> int | None:
    depth = 0
    for i in range(paren, end):
        depth += (data[i] == 40) - (data[i] == 41)  # `(`, `)`
        if depth == 0:
            return i
    return None


def _heads_of(src, f, branches) -> list[tuple[int, int]]:
    body = f.body.start_byte if f.body is not None else f.node.end_byte
    inside = [(s, e) for s, e in branches if f.node.start_byte <= s and e <= body]  # kept head and body
    return _heads_before(src, f.node.start_byte) + inside


def aliases(src, f) -> list[tuple[str, int]]:
    """The other names of `f`'s body: (name, count of parameters) of each masked head before it that names
    another function (mfaktc's `#ifdef INV_160_96` head `inv_160_96(...)` over `div_192_96`'s body)."""
    if not src.masks or f.body is None:
        return []
    out = []
    for s, e in _heads_of(src, f, _branches(src)):
        for n, p, close in _head_parens(src, s, e):
            inner = src.data[p + 1:close].strip()
            if n != f.name:
                out.append((n, 0 if inner in (b"", b"void") else _top_commas(inner) + 1))
    return out


def _top_commas(text: bytes) -> int:
    depth, n = 0, 0
    for c in text:
        depth += (c in b"(<[{") - (c in b")>]}")
        n += c == 44 and depth == 0  # `,`
    return n


def rewrite(tr, plan, path: str, key, param: str, name: str) -> None:
    """The carry's parameter and argument in `tr`'s masked branches (this module's docstring)."""
    if not tr.src.masks or not plan.names:
        return
    holders = [f for f in tr.module.functions.values() if key(path, f.node) in plan.carriers | plan.roots]
    branches = _branches(tr.src)
    for f in holders:
        if key(path, f.node) in plan.carriers and f.name in plan.names:  # its heads: before it, or between,
            for s, e in _heads_of(tr.src, f, branches):  # each the body's, whatever name it gives it
                for _, p, _ in _head_parens(tr.src, s, e):
                    _insert(tr, p, param + name)
    for s, e in branches:
        if not any(f.body is not None and f.body.start_byte < s and e <= f.node.end_byte for f in holders):
            continue
        for callee in plan.names:
            for p in _open_paren(tr.src, s, e, callee):
                _insert(tr, p, name)
