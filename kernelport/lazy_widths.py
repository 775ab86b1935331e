"""warpflow's group-width decision (warpwidth.decide), made on first read where no finding of the analysis
can depend on when it is made.

The decision changes the analysis in two ways only (warpflow `_logical_groups`): it clears the confirmed
sites of a logical group, and launchrows.guard_constants confirms the named 32 of a row guard of a group
whose rows moved to the wave, which needs a call of a header's warp helper (launchrows.rows_follow_helpers:
`helpers`, the calls of `Visible.warp_qualified` functions).  So an analysis with no site and no header
warp helper in view (241 of 334 over tests/realcorpus + examples, the lint of a file with nothing
warp-level) is the same before and after it: its `widths` are decided when a reader asks (WS rule
ws_geometry only where a launch of the file can use them; translate always), once for the analysis
and every copy of it (`Analysis.private`).
"""
from __future__ import annotations

from typing import Callable


class Deferred:
    """The decision, made once on the first call and kept for every copy of the analysis holding this."""
    __slots__ = ("make", "made")

    def __init__(self, make: Callable) -> None:
        self.make, self.made = make, None

    def __call__(self):
        if self.make is not None:
            self.made, self.make = self.make(), None
        return self.made


def deferrable(analysis, module) -> bool:
    """Whether deciding `module`'s widths later cannot change `analysis`: no site (none to clear or
    confirm) and no header warp helper the decision could find a call of (no rows moved to the wave)."""
    vis = module.visible
    return not analysis.sites and (vis is None or not vis.warp_qualified)
