"""Outputs the original's run cannot vouch for are an unknown, not a pass (stop 66).

Two sources (the run keeps each one's site and reason, RunResult.unjudged): a shuffle's read of a lane not active,
which gives an undefined value on NVIDIA and another on AMD (emulator.undefined.read_inactive); and a comparison
within its operands' error bounds that decided a branch, which a GPU may take the other way (emulator.flips).
An output element stored from such a value is left out of the comparison (an integer's as a value never
written, a float's with a NaN bound); where any was left out the check is a skip naming the sites: a pass
there would vouch for elements no one compared.
"""
from __future__ import annotations


def skip_detail(cmp, ran) -> str | None:
    """The skip's reason where the comparison `cmp` (compare.Comparison) left elements out and the run `ran`
    (the original's RunResult) has sites that make elements unknown, else None."""
    sites = getattr(ran, "unjudged", None)
    if not (cmp.ok and cmp.undefined and sites):
        return None
    return f"{cmp.undefined} element(s) not judged: their values are unknown ({'; '.join(sites[:3])})"
