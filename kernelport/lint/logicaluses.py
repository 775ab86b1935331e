"""Uses of a warp-size constant in logical 32-lane groups (kernelport/warpwidth.py: rows of 32 from the
launch or the data layout, a block split by `& 31` / `>> 5`): there the constant is the group's width,
which translate keeps at 32 and no wave-64 fix changes.  WS001 stays silent on a constant whose every
warp-level use is in such a group (all_logical) and names the uses in them as context, not sites, where
its uses elsewhere make it a finding (site_role)."""
from __future__ import annotations

from . import syncgroups


def all_logical(ctx, uses) -> bool:
    """Every use of a warp-size constant in warp-level code is in a logical 32-lane group
    (warpwidth: rows of 32 from the launch or the data layout, a block split by `& 31` / `>> 5`):
    the constant is the group's width, which translate keeps at 32.  Host and file-scope uses (a
    block size, `kThreads = kWarpSize * kRows`) follow it."""
    widths = ctx.analysis.widths
    fns = {k for u in uses if (k := ctx.key(ctx.function_at(u))) in ctx.warp_level}
    if not fns:  # a function whose every warp call names the width 32 (`__shfl_down(v, o, 32)`: a port's
        # kept 32-lane group, or CUDA's `__shfl_down_sync(m, v, o, 32)`) is no warp-level code: the constant
        # sizes that group, which is 32 on any wave
        return any(ctx.analysis.logical_width.get(ctx.key(ctx.function_at(u))) == 32 for u in uses)
    return widths is not None and all(widths.logical(f) or syncgroups.barrier_only(ctx, f) for f in fns)


def site_role(ctx):
    """A test of whether a use of a warp-size constant (named where its other uses make it a finding)
    is a site of its 32-lane assumption: not where its function's group is logical (the warpwidth decision
    all_logical reads), where the use sizes a 32-lane group that keeps its width and no wave-64 fix changes
    it.  Uses outside warp-level code stay sites (a block size, a host count)."""
    widths = ctx.analysis.widths

    def site(u) -> bool:
        k = ctx.key(ctx.function_at(u))
        return widths is None or k not in ctx.warp_level or not widths.logical(k)
    return site
