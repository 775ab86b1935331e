"""The port `kernelport translate` writes for a 32-lane group whose votes are each over its CUDA warp.

A group warpwidth marks `half_votes` (kernelport/halfvotes.py: every vote of it a ballot, any or all
with a full mask, in a file that is no header) is ported at 32 lanes: each vote becomes the caller's
half of the wave's vote and each shuffle takes width 32, so the group's `% 32` lanes and `/ 32` warps
stay exact on a 64-lane wave and translate keeps them as written.  Lint's WS002/WS003 there keep their
verdict (the code as written, or hipify's port of it, votes over the whole wave and is wrong at 64:
tests/test_lint_row_splits_reach.py), but their advice names that port instead of `warpSize`, which
would make one index wave-wide beside the group's 32-lane layout (bench/halfvote_lane_shapes46.txt:
sums_builtin, sums_popc).  Which ports write it and how they spell the vote are the dialect's data.
"""
from __future__ import annotations

from .. import backends, dialect


def kept_group_advice(ctx, function) -> str | None:
    """The advice for a lane or warp index of `function` where translate keeps its group at 32 lanes
    with each vote over the caller's warp; None where it does not (a group at the wave, no such group)."""
    widths = ctx.analysis.widths
    g = widths.by_function.get(function) if widths is not None and function is not None else None
    if g is None or not g.half_votes:
        return None
    if any((b := ctx.wave_branch(n)) is not None and b.width == 64 for n in (g.node, *g.votes) if n is not None):
        return None  # the project's own wave-64 path: translate refuses the group (KP219, soundness)
    ballot = dialect.concept("group_ballot")
    ports = [b for b in backends.all() if b.name != ctx.lang and ballot is not None and ballot.spelling(b.name)
             and any(r.wave > 32 and r.target in ctx.targets for r in b.runs)]
    if not ports:
        return None
    names = " and ".join(b.display_name for b in ports)
    vote = dialect.render(ballot, ports[0].name, {"mask": "0xffffffff", "predicate": "p"})
    return (f"`kernelport translate` keeps this group at 32 lanes instead: in its {names} port{'s' if len(ports) > 1 else ''} "
            f"each vote is over the caller's own CUDA warp (`{vote}`), each shuffle at width 32, and this 32 stays as "
            f"written; port it so, or do the same by hand (`warpSize` here alone would split the group's layout)")
