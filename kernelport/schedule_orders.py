"""Outputs that hang on the order threads run in, found where a port's check fails.

verify's oracle is the original's run in the first schedule (block lockstep); a port is checked in
every schedule (warps, or threads, interleaved in a seeded order).  Where the kernel's outputs hang on
that order (a stream compaction: `list[atomicAdd(cnt, 1)] = i` gives each thread the slot its turn
gets), the port's run in another schedule differs from the oracle as the original's own run there
does: the failure is the kernel's, not the port's.  So a port's numeric failure in another schedule
runs the original again in that schedule (once per kernel and schedule); if the original's outputs
differ from the oracle's too, the check is a skip that says so (no oracle for that order), not a
failure.  A port that fails where the original in the same schedule agrees with the oracle still
fails: the look-alike.
"""
from __future__ import annotations

from . import compare


def own_order(run_original, expected: dict, oracle, limits, profile_bins=None) -> str | None:
    """Where the original run again (run_original(): in the schedule a port failed in) differs from
    the oracle's outputs `expected`: 'BUF[I] = GOT in the original's own run in this schedule, WANT
    in its oracle run', else None (it agrees, or could not run: the port's failure stands)."""
    try:
        ref = run_original()
    except limits:
        return None
    cmp = compare.compare({k: ref.outputs[k] for k in expected}, expected, "auto", None, ref.bounds, oracle.bounds,
                          profile_bins=profile_bins, undefined=oracle.undefined, got_undefined=ref.undefined)
    if cmp.ok:
        return None
    m = cmp.mismatch
    return f"{m.where} = {m.got!r} in the original's own run in this schedule, {m.want!r} in its oracle run"


def skip_detail(where: str, schedule: str, first: str) -> str:
    return (f"not compared: the kernel's outputs depend on the order its threads run in ({where}: the {schedule} "
            f"schedule interleaves them in another order than the {first} schedule's oracle)")
