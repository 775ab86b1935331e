"""Error bounds at infinities, from IEEE semantics.

A bound e says |v - exact| <= e.  An infinite value whose bound is finite (or None) is an exact
infinity (a `-INFINITY` literal, an online softmax's starting max): only the exact value can be
infinite.  IEEE gives exact results from exact infinities (inf - x = inf for finite x, exp(-inf) = 0,
1/inf = 0, x * inf = inf for x of certain sign), so those results keep a finite bound; a bound
that is inf on a finite value (an overflow, a division by a value whose bound reaches 0) stays
unbounded, and a NaN bound never comes from operands with finite values and bounds: a product of
bounds treats an exact factor (0) as contributing nothing, never 0 * inf.
"""
from __future__ import annotations

import numpy as np


def finite_bound(e):
    """Where the bound is finite (an exact value, None, is)."""
    return True if e is None else np.isfinite(e)


def exact_inf(v, e):
    """Where v is an exact infinity: infinite with a finite bound."""
    return np.isinf(v) & finite_bound(e)


def real(v, e):
    """Where v is a finite value known to within a finite bound (its exact value is a real)."""
    return np.isfinite(v) & finite_bound(e)


def certain_sign(v, e):
    """Where v's exact value is nonzero with v's sign: an exact infinity, or |v| > e."""
    a = np.abs(v.astype(np.float64))
    return exact_inf(v, e) | (a > (0.0 if e is None else e))


def bmul(a, b):
    """A product of bound terms with 0 where either factor is 0: an exact factor contributes
    nothing (0 * inf would be NaN)."""
    with np.errstate(invalid="ignore"):
        p = a * b
    if np.isnan(p).any():  # (rare: the fix-up only where a NaN came)
        p = np.where((a == 0) | (b == 0), 0.0, p)
    return p


def settle(r, e, exact):
    """e with 0 where the result r is infinite and exact() (the IEEE result at those operands is
    exactly that infinity), and the rounding term kept elsewhere.  exact is called only where r
    has an infinity (the common finite case costs one test)."""
    if e is None or not np.isinf(r).any():
        return e
    return np.where(np.isinf(r) & exact(), 0.0, e)


def sum_exact(x, ea, y, eb):
    """x + y (or x - y) is exactly infinite: one operand an exact infinity, the other a real or an
    exact infinity (of the same sign where the result is infinite at all)."""
    return (exact_inf(x, ea) & (real(y, eb) | exact_inf(y, eb))) | (exact_inf(y, eb) & real(x, ea))


def product_exact(x, ea, y, eb):
    """x * y is exactly infinite: an exact infinity times a value of certain sign."""
    return (exact_inf(x, ea) & certain_sign(y, eb)) | (exact_inf(y, eb) & certain_sign(x, ea))


def quotient(r, e, x, ea, y, eb):
    """The bound of r = x / y at infinities: inf / (certain sign) and (certain sign) / exact 0 are
    exact infinities; a real over an exact infinity is exactly 0."""
    if e is None:
        return e
    if np.isinf(r).any():
        ydd = y.astype(np.float64)
        zero = (ydd == 0) & ((eb is None) | (np.asarray(0.0 if eb is None else eb) == 0))
        exact = (exact_inf(x, ea) & real(y, eb) & certain_sign(y, eb)) | (certain_sign(x, ea) & real(x, ea) & zero)
        e = settle(r, e, lambda: exact)
    if np.isinf(y).any():
        e = np.where(exact_inf(y, eb) & real(x, ea), 0.0, e)
    return e


def fma_exact(a, ea, b, eb, c, ec):
    """a * b + c is exactly infinite: an exact infinite product plus a real, or a real product plus
    an exact infinity."""
    return (product_exact(a, ea, b, eb) & real(c, ec)) | (real(a, ea) & real(b, eb) & exact_inf(c, ec))
