"""A loop that walks the slots of one tree step, not the steps: no lockstep assumed (SY002).

fastjet-gpu (heldout52) finds a minimum with a tree whose step loop holds the block barrier and whose inner loop
spreads the step's slots over the block:

    for (unsigned s = width; s >= 16; s >>= 1) {
        for (int tid = threadIdx.x; tid < s && tid + s < n; tid += blockDim.x)
            if (m[tid + s].d < m[tid].d) m[tid] = m[tid + s];
        __syncthreads();
    }

The inner loop has no barrier, but it needs none: its condition bounds the written slot below the step (`tid < s`),
and every other slot it reads is the written one plus the step, at or above it.  No thread reads a slot another
thread writes in that loop.  The step must be the same for every thread: it is the variable of an enclosing loop
whose body holds a block barrier (a step loop all threads run alike, or SY001's hazard), and the inner loop assigns
neither it nor its own variable.
"""
from __future__ import annotations

import re

from tree_sitter import Node

_CONJUNCTION = ("&&", "and")


def walks_step_slots(ctx, loop: Node, written: set[str], is_barrier) -> bool:
    """`loop` (a `for` without a barrier) writes only `A[v]` of each array A of `written` (v: its variable), reads
    A only at `v` or `v + d`, and its condition holds `v < d` for a `d` that is the variable of an enclosing loop
    with a barrier in its body; `is_barrier(ctx, node)`: whether node's subtree holds a barrier."""
    if loop.type != "for_statement" or not written:
        return False
    var = _variable(ctx, loop)
    body, cond = loop.child_by_field_name("body"), loop.child_by_field_name("condition")
    if var is None or body is None or cond is None:
        return False
    assigned = _assigned(ctx, body)
    if var in assigned:
        return False
    for d in _upper_bounds(ctx, cond, var):
        if d in assigned or not _step_variable(ctx, loop, d, is_barrier):
            continue
        if _slots_only(ctx, body, written, var, d):
            return True
    return False


def _variable(ctx, loop: Node) -> str | None:
    """The variable the loop's update advances (`v += S`, `v = v + S`, `++v`), where it is the only one."""
    upd = loop.child_by_field_name("update")
    if upd is None:
        return None
    target = upd.child_by_field_name("left") if upd.type == "assignment_expression" else \
        upd.child_by_field_name("argument") if upd.type == "update_expression" else None
    return ctx.text(target) if target is not None and target.type == "identifier" else None


def _assigned(ctx, body: Node) -> set[str]:
    out = set()
    for n in ctx.src.index.under_types(body, "assignment_expression", "update_expression"):
        t = n.child_by_field_name("left" if n.type == "assignment_expression" else "argument")
        if t is not None and t.type == "identifier":
            out.add(ctx.text(t))
    return out


def _conjuncts(cond: Node) -> list[Node]:
    if cond.type == "parenthesized_expression" and cond.named_child_count == 1:
        return _conjuncts(cond.named_children[0])
    op = cond.child_by_field_name("operator") if cond.type == "binary_expression" else None
    if op is not None and op.type in _CONJUNCTION:
        return _conjuncts(cond.child_by_field_name("left")) + _conjuncts(cond.child_by_field_name("right"))
    return [cond]


def _upper_bounds(ctx, cond: Node, var: str) -> list[str]:
    """The identifiers `d` of the condition's conjuncts `var < d` (or `d > var`)."""
    out = []
    for c in _conjuncts(cond):
        op = c.child_by_field_name("operator") if c.type == "binary_expression" else None
        if op is None or op.type not in ("<", ">"):
            continue
        lo, hi = (c.child_by_field_name("left"), c.child_by_field_name("right"))
        lo, hi = (lo, hi) if op.type == "<" else (hi, lo)
        if lo.type == "identifier" and ctx.text(lo) == var and hi.type == "identifier":
            out.append(ctx.text(hi))
    return out


def _step_variable(ctx, loop: Node, d: str, is_barrier) -> bool:
    """`d` is the variable of an enclosing `for` whose body holds a barrier."""
    n = loop.parent
    while n is not None and n.type != "function_definition":
        if n.type == "for_statement" and _variable(ctx, n) == d:
            body = n.child_by_field_name("body")
            return body is not None and is_barrier(ctx, body)
        n = n.parent
    return False


def _slots_only(ctx, body: Node, written: set[str], var: str, d: str) -> bool:
    """Every subscript of a `written` array in `body` is `[var]` or `[var + d]` (`[d + var]`), and every write
    is `[var]`."""
    mine, other = var, {f"{var}+{d}", f"{d}+{var}"}
    for m in ctx.src.index.under(body, "subscript_expression"):
        base = m.child_by_field_name("argument")
        if base is None or base.type != "identifier" or ctx.text(base) not in written:
            continue
        idx = re.sub(r"\s+", "", ctx.text(m.child_by_field_name("indices")).strip("[]"))
        if idx == mine:
            continue
        if idx not in other or _is_written(m):
            return False
    return True


def _is_written(sub: Node) -> bool:
    p = sub.parent
    while p is not None and p.type in ("field_expression", "parenthesized_expression"):
        sub, p = p, p.parent
    if p is None:
        return False
    if p.type == "assignment_expression":
        return p.child_by_field_name("left") is not None and p.child_by_field_name("left").id == sub.id
    return p.type == "update_expression"
