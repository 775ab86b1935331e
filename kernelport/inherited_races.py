"""Shared-memory races a port inherits from its original (verify's oracle path).

Where the original is the oracle (no `@kp reference`, or `verify --oracle original`), its run records
the races it has itself: a read of shared memory no thread wrote (a halo the block never loaded), a
race inside a warp that lockstep hides.  A port that keeps the original's code has the same race at
the same place: the same kind of access to the same element of the same shared array by the same
thread of the same block, at the port's own line.  That is a defect of the original, not of the port,
so verify reports it once, on the original's row, and a port's races check fails only for a race of
its own (one the original's run does not have: a barrier the port lost, a wider wave's stale slots).
Where an annotated reference is the oracle the original has its own row (the `cuda` run, its races
checked under each schedule): a port's race that the original's run under that schedule has is its.
The verdict of the file does not move (it fails either way); the blame does.
"""
from __future__ import annotations


def key(race) -> tuple:
    """What makes two races the same race in two texts (the line differs between them)."""
    return type(race).__name__, race.kind, race.buffer, race.index, race.thread, race.other_thread, tuple(race.block)


def split(port_races, original_races) -> tuple[list, list]:
    """(the port's own races, those the original's run has too)."""
    known = {key(r) for r in original_races}
    own = [r for r in port_races if key(r) not in known]
    return own, [r for r in port_races if key(r) in known]


def original_detail(inherited, original_races) -> str:
    """The original's races check: which of its races the ports inherit."""
    known = {key(r) for r in inherited}
    first = next(r for r in original_races if key(r) in known)
    return (f"the original races on these inputs ({first}); the ports inherit it: a defect of the original, "
            f"not of a port: fix it in the CUDA source")


def detail(own, inherited, also: str) -> str:
    """A races check's detail: the run's own races (the first three), else where the races it has are the
    original's, else none (`also`: the schedule whose run stood for this one)."""
    if own:
        return "; ".join(str(r) for r in own[:3])
    if inherited:
        return (f"no shared-memory race of its own{also}: the {len(inherited)} it has the original has too "
                f"(reported on the original's row)")
    return f"no shared-memory races{also}"
