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

The decision reads the run (kernelport.unit_launches: another file's launch of a kernel of this one)
through its model's `Elsewhere.project`, and may read the project's decisions (`Visible.confirmed`).
Made eagerly, such a read happened inside the analysis, and kernelport.header_plans did not share a
plan that read the run.  Deferred, it happens after the plan is kept, so the cell logs what it read
(`read_run`, and the decisions by name: `asked`, `whole`) and header_plans shares a kept plan only
once its decision is made and read no run (`settled`): never a width from another project's launches.
"""
from __future__ import annotations

from typing import Callable


class Deferred:
    """The decision, made once on the first call and kept for every copy of the analysis holding this;
    what it read of the run and of the project's decisions through `module` logged when made."""
    __slots__ = ("make", "made", "module", "read_run", "asked", "whole")

    def __init__(self, make: Callable, module) -> None:
        self.make, self.made, self.module = make, None, module
        self.read_run, self.asked, self.whole = False, frozenset(), False

    def __call__(self):
        if self.make is not None:
            vis = self.module.visible
            ew, dec = getattr(vis, "elsewhere", None), getattr(vis, "confirmed", None)
            runs = ew.run_reads if ew is not None else 0
            logged = hasattr(dec, "asked")
            if logged:  # (its own log for the decision's reads, then merged back)
                saved, dec.asked, dec.whole = (dec.asked, dec.whole), set(), False
            try:
                self.made = self.make()
            finally:
                if logged:
                    self.asked, self.whole = frozenset(dec.asked), dec.whole
                    dec.asked, dec.whole = saved[0] | dec.asked, saved[1] or dec.whole
            self.make, self.module = None, None
            self.read_run = ew is not None and ew.run_reads != runs
        return self.made


def deferrable(analysis, module) -> bool:
    """Whether deciding `module`'s widths later cannot change `analysis`: no site (none to clear or
    confirm) and no header warp helper the decision could find a call of (no rows moved to the wave)."""
    vis = module.visible
    return not analysis.sites and (vis is None or not vis.warp_qualified)


def settled(analysis) -> Deferred | None:
    """For kernelport.header_plans, before another project takes `analysis`: its decision made now if it
    was deferred (in the project that analysed it, from that project's model), and the cell, which
    says what it read (`read_run` also where it could not be made there); None where the decision was made
    inside the analysis (counted there)."""
    cell = analysis._decide
    if cell is None:
        return None
    try:
        cell()
    except Exception:  # noqa: BLE001 - not made there (its run's files changed since?): not shared, the taker decides
        cell.read_run = True
    return cell
