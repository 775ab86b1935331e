"""A fused multiply-add rounded once, as CUDA's `fma` / `fmaf` / `__fma_rn` / `__fmaf_rn` and nvcc's
contraction of a*b + c compute it (numpy has no fma, Python 3.11 no math.fma).

float32 (and half) operands: their product is exact in double and the exact sum's rounding to double
is made *to odd* (the neighbour with an odd last bit wherever the sum was inexact), so the one
rounding to the narrow type is the correct one (Boldo and Melquiond, "Emulation of FMA and
correctly-rounded sums: proved algorithms using rounding to odd", IEEE TC 2008: double has at least
two more bits than float).  A plain double sum then rounded to float is a double rounding, wrong
where it lands on a float midpoint.

double operands: the same paper's emulated FMA: a*b = uh + ul exactly (Dekker's product),
c + uh = th + tl exactly (Knuth's two-sum), v = tl + ul rounded to odd, result th + v rounded to
nearest.  Dekker's split and the error terms hold only away from overflow and underflow, so elements
with a huge or tiny operand or product, an infinite or NaN operand, are computed exactly instead
(directed.py's Fraction rounding, mode "rn"), as is max*max + -inf (-inf fused, NaN unfused).
The common case (no element near underflow, every result finite) skips the round to odd: th + RN(tl + ul)
is already right but where it lands exactly on a midpoint (_screened), and only those elements pay
for it; the guards there are a few reductions, not per-element masks.
"""
from __future__ import annotations

import numpy as np

from . import directed, undefined
from .ctype import F64

_SPLITTER = F64.type(2.0 ** 27 + 1.0)  # Veltkamp's split of a double into two 26-bit halves
_BIG, _SMALL = 2.0 ** 995, 2.0 ** -900  # Dekker's product exact (no overflow, no underflow) between them


def _two_sum(x, y):
    """s = x + y rounded and e with s + e == x + y exactly (Knuth; no overflow).  (In place on its own
    temporaries: numpy's passes over fresh arrays are most of an fma's cost.)"""
    s = x + y
    bp = s - x
    e = s - bp
    np.subtract(x, e, out=e)
    np.subtract(y, bp, out=bp)
    e += bp
    return s, e


def _split(x):
    t = x * _SPLITTER
    hi = t - x
    np.subtract(t, hi, out=hi)
    np.subtract(x, hi, out=t)
    return hi, t


