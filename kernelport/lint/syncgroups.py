"""Functions whose only warp operation is a barrier: their 32s partition memory, not the wave.

PyTorch's `blockReduce` (CTranslate2's `block_reduce`, tests/labelled15) folds 32 shared-memory
partials per lane (`smem[lane * C10_WARP_SIZE + i]`, `lane < blockDim.x / C10_WARP_SIZE`) and orders
them with `__syncwarp(mask)`.  Nothing in it reads another lane's register: no shuffle, vote, match
or library collective, no call of a warp-level helper (its own or a header's), and no name of the
hardware wave (`warpSize`, a `WARP_SIZE` not known to be 32, `__lane_id`).  Its 32 is then the
width of the chunks it lays out, and the code computes the same when two such groups share a
64-lane wave: the barrier of the wave orders a superset of the lanes `__syncwarp` orders.

WS001 stays silent on a warp-size constant whose warp-level uses are all in such functions, as on one
whose uses are all in logical 32-lane groups (rules/ws_constants.py).  Whatever else the function does
with the barrier (a 32-bit `uint32_t` member mask: WS007) is reported by its own rule.
"""
from __future__ import annotations

from .. import backends, fnscopes, shufflewrappers
from ..warpsites import int_value
from ..warpsplits import names_wave


def barrier_only(ctx, key: str) -> bool:
    """The warp-level function `key` is warp-level only through barriers (`__syncwarp`)."""
    fn = ctx.function_of(key)
    if fn is None or fn.body is None or key in ctx.analysis.wave_collectives:
        return False
    known = frozenset(n for n, m in ctx.hardcoded_macros.items() if int_value(m.value) == 32)
    if names_wave(ctx.src, fn.body, known):
        return False  # the hardware wave's width beside the 32
    vis = ctx.module.visible
    for call in ctx.src.index.under(fn.body, "call_expression"):
        found = ctx.concept_of_call(call)
        if found is not None:
            if found[0].warp_level and found[0].kind != "barrier":
                return False
            continue
        callees = fnscopes.callees(ctx.module, fn, call)
        if any(ctx.key(g) in ctx.warp_level for g in callees):
            return False  # a warp-level helper of this file
        f = call.child_by_field_name("function")
        if f is None:
            continue
        if shufflewrappers.library_call(ctx.module, backends.source().name, ctx.text(f)) is not None:
            return False  # a library's warp helper, or an included header's shuffle wrapper
        if not callees and vis is not None and \
                not vis.warp_qualified.isdisjoint(fnscopes.of(ctx.module).candidates(fn, f)):
            return False  # a header's warp-level helper
    return True
