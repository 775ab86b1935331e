"""Lanes of one store that write one location: the emulator's policy (README: verify's **races** column).

CUDA's programming guide (SIMT architecture, "Hardware Multithreading"): "If a non-atomic
instruction executed by a warp writes to the same location in global or shared memory for more
than one of the threads of the warp, ... which thread performs the final write is undefined."  One
write lands; the instruction's lanes are not separate unordered writes.  So, per the warp of the
run (32 lanes, or 64 where a port runs at wave 64: the lanes the port's one instruction holds):

- lanes of ONE warp storing EQUAL values in one store: one write lands, whichever lane's, and
  memory holds the same bytes: no race (llm.c global_norm's `block_result[warp] = warp_sum`);
- lanes of one warp storing DIFFERENT values in one store: memory holds the value of a lane the
  hardware picks, and a port (another wave width, another vendor) may pick another: reported as
  its own kind, "lane-choice";
- lanes of DIFFERENT warps (or blocks) in one store: two unordered writes, a write-after-write
  race as every other (shared memory: whatever the values; global memory: where they differ,
  emulator.global_races' rule).

The "thread" schedule runs a warp's store lane by lane: there a lane of the same warp writing,
at the same line and in the same barrier and warp-sync epoch, the value the location already holds
is taken for a lane of that one store (the schedule keeps no instruction count: a loop's later
iteration storing the same value is let through with it).
"""
from __future__ import annotations

import numpy as np

WRITE_WRITE, LANE_CHOICE = "write-after-write", "lane-choice"

# what a Race of each kind says after "shared-memory race (...)" / "global-memory race (...)"
WORDING = {LANE_CHOICE: "lane-choice: lanes of one warp stored different values to one location in one store; "
                        "which lane's lands is the hardware's choice, another wave width or GPU may pick another"}


def clashes(a: np.ndarray, vals, warp: np.ndarray, values_across: bool) -> dict[str, tuple[int, int]]:
    """The first clash of each kind among one store's lanes: {kind: (lane, other lane)}, lanes as
    indices into a (each active lane's location, in lane order), vals (each one's stored value, or
    None where they cannot be compared: a reinterpreting access; every pair then clashes as
    write-after-write, the rule before values were read) and warp (each one's warp, unique in the
    launch).  values_across: lanes of different warps clash only where their values differ."""
    n = a.shape[0]
    order = np.lexsort((np.arange(n), a))  # by location, then lane (a warp's lanes are consecutive)
    sa = a[order]
    i = np.flatnonzero(sa[1:] == sa[:-1])
    if not i.shape[0]:
        return {}
    k, j = order[i + 1], order[i]  # adjacent lanes on one location
    if vals is None:
        return {WRITE_WRITE: (int(k[0]), int(j[0]))}
    unequal = differ(vals[k], vals[j])
    same_warp = warp[k] == warp[j]
    out = {}
    for kind, hit in ((WRITE_WRITE, ~same_warp & unequal if values_across else ~same_warp),
                      (LANE_CHOICE, same_warp & unequal)):
        if hit.any():
            x = int(np.flatnonzero(hit)[0])
            out[kind] = (int(k[x]), int(j[x]))
    return out


def own_warp_same_value(ent, rec, tm: int, W: int, line_bits, old, new):
    """Thread schedule: which of a write's conflicts with the table's last writes `ent` are a lane of
    the same warp (thread = entry & tm), at the same line (the entry bits above the thread), storing
    the value the location holds (old: before this write): lanes of one store, the module's rule."""
    same_warp = ((ent & tm) // W) == ((rec & tm) // W)
    same_line = (ent & line_bits) == (rec & line_bits)
    return same_warp & same_line & ~differ(np.asarray(old), np.asarray(new))


def differ(x, y):
    """Element-wise: the two values differ (NaNs of a float type are equal: the same bytes' worth)."""
    d = x != y
    if x.dtype.kind in "fc":
        d &= ~(np.isnan(x) & np.isnan(y))
    return d
