"""An output that depends on a shuffle's read of a lane not active is an unknown, not a pass (stop 66).

Such a read gives an undefined value on NVIDIA and another on AMD (emulator.undefined.read_inactive marks it);
the elements of an output stored from it are left out of the comparison, as those stored from a value never
written are, and where the original's run made such reads the check is a skip naming their sites: a pass
there would say the port computes what the original does where neither computes anything defined.
"""
from __future__ import annotations


def skip_detail(cmp, ran) -> str | None:
    """The skip's reason where the comparison `cmp` (compare.Comparison) left elements out and the run `ran`
    (the original's RunResult) read inactive lanes, else None."""
    sites = getattr(ran, "inactive_reads", None)
    if not (cmp.ok and cmp.undefined and sites):
        return None
    return (f"{cmp.undefined} element(s) depend on values a shuffle read from lanes not active (at "
            f"{', '.join(sites[:3])}): undefined on NVIDIA, another value on AMD; not judged")
