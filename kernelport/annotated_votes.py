"""The votes of a group annotated `// @kp warp-width 32`: over each caller's own CUDA warp, or refused.

The annotation keeps the group's shuffles and lane expressions at CUDA's 32 lanes, exact at wave 64
(warpwidth), but a vote has no width: a wave's `__ballot(p)` holds two CUDA warps' bits, and stored in
CUDA's 32-bit `unsigned` the second warp (lanes 32-63) reads the first warp's.  Where every vote is a
ballot, any or all with CUDA's full mask, translate spells each over its caller's warp (the half of the
wave `__lane_id() & 32` names: kernelport/halfvotes.py), exact at any geometry.  Any other vote (an
`__activemask()`, a partial mask) is KP219 unless every block the run shows is at most 32 threads
(one CUDA warp per wave: the wave's vote is the warp's)."""
from __future__ import annotations

from . import halfvotes


def adopt(g, module, names, known, helpers, problems, source: str) -> None:
    """Set `g.half_votes` for an annotated 32-lane group whose votes halfvotes spells, or add KP219."""
    if not g.votes:
        return
    if not helpers and halfvotes.kind(module, g.votes, names, source) == "full":
        g.half_votes = True
        return
    if g.shares_wave or (known and all(e.total is not None and e.total <= 32 for e in known)):
        return  # (a group that shares a wave is KP219 already: soundness.check_warp_widths)
    problems.append((g.votes[0], *whole_wave(module, g.votes[0])))


def whole_wave(module, vote) -> tuple[str, str]:
    """(message, hint) of KP219 at `vote`, a vote of an annotated 32-lane group that a 64-lane wave shares with
    another CUDA warp (here or, where the launches' blocks hold two warps, soundness.check_warp_widths)."""
    call = vote.child_by_field_name("function")
    text = module.source.text_of(call if call is not None else vote)
    return (f"annotated `// @kp warp-width 32`, but `{text}` votes over the whole 64-lane wave, "
            "whose bits hold two CUDA warps (lanes 32-63 would read the first warp's)",
            "vote with CUDA's full mask (`__ballot_sync(0xffffffff, p)`, kept over each CUDA warp), "
            "or launch blocks of at most 32 threads")