def _two_product(a, b):
    """p = a * b rounded and e with p + e == a * b exactly (Dekker, away from overflow and underflow):
    e = ((ah*bh - p) + ah*bl + al*bh) + al*bl, summed in that order."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ah * bh
    e -= p
    ah *= bl
    e += ah
    bh *= al
    e += bh
    al *= bl
    e += al
    return p, e


def _to_odd(s, e):
    """s = x + y rounded to nearest, e the exact rest: the sum rounded to odd (s where exact or odd,
    else s's neighbour toward the exact value, whose last bit is odd)."""
    bits = s.view(np.int64)
    step = (e != 0) & np.isfinite(e) & ((bits & 1) == 0)
    if not step.any():
        return s
    # the neighbour (s is nonzero where e is): one up in magnitude where the exact value is farther from
    # zero than s, else one down (integer steps of the bits: np.nextafter is many times slower)
    delta = np.where((e > 0) == (s > 0), 1, -1) * step
    return (bits + delta).view(F64)


def fma(a, b, c, dt):
    """a * b + c of float arrays (or scalars) of type dt, rounded once to dt."""
    scalar = all(np.ndim(x) == 0 for x in (a, b, c))
    marked = [x.undef for x in (a, b, c) if isinstance(x, undefined.Undef)]  # values never written
    xa, xb, xc = (np.atleast_1d(np.asarray(undefined.plain(x), F64)) for x in (a, b, c))
    with np.errstate(all="ignore"):
        if dt != F64:  # float, half: the product is exact in double
            r = _narrow(*np.broadcast_arrays(xa * xb, xc), dt)
        else:
            r = _fma64(*np.broadcast_arrays(xa, xb, xc))
    if marked:  # (the result of a value never written is marked as arithmetic's is)
        u = np.zeros(r.shape, bool)
        for m in marked:
            u = u | np.broadcast_to(m, r.shape)
        return undefined.mark(r, u)
    return r.reshape(()).astype(dt)[()] if scalar else r


def _narrow(p, c, dt):
    """p + c rounded once to dt (p, c exact doubles).  The double sum rounded to dt is right except where
    it lands on one of dt's midpoints (its bits below dt's last all 10...0) or in dt's subnormals: only
    there is the sum redone rounded to odd (the common case costs a mask test)."""
    s = p + c
    shift = 52 - np.finfo(dt).nmant  # the double bits below dt's last one
    low = s.view(np.uint64) & np.uint64((1 << shift) - 1)
    doubt = (low == np.uint64(1 << (shift - 1))) | (np.abs(s) < np.finfo(dt).tiny)
    if doubt.any():
        s = np.where(doubt, _to_odd(*_two_sum(p, c)), s)
    return s.astype(dt)


def _fma64(a, b, c):
    uh, ul = _two_product(a, b)
    th, tl = _two_sum(c, uh)
    if _ordinary(c, uh):
        r = _screened(th, tl, ul)
        if r is not None:
            return r
    r = th + _to_odd(*_two_sum(tl, ul))
    # a or b zero: the product is an exact signed zero, one rounding of the sum; c zero: the rounded
    # product is the result (a product underflowing to -0 stays -0, as the fused result does)
    zero_ab, zero_c = (a == 0) | (b == 0), c == 0
    if zero_ab.any() or zero_c.any():
        r = np.where(zero_ab, uh + c, np.where(zero_c, uh, r))
    au, ac = np.abs(uh), np.abs(c)
    top = np.maximum(np.maximum(np.abs(a), np.abs(b)), np.maximum(au, ac))
    odd = ~zero_ab & ((top > _BIG) | (au < _SMALL) | ((ac < _SMALL) & ~zero_c) | ~np.isfinite(r))
    for i in np.flatnonzero(odd):  # rare: computed exactly
        r[i] = directed.nearest_fma(a[i], b[i], c[i], uh[i] + c[i], F64)
    return r


def _ordinary(c, uh):
    """No element near underflow: every |a*b| and every nonzero |c| at least _SMALL (overflow anywhere
    in the products and sums, or a non-finite operand, shows as a non-finite result: _screened)."""
    if np.abs(uh).min() < _SMALL:
        return False  # (a or b zero, or a tiny product: the guarded path)
    ac = np.abs(c)
    return ac.min() >= _SMALL or not ((ac < _SMALL) & (c != 0)).any()


def _screened(th, tl, ul):
    """th + (tl + ul) rounded once, the common case's cost, or None where an element is not finite.

    r = th + RN(tl + ul) is the fused result unless th + RN(tl + ul) is exactly a midpoint of r's
    neighbours and tl + ul was inexact (a midpoint between the exact value and its rounding would be a
    double nearer to tl + ul than its rounding; where tl is 0, tl + ul is exact).  Where tl is not 0,
    |th| >= |tl + ul|, so w = v - (r - th) is the exact error of th + v (Fast2Sum), and a midpoint makes
    w plus or minus a power of two: only those elements are redone rounded to odd."""
    v = tl + ul
    r = th + v
    hi, lo = r.max(), r.min()
    if not (hi < np.inf and lo > -np.inf):
        return None  # (NaN or an infinity: overflow somewhere, the guarded path)
    w = v - (r - th)
    doubt = (w.view(np.int64) << 12) == 0  # w's significand bits all 0: zero or a power of two
    if doubt.any():
        i = np.flatnonzero(doubt & (w != 0))
        if i.size:
            r[i] = th[i] + _to_odd(*_two_sum(tl[i], ul[i]))
    return r
