"""A shuffle that reads one lane for the whole warp: its value is the same in every lane (divergence.py's WARP).

streamlz's LZ parser (heldout86) keeps its cursors warp-uniform by re-broadcasting them from one lane:

    uint32_t first_lane = __ffs(match_ballot) - 1;                      // a ballot: the same in every lane
    uint32_t winning_type = __shfl_sync(FULL, my_match_type, first_lane);
    if (winning_type == 0) { ... __shfl_sync(FULL, my_ref, first_lane) ... }

divergence.py tagged every shuffle THREAD, so each full-mask operation under `winning_type == 0` was a false WS012.
An index shuffle `__shfl_sync(mask, v, lane[, width])` (any spelling of the dialects' `shfl` concept) returns, in
every lane, v of lane `lane mod width` of its segment.  Its result is the same across the warp (wave) when:
- the source lane is itself the same in every lane (its tag is UNIFORM or WARP: a literal, a ballot's bit, a kernel
  argument), and
- the segment is the whole warp: no width argument, or the wave-size built-in (`warpSize`).  A literal width such as
  32 or 16 splits a 64-lane wave (or a 32-lane warp) into segments that each read their own lane: per thread, and
- every lane takes part: the mask is the full mask (divergence.full_mask_op) or the form has none (HIP, legacy).
  A caller's or a partial mask may leave the source lane out, whose value is then undefined: per thread.
The shift and butterfly shuffles (up, down, xor) read a different lane in each lane: per thread, as before.

A warp reduction (`__reduce_add_sync(FULL, v)`, the dialects' `warp_reduce` concepts) returns the same value in every
lane it runs in: with the full mask, every lane of the warp: at most WARP (UNIFORM operands stay what they are,
the join of the arguments).  With a caller's or a partial mask, the arguments' join, as before.
"""
from __future__ import annotations

from tree_sitter import Node

from .. import backends, dialect
from .tags import THREAD, WARP


def _bound(d, call: Node):
    """(concept, {parameter: argument}) of a call of the source dialect, else None (as Context.concept_of_call,
    from the analysis' own parse: translate's group-mask checks run this analysis on a context of their own)."""
    fn = call.child_by_field_name("function")
    if fn is None or fn.type != "identifier":
        return None
    found = dialect.bind_call(backends.source().name, d.src.text_of(fn), call)
    return None if found is None else (found[0], found[2])


def _full(d, call: Node, bound: dict) -> bool:
    """Every lane takes part: no mask, or the full one that no caller decides (not full_mask_op, which
    translate's checks redefine as the calls they ask about)."""
    mask = bound.get("mask")
    return mask is None or ((call.start_byte, call.end_byte) in d.full_calls and not d.callers_mask(mask))


def tag(d, call: Node, frames) -> int:
    """WARP for a full-warp index shuffle from a warp-uniform lane (above), else THREAD."""
    found = _bound(d, call)
    if found is None:
        return THREAD
    c, bound = found
    if c.key != "shfl" or "lane" not in bound:
        return THREAD
    width = bound.get("width")
    if width is not None and d.src.text_of(width).strip("() ") != "warpSize":
        return THREAD
    if not _full(d, call, bound):
        return THREAD
    lane = d.expr(bound["lane"], frames)  # (a 32-lane warp's index as the lane: the same in each 32-lane warp)
    return max(WARP, lane) if lane < THREAD else THREAD


def reduce_tag(d, call: Node, tags: list[int]) -> int:
    """A warp reduction's tag: at most WARP under the full mask (above), else the join of its arguments."""
    joined = max(tags, default=0)
    found = _bound(d, call)
    if found is None or "mask" not in found[1] or not _full(d, call, found[1]):
        return joined
    return min(joined, WARP)
