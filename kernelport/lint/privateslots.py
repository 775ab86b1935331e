"""Steps whose every thread reads only its own slots or slots no thread writes: no chain (SY002).

gpu-samplesort's scan.h (heldout60) runs each level of its down-sweep as

    if (id < d / 2) { a[2 * id + 1] = a[2 * id] + a[d + id]; a[2 * id] = a[d + id]; }

then a barrier.  The two statements step on one array (each reads a slot other than the one it writes), but
thread `id` writes only slots `2*id` and `2*id + 1`, which no other thread writes, and the other slot it reads,
`d + id`, is at or above `d`, above every slot a thread passing `id < d / 2` writes (at most `2*(d/2 - 1) + 1`).
No thread reads a slot another thread writes between the barriers, so the steps need no lockstep.

The steps are apart when, with t the thread's x index (loneguards.is_x) and one literal factor C >= 1: every
index they write of the array is `C*t + k` with 0 <= k < C (slots of thread t only); every index they read is
such a slot of t, or `X + t` where an enclosing `if` of the steps tests `t < X / C` (or `t < X` for C = 1),
so that it lies at or above every written slot, X the same in every thread (built of literals, template
parameters, macros, a kernel's parameters and locals set only from these: loneguards.Uniform).  Anything else
may meet another thread's write.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ..warpsites import int_value
from .loneguards import Uniform, conjuncts, is_x


def apart(ctx, steps: list[Node], array: str) -> bool:
    """Whether no step of `steps` (sibling statements between barriers) reads a slot of `array` that
    another thread writes in them."""
    f = ctx.module.function_at(steps[0]) if steps else None
    if f is None or f.body is None:
        return False
    writes, reads = [], []
    for st in steps:
        for sub in ctx.src.index.under(st, "subscript_expression"):
            base = sub.child_by_field_name("argument")
            idx = sub.child_by_field_name("indices")
            if base is None or base.type != "identifier" or ctx.text(base) != array or idx is None or \
                    idx.named_child_count != 1:
                if base is not None and ctx.text(base) == array:
                    return False
                continue
            p = sub.parent
            written = p.type == "assignment_expression" and p.child_by_field_name("left") == sub
            (writes if written else reads).append(idx.named_children[0])
    owned = [_owned(ctx, f, w) for w in writes]
    if not owned or any(o is None for o in owned) or len({c for c, _ in owned}) != 1:  # type: ignore[misc]
        return False
    c = owned[0][0]  # type: ignore[index]
    bounds = _bounds(ctx, f, steps[0])
    for r in reads:
        o = _owned(ctx, f, r)
        if o is not None and o[0] == c:
            continue  # the thread's own slot
        if _above(ctx, f, r, c, bounds):
            continue
        return False
    return True


def _owned(ctx, f, e: Node) -> tuple[int, int] | None:
    """(C, k) where e is `C*t + k` (also `t*C + k`, `C*t`, `t`) with 0 <= k < C, else None."""
    e = _bare(e)
    k = 0
    if e.type == "binary_expression" and e.child_by_field_name("operator").type == "+":
        left, right = _bare(e.child_by_field_name("left")), _bare(e.child_by_field_name("right"))
        lit = int_value(ctx.text(right)) if right.type == "number_literal" else None
        if lit is None:
            return None
        e, k = left, lit
    if is_x(ctx, f, e):
        c = 1
    elif e.type == "binary_expression" and e.child_by_field_name("operator").type == "*":
        left, right = _bare(e.child_by_field_name("left")), _bare(e.child_by_field_name("right"))
        lit, t = (left, right) if left.type == "number_literal" else (right, left)
        c = int_value(ctx.text(lit)) if lit.type == "number_literal" else None
        if c is None or not is_x(ctx, f, t):
            return None
    else:
        return None
    return (c, k) if c >= 1 and 0 <= k < c else None


def _bounds(ctx, f, node: Node) -> set[str]:
    """The texts (spaces dropped) of `E` in each `t < E` / `E > t` conjunct of the `if`s that enclose node
    in their consequence, t the x index."""
    out = set()
    n = node
    while n is not None and n != f.body:
        p = n.parent
        if p is not None and p.type == "if_statement" and p.child_by_field_name("consequence") == n:
            for cj in conjuncts(p.child_by_field_name("condition")):
                op = cj.child_by_field_name("operator") if cj.type == "binary_expression" else None
                if op is None or op.type not in ("<", ">"):
                    continue
                lo, hi = cj.child_by_field_name("left"), cj.child_by_field_name("right")
                lo, hi = (lo, hi) if op.type == "<" else (hi, lo)
                if is_x(ctx, f, lo):
                    out.add(_squash(ctx.text(hi)))
        n = p
    return out


def _above(ctx, f, e: Node, c: int, bounds: set[str]) -> bool:
    """`X + t` (or `t + X`) with a bound `t < X / c` (`t < X` where c = 1): at or above every written slot."""
    e = _bare(e)
    if e.type != "binary_expression" or e.child_by_field_name("operator").type != "+":
        return False
    left, right = e.child_by_field_name("left"), e.child_by_field_name("right")
    x = left if is_x(ctx, f, right) else right if is_x(ctx, f, left) else None
    if x is None:
        return False
    x_text = _squash(ctx.text(_bare(x)))
    if not Uniform(ctx, f, f.body).expr(x):  # one X for every thread: `d` of a loop all threads run alike
        return False
    want = {f"{x_text}/{c}", f"({x_text})/{c}"} | ({x_text} if c == 1 else set())
    return bool(want & bounds)


def _squash(s: str) -> str:
    return re.sub(r"\s+", "", s)


def _bare(n: Node) -> Node:
    while n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n
