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


def rewrite(tr, plan, path: str, key, param: str, name: str) -> None:
    """The carry's parameter and argument in `tr`'s masked branches (this module's docstring)."""
    if not tr.src.masks or not plan.names:
        return
    holders = [f for f in tr.module.functions.values() if key(path, f.node) in plan.carriers | plan.roots]
    branches = _branches(tr.src)
    for f in holders:
        body = f.body.start_byte if f.body is not None else f.node.end_byte
        if key(path, f.node) in plan.carriers and f.name in plan.names:  # its heads: before it, or between
            inside = [(s, e) for s, e in branches if f.node.start_byte <= s and e <= body]  # kept head and body
            for s, e in _heads_before(tr.src, f.node.start_byte) + inside:
                for p in _open_paren(tr.src, s, e, f.name):
                    _insert(tr, p, param + name)
    for s, e in branches:
        if not any(f.body is not None and f.body.start_byte < s and e <= f.node.end_byte for f in holders):
            continue
        for callee in plan.names:
            for p in _open_paren(tr.src, s, e, callee):
                _insert(tr, p, name)
