"""An operation of exact operands whose result is exact carries no rounding error (review66d).

`a + b`, `a - b` and `a * b` of two values with no error (inputs, literals) round on every IEEE GPU to the same
float; where that float is the exact result (quarters summed, small integers multiplied) the error is 0, not
u |r|.  The emulator's bound is what the comparisons within their bounds (emulator.flips) read: with u |r| an
exact `a > 0.25f` at a == 0.25 was a comparison that may flip, its lanes unknown, and a port writing `>=` for
`>` a skip where it computes something else.  Float32 and narrower only: their products are exact in float64
and their sums' rounding is measured exactly there (TwoSum)."""
from __future__ import annotations

import numpy as np

_F64 = np.dtype(np.float64)


def _exact(bounds):
    """The lanes on which every bound is None or 0 (True: all), or None where there is none."""
    ok = True
    for b in bounds:
        if b is not None:
            if np.iscomplexobj(b):
                return None
            ok = ok & (np.asarray(b) == 0)
            if not np.any(ok):
                return None
    return ok


def _sum(a, b):
    """a + b in float64 and what its rounding lost (TwoSum: a + b - s exactly; fused._two_sum's, out of place: a
    lane of a scalar store is a 0-d value)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def rounding(op: str, x, ea, y, eb, r, e):
    """The rounding error e of r = x op y (op in + - *), 0 on the lanes where x and y are exact (their bounds
    None or 0) and r is the exact result."""
    if e is None or r.dtype.itemsize > 4 or op not in "+-*" or (ok := _exact((ea, eb))) is None:
        return e
    a, b = np.asarray(x, _F64), np.asarray(y, _F64)
    with np.errstate(all="ignore"):
        s, lost = (a * b, 0.0) if op == "*" else _sum(a, b if op == "+" else -b)
        exact = ok & (s == np.asarray(r, _F64)) & (lost == 0) & np.isfinite(s)
    return np.where(exact, 0.0, e) if np.any(exact) else e


def fused(x, ea, y, eb, z, ez, r, e, contracted: bool):
    """The bound e of r = fma(x, y, z), 0 on the lanes where the operands are exact and r is the exact result
    (contracted, a*b + c a compiler may leave unfused: the product exact in r's type too)."""
    if e is None or r.dtype.itemsize > 4 or (ok := _exact((ea, eb, ez))) is None:
        return e
    with np.errstate(all="ignore"):
        p = np.asarray(x, _F64) * np.asarray(y, _F64)
        s, lost = _sum(p, np.asarray(z, _F64))
        exact = ok & (s == np.asarray(r, _F64)) & (lost == 0) & np.isfinite(s)
        if contracted:
            exact = exact & (p.astype(r.dtype).astype(_F64) == p)
    return np.where(exact, 0.0, e) if np.any(exact) else e


def converted(v, e, r, re_):
    """The rounding error re_ of r, v converted to a narrower float, 0 on the lanes where v is exact (e None or 0)
    and r holds it exactly (`__float2half(0.0f)`: no rounding on any GPU)."""
    if re_ is None or (ok := _exact((e,))) is None:
        return re_
    with np.errstate(all="ignore"):
        exact = ok & (np.asarray(r, _F64) == np.asarray(v, _F64))
    return np.where(exact, 0.0, re_) if np.any(exact) else re_
