"""Which lanes of a 32-lane shuffle tree hold the same result on a 64-lane wave (lint/rowsplits.py).

A kernel written for 32-lane warps runs two of them to a 64-lane wave: lanes 0-31 (the lower half)
and 32-63 (the upper half), lane `r` of a half being lane `r` of a CUDA warp.  HIP's shuffles take
the wave as their width when none is given (`__shfl_down(v, d)` = `__shfl_down(v, d, 64)`), CUDA's
the warp (32).  For offsets below 32, per kind (S = the sum of a tree's offsets, at most 31 for a
ladder 16, 8, 4, 2, 1):

| shuffle (default width)  | lane `r` reads at 64              | lanes that keep the CUDA result   |
|--------------------------|-----------------------------------|-----------------------------------|
| xor by m < 32            | r ^ m, in its own half            | every lane                        |
| down by d (tree of sum S)| r + d: the upper half from r > 31-d | lower half r <= 31 - S; every upper lane (both clamp at 63/31) |
| up by d (tree of sum S)  | r - d: lane 32 + r < d reads the lower half | every lower lane; upper r >= S |
| from a source lane s     | lane s of the WAVE (lower half)   | the lower half only, unless lane s and s + 32 hold the same value |
| any kind, width w <= 32  | inside its w-lane segment         | every lane                        |

So a down tree's result is right at lane 0 of each half (`lane == 0` with `lane = tid % 32`, and
`tid / 32` numbers the halves as CUDA numbers warps) and wrong at lanes 1-31 of the lower half,
whose partial sums took lanes of the upper half.  A second down tree over those partial sums is
wrong even at lane 0: it gathers lanes 16, 8, 4, 2, 1 of the first tree.  Only the tree's own
folds (`v += __shfl_down(v, d)`, step after step, offsets summing to at most 31) read them.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .. import dialect, fnscopes
from ..source import call_args, walk
from ..warpsites import int_value

_STEP_KINDS = ("shfl_down",)
ROW = 32


def unrolled(ctx, stmt: Node, names: set[str]) -> Node:
    """An unrolled down tree around the statement `stmt` (`v += __shfl_down_sync(m, v, 16);`, then
    8, 4, 2, 1): the run of consecutive statements of its block that each fold one of `names` by a
    literal offset.  Returns its last statement, after which its result is read; where the offsets
    add up to 32 or more (lane 0 then reads a lane whose sum crossed into the next half), `stmt`:
    its later steps read the result like any other statement."""
    first = last = stmt
    while (b := first.prev_named_sibling) is not None and _offsets(ctx, b, names) is not None:
        first = b
    while (a := last.next_named_sibling) is not None and _offsets(ctx, a, names) is not None:
        last = a
    total, n = 0, first
    while n is not None:
        total += sum(_offsets(ctx, n, names) or ())
        if n == last:
            break
        n = n.next_named_sibling
    return last if total < ROW else stmt


def _offsets(ctx, stmt: Node, names: set[str]) -> list[int] | None:
    """The literal offsets of a statement that folds a down shuffle into one of `names`, else None."""
    if stmt.type not in ("expression_statement", "declaration"):
        return None
    steps = [c for c in walk(stmt) if _step(ctx, c)]
    if not steps:
        return None
    assigned = {ctx.text(a.child_by_field_name("left")) for a in walk(stmt) if a.type == "assignment_expression"
                and a.child_by_field_name("left") is not None}
    if not assigned & names:
        return None
    out = []
    for c in steps:
        b = ctx.concept_of_call(c)
        off = b[2].get("delta") if b is not None else None
        v = int_value(ctx.text(off)) if off is not None else None
        if v is None:
            return None
        out.append(v)
    return out


def _step(ctx, n: Node) -> bool:
    if n.type != "call_expression":
        return False
    b = ctx.concept_of_call(n)
    return b is not None and b[0].key in _STEP_KINDS and "width" not in b[2] and bool(call_args(n))


class _View:
    """A header's module seen through the few Context methods rowsplits' shuffle checks read."""

    def __init__(self, module):
        from .context import Context
        self.module, self.src = module, module.source
        self.text, self.function_at = module.source.text_of, module.function_at
        macros = dict(module.visible.macros) if module.visible is not None else {}
        macros.update(module.macros)
        self.hardcoded_macros = macros  # (rowsplits._known32 keeps those whose value is 32)
        self._concept = Context.concept_of_call

    def concept_of_call(self, call: Node):
        return self._concept(self, call)


def header_keeps_halves(ctx, fn, call: Node) -> bool:
    """`call` reaches a helper of an included header whose every warp operation keeps each lane in
    its 32-lane half at every lane (a `xor` by less than 32, or any shuffle at a width of 32 or
    less), through the functions it calls too: its result is the CUDA one at every lane."""
    vis = ctx.module.visible
    if vis is None or vis.elsewhere is None:
        return False
    got = vis.elsewhere.function(fnscopes.of(ctx.module).candidates(fn, call.child_by_field_name("function")))
    return got is not None and _keeps(_View(got[0]), got[1], vis, 0)


def _keeps(v: _View, g, vis, depth: int) -> bool:
    from . import rowsplits
    if g.body is None or g.is_kernel or depth > 3:
        return False
    tparams = {m.group(0) for t in g.template_params if (m := re.search(r"\w+", t))}
    for call in v.src.index.under(g.body, "call_expression"):
        b = rowsplits._bound(v, call)
        if b is not None and dialect.concept(b[0]).warp_level:
            if dialect.concept(b[0]).kind != "shuffle":
                return False  # a vote's word holds the whole wave; a match or a collective, the same
            width = b[1].get("width")
            w = int_value(v.text(width)) if width is not None else None
            if w is not None and 0 < w <= ROW:
                continue
            mask = b[1].get("lanemask")
            if width is None and b[0] == "shfl_xor" and mask is not None and rowsplits._below_32(v, mask):
                continue
            return False
        if b is not None:
            continue
        name = fnscopes.callee_name(call.child_by_field_name("function"))
        if name is None or name in tparams or g.param(name) is not None:
            return False  # through a parameter: its body is unknown
        callees = [h for h in fnscopes.callees(v.module, g, call) if h.body is not None]
        if any(not _keeps(v, h, vis, depth + 1) for h in callees):
            return False
        if not callees and name in vis.warp_functions:
            return False
    return True
