"""Slots of a per-thread strided layout: no thread reads a slot another writes (SY002).

A batched solver that gives each thread its own problem in one shared buffer lays the threads' copies out
interleaved (cuLM's Levenberg-Marquardt core, heldout78: `#define CID(i) ((i) * blockDim.x + threadIdx.x)`,
then loops of `wa1[CID(i)] -= r[CID(j * ldr + i)] * wa1[CID(j)];` on a pointer into `extern __shared__`
memory).  Slot `E * blockDim.x + threadIdx.x` is congruent to threadIdx.x modulo blockDim.x whatever the
integer E (0 <= threadIdx.x < blockDim.x), so where x is the only thread index (the function names neither
threadIdx.y nor threadIdx.z) thread t touches only slots of residue t: when every index of the array in the
steps has that form, no thread reads a slot another thread writes, and the steps need no lockstep.  A
function-like macro of the file is expanded first (`CID(j)`), and a row's address `&a[E * blockDim.x]` passed on
is no access (a callee's own steps are its own).  Anything else (`E * blockDim.x + threadIdx.x + 1`,
`E * blockDim.x / 2 + threadIdx.x`, a `threadIdx.y` in the function) may meet another thread's slot.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .. import lazy_re
from . import loneguards

_YZ = lazy_re.compile(r"\bthreadIdx\s*\.\s*[yz]\b")
_IDENT = lazy_re.compile(r"^[A-Za-z_]\w*$")
_TOP_BAD = set("-?:<>&|^=,/%!~")  # operators at the top level that break `E * blockDim.x + t`


def private(ctx, nodes: list[Node], arrays) -> bool:
    """Whether every subscript of an array of `arrays` under `nodes` indexes a slot `E * blockDim.x + t`
    (t the thread's x index), in a function that uses no other thread index."""
    f = ctx.module.function_at(nodes[0]) if nodes else None
    if f is None or f.body is None or _YZ.search(ctx.text(f.node)):
        return False
    seen = False
    for n in nodes:
        for sub in ctx.src.index.under(n, "subscript_expression"):
            base = sub.child_by_field_name("argument")
            if base is None or base.type != "identifier" or ctx.text(base) not in arrays:
                continue
            idx = sub.child_by_field_name("indices")
            if idx is None or idx.named_child_count != 1:
                return False
            p = sub.parent
            if p is not None and p.type == "pointer_expression" and ctx.text(p).lstrip().startswith("&"):
                if not _row_base(ctx, idx.named_children[0]):  # `&a[E * blockDim.x]`: a row's start, no access
                    return False
                continue
            if not _row_slot(ctx, f, idx.named_children[0]):
                return False
            seen = True
    return seen


def _row_slot(ctx, f, e: Node) -> bool:
    text = _expanded(ctx, e)
    if text is None or _YZ.search(text):
        return False
    terms = _split(_strip(re.sub(r"\s+", "", text)), "+")
    if terms is None or len(terms) != 2:
        return False
    for x, other in (terms, terms[::-1]):
        if _is_x(ctx, f, _strip(x)):
            factors = _split(other, "*")
            return factors is not None and len(factors) >= 2 and \
                sum(_strip(c) == "blockDim.x" for c in factors) == 1
    return False


def _row_base(ctx, e: Node) -> bool:
    """`E * blockDim.x`: the start of a row, which keeps every thread's residue where a callee adds its slot."""
    text = _expanded(ctx, e)
    factors = None if text is None else _split(_strip(re.sub(r"\s+", "", text)), "*")
    return factors is not None and len(factors) >= 2 and sum(_strip(c) == "blockDim.x" for c in factors) == 1


def _is_x(ctx, f, text: str) -> bool:
    """threadIdx.x, or a local that only ever holds a copy of it (loneguards.is_x's reading, by name)."""
    return loneguards._COPY.match(text) is not None or (_IDENT.match(text) is not None and
                                                         loneguards.is_x_copy(ctx, f, text))


def _expanded(ctx, e: Node) -> str | None:
    """e's text, or where e calls a function-like macro of the file, its replacement with the arguments put in
    (None where the replacement pastes or stringises)."""
    while e.type == "parenthesized_expression" and e.named_child_count == 1:
        e = e.named_children[0]
    if e.type != "call_expression":
        return ctx.text(e)
    fn, args = e.child_by_field_name("function"), e.child_by_field_name("arguments")
    m = ctx.src.macros.get(ctx.text(fn)) if fn is not None and fn.type == "identifier" else None
    if m is None or m.params is None or args is None or "#" in m.body:
        return ctx.text(e)  # a real call: no `E * blockDim.x + t` shape
    values = [ctx.text(a) for a in args.named_children if a.type != "comment"]
    if len(values) != len(m.params):
        return None
    table = dict(zip(m.params, values))
    return re.sub(r"\b[A-Za-z_]\w*\b", lambda w: f"({table[w.group()]})" if w.group() in table else w.group(),
                  m.body)


def _strip(s: str) -> str:
    """s without parentheses that wrap all of it."""
    while s.startswith("(") and s.endswith(")") and _closing(s, 0) == len(s) - 1:
        s = s[1:-1]
    return s


def _closing(s: str, i: int) -> int:
    depth = 0
    for j in range(i, len(s)):
        depth += {"(": 1, ")": -1}.get(s[j], 0)
        if depth == 0:
            return j
    return -1


def _split(s: str, op: str) -> list[str] | None:
    """s's top-level operands of `op` (None where another operator sits at the top level, or `op` is doubled)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(s):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0:
            if ch in _TOP_BAD:
                return None
            if ch == op:
                if i + 1 < len(s) and s[i + 1] == op or i == start:
                    return None
                parts.append(s[start:i])
                start = i + 1
            elif op == "*" and ch == "+":
                return None
    parts.append(s[start:])
    return parts if all(parts) else None
