"""Lane tests against a share of a 32-lane warp (`laneId < 24`, `lane >= 16`), for WS017.

faiss's WarpPackedBits packs 32 six-bit values into the bytes of the lower 24 lanes: `if (laneId <
24) out[laneId] |= v`.  24 is 32 * 6 / 8, a share of the warp's lanes, and on a 64-lane wave the
packed bytes fill 48 lanes: the test drops half of them.  The literal is not the warp width, so
the dataflow (which follows 32, 31 and 16) does not reach it; what says it is a share is the other
side of the test, the hardware lane:

- a local taken modulo the run-time wave width or from the lane-id built-in (kernelport.laneslots);
- a local set from a lane-id helper (`int laneId = getLaneId();`, faiss's PTX `%laneid` read);
- a parameter named as a lane (`int laneId`, `lane_id`): callers pass the hardware lane there.

Shares are the multiples of 4 from 12 to 28 (3/8 to 7/8 of 32, and the half-warp 16): a smaller
count (`lane < 3`, `lane < 8`) is as often a number of items as a share, and is left alone.  A
function the analysis found to be a logical 32-lane group (a literal 32 or 16 shuffle width, lanes
`% 32`) keeps its 32 lanes on any wave and is skipped, and so is a ladder step's own threshold
(`y = __shfl_up_sync(m, v, 16); if (lane >= 16) v += y;`: the 16 is the step's, see laddersteps).
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .. import backends, laddersteps
from ..laneslots import lane_pattern
from ..warpsites import int_value
from .. import lazy_re

LANE_NAME = lazy_re.compile(r"lane_?(id|idx|index)?", re.I)  # the whole name of a lane parameter
LANE_HELPER = lazy_re.compile(r"_*(get_?)?lane_?id", re.I)  # a call that reads the hardware lane
SHARES = frozenset(range(12, 32, 4))
_ORDER = ("<", "<=", ">", ">=")


def _lanes(ctx, f) -> set[str]:
    out = {p.name for p in f.params if LANE_NAME.fullmatch(p.name) and not p.pointer}
    for n in ctx.src.index.under(f.body, "init_declarator"):
        v, d = n.child_by_field_name("value"), n.child_by_field_name("declarator")
        if v is None or d is None or d.type != "identifier":
            continue
        fn = v.child_by_field_name("function") if v.type == "call_expression" else None
        if lane_pattern().search(ctx.text(v)) or (fn is not None and LANE_HELPER.fullmatch(ctx.text(fn))):
            out.add(ctx.text(d))
    return out


def lane_share_tests(ctx) -> list[tuple[Node, Node, str]]:
    """(the share literal, the test, the lane's name) for each lane test against a share of 32."""
    out = []
    logical = ctx.analysis.logical_width
    for f in ctx.module.functions.values():
        if f.body is None or 0 < logical.get(ctx.key(f), 0) <= 32:
            continue
        lanes = _lanes(ctx, f)
        if not lanes:
            continue
        for b in ctx.src.index.under(f.body, "binary_expression"):
            if ctx.text(b.child_by_field_name("operator")) not in _ORDER:
                continue
            left, right = b.child_by_field_name("left"), b.child_by_field_name("right")
            if left is None or right is None:
                continue
            for lane, lit in ((left, right), (right, left)):
                if lane.type == "identifier" and ctx.text(lane) in lanes and lit.type == "number_literal" and \
                        int_value(ctx.text(lit)) in SHARES and not ctx.guarded(lit) and \
                        laddersteps.threshold(ctx.src, backends.source().name, b) is None:
                    out.append((lit, b, ctx.text(lane)))
    return out
