"""The rounding bound of a narrow float as the unit in the first place of its result (Rump, Ogita and Oishi):
a rounding to nearest moves a value by at most u * ufp(r), ufp(r) = 2^floor(log2 |r|), half an ulp of r, where
u |r| (the bound for float and double) is up to twice that.  For half and bfloat16, whose ulps are coarse, the
difference is what a half accumulation's bound is made of (stop 66: 64 steps of u |s_k| summed, on both sides of
a comparison, let a port that drops a step pass)."""
from __future__ import annotations

import numpy as np


def rounding(r, u: float, eta: float = 0.0):
    """u * ufp(r) as float64 (|r| u where r is not finite), at least eta / 2, half the type's smallest subnormal
    (a result in the subnormal range, 0 included, is rounded to a multiple of eta: u ufp(r) is less than that
    there; for a normal r it is at least eta / 2, review66d)."""
    a = np.abs(np.asarray(r, np.float64))
    with np.errstate(invalid="ignore", over="ignore"):
        _, ex = np.frexp(a)
        b = np.ldexp(u, ex - 1)
    return np.where(np.isfinite(a), np.maximum(np.where(a == 0, 0.0, b), eta / 2), a * u)
