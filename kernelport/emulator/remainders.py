"""Error bounds of C's fmod (and MSL's float `%`, which is fmod) and fdim.

fmod(x, y) = x - n*y with n = trunc(x / y) is exact (IEEE: no rounding), but it is not exact in the
bounds sense: the exact operands lie within ea of x and eb of y, and the remainder carries their error,
ea + |n| eb, as long as n is the same for every pair of them.  Near a multiple of y (r near 0 with n != 0)
or near |y| (r + its bound reaches |y|) n may differ between the emulator's operands and the GPU's and
the result jumps by a whole |y|: the bound there is inf (unbounded: compare.unknown, neither pass nor
fail), never a finite one that the jump breaks.  With n = 0 the remainder is x itself (trunc(x'/y') = 0 on
both sides of 0): no jump at 0.  Before stop 65 fmod returned no bound (exact): heldout86 gnss's
Klobuchar model (`t = fmod(4.32e4 * lambda_i + gps_time, 86400.0)`, lambda_i through
`0.0137 / (el_sc + 0.11)` with el_sc + 0.11 near 0) dropped t's 4e-10 and the GPU's original failed
against the emulator's run by 22 times the bound left.

fdim(x, y) = max(x - y, 0): 1-Lipschitz in each operand, so ea + eb plus the subtraction's rounding.
"""
from __future__ import annotations

import numpy as np

from .ctype import F64, UNIT_ROUNDOFF


def fmod(x, ea, y, eb, track: bool):
    """(fmod(x, y), its bound): None where both operands are exact or bounds are not tracked."""
    with np.errstate(all="ignore"):
        r = np.fmod(x, y)
        if not track or (ea is None and eb is None):
            return r, None
        xd, yd, rd = (np.asarray(v, F64) for v in (x, y, r))
        a = 0.0 if ea is None else np.asarray(ea, F64)
        b = 0.0 if eb is None else np.asarray(eb, F64)
        n = np.abs(np.trunc((xd - rd) / np.where(yd == 0, 1.0, yd)))  # |trunc(x / y)|, exact for finite x, y
        e = a + np.where(b == 0, 0.0, n * b)
        ar, ay = np.abs(rd), np.abs(yd)
        # n is the same for every operand pair within the bounds: the remainder stays inside [0, |y'|)
        # (with x's sign) away from 0 where n != 0 (at n = 0 it is x' itself, continuous through 0)
        steady = ((n == 0) | (ar > e)) & (ar + e < ay - b)
        e = np.where(steady | ~np.isfinite(rd), e, np.inf)
        return r, e


def fdim(x, ea, y, eb, track: bool):
    """(fdim(x, y), its bound): x - y rounded where positive, else +0."""
    with np.errstate(all="ignore"):
        r = np.maximum(x - y, 0)
        if not track or (ea is None and eb is None) or r.dtype.kind != "f":
            return r, None
        e = (0.0 if ea is None else ea) + (0.0 if eb is None else eb)
        return r, e + np.abs(np.asarray(r, F64)) * UNIT_ROUNDOFF[r.dtype]
