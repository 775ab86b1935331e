"""Outputs that hang on the order threads run in, found where a port's check fails.

verify's oracle is the original's run in the first schedule (block lockstep); a port is checked in
every schedule (warps, or threads, interleaved in a seeded order).  Where the kernel's outputs hang on
that order (a stream compaction: `list[atomicAdd(cnt, 1)] = i` gives each thread the slot its turn
gets), the port's run in another schedule differs from the oracle as the original's own run there
does: the failure is the kernel's, not the port's.  So a port's numeric failure in another schedule
runs the original again in that schedule (once per kernel and schedule); the buffers whose values
there differ from the oracle's are the order's (no oracle for that order).  The port's other buffers
are still compared with the oracle: a port that is wrong in a buffer the order does not move (a
dropped barrier beside a compaction: only another schedule shows it) still fails, and so does a port
that fails where the original's own run agrees with the oracle everywhere (the look-alikes).  A wrong
value inside an order-moved buffer is not seen (the order gives that buffer no oracle).
"""
from __future__ import annotations

from . import compare


def own_order(run_original, expected: dict, oracle, limits, profile_bins=None) -> tuple[str, frozenset] | None:
    """Where the original run again (run_original(): in the schedule a port failed in) differs from
    the oracle's outputs `expected`: ('BUF[I] = GOT in the original's own run in this schedule, WANT
    in its oracle run', the buffers that differ), else None (it agrees, or could not run: the port's
    failure stands)."""
    try:
        ref = run_original()
    except limits:
        return None
    first, moved = None, set()
    for k in expected:
        cmp = compare.compare({k: ref.outputs[k]}, {k: expected[k]}, "auto", None, ref.bounds, oracle.bounds,
                              profile_bins=profile_bins, undefined=oracle.undefined, got_undefined=ref.undefined)
        if not cmp.ok:
            moved.add(k)
            first = first or cmp.mismatch
    if first is None:
        return None
    return (f"{first.where} = {first.got!r} in the original's own run in this schedule, {first.want!r} in its "
            f"oracle run", frozenset(moved))


def unmoved(order, outputs: dict, expected: dict, oracle, res, profile_bins=None):
    """The port's comparison with the oracle on the buffers the order does not move (`order`: own_order's);
    a pass where every buffer is the order's."""
    rest = {k: v for k, v in expected.items() if k not in order[1]}
    if not rest:
        return compare.Comparison(True, 0.0, 0.0, None, "auto")
    return compare.compare({k: outputs[k] for k in rest}, rest, "auto", None, res.bounds, oracle.bounds,
                           profile_bins=profile_bins, undefined=oracle.undefined, got_undefined=res.undefined)


def skip_detail(where: str, schedule: str, first: str) -> str:
    return (f"not compared: the kernel's outputs depend on the order its threads run in ({where}: the {schedule} "
            f"schedule interleaves them in another order than the {first} schedule's oracle)")
