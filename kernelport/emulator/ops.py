"""C arithmetic on emulator values, with a running absolute error bound for floats.

A value is a pair (v, e): v a numpy array over lanes (or a numpy scalar when uniform) whose dtype
is the C type, e None (exact) or a float64 bound on |v - exact real result|.  Each float operation
adds its rounding bound u*|result| (u the unit roundoff of the result type) to the propagated
bounds of its operands.
"""
from __future__ import annotations

import numpy as np

from . import bfloat16, bitbounds, counting, exact_ops, flips, fused, infinities, remainders, ufp
from .ctype import BF16, BOOL, F16, F64, I32, UNIT_ROUNDOFF, common, conv, promote

_abs = np.abs
_HALF_ETA = 2.0 ** -24  # (half's smallest subnormal: a rounding into its range, emulator.ufp)
_COMPARE = frozenset(("<", ">", "<=", ">=", "==", "!=", "&&", "||"))
_ORDER = {"<": np.less, ">": np.greater, "<=": np.less_equal, ">=": np.greater_equal, "==": np.equal,
          "!=": np.not_equal}


def _ea(e):
    return 0.0 if e is None else e


def _round_err(r):
    """u*|r|, computed in r's own float type (scaling by a power of two is exact); a half's u*ufp(r) (emulator.ufp)."""
    u = UNIT_ROUNDOFF.get(r.dtype)
    if r.dtype == F16:
        return ufp.rounding(r, u, _HALF_ETA)
    return _abs(r) * r.dtype.type(u) if u else None


def _sum_err(ea, eb, re_):
    """ea + eb + re_ with an exact operand's bound (None) skipped: the same sum, fewer passes."""
    if ea is None:
        return re_ if eb is None else (0.0 + eb) + re_
    if eb is None:
        return (ea + 0.0) + re_
    return (ea + eb) + re_


def arith(op: str, a, b, track: bool):
    """Binary arithmetic / bitwise / comparison on (v, e) pairs with C conversions."""
    va, ea = a
    vb, eb = b
    if (ea is not None or eb is not None) and va.dtype.kind != "f" and vb.dtype.kind != "f" and op not in _COMPARE:
        r = arith(op, (va, None), (vb, None), track)[0]  # integer operations on a float's bits: the
        return r, (bitbounds.lost_like(None, r) if track else None)  # bound is not followed (bitbounds)
    if op in ("<<", ">>"):
        ta = promote(va.dtype)
        x = conv(va, ta)
        bits = ta.itemsize * 8
        s = vb.astype(np.int64) if vb.dtype != np.int64 else vb
        if op == "<<":
            r = np.left_shift(x, (s & (bits - 1)).astype(ta))
        else:
            r = np.right_shift(x, (s & (bits - 1)).astype(ta))
        big = s >= bits
        if np.any(big):  # PTX clamps shift amounts: shl by >= width gives 0
            fill = 0 if (op == "<<" or ta.kind == "u") else None
            if fill == 0:
                r = np.where(big, ta.type(0), r).astype(ta)
            else:
                r = np.where(big, np.where(x < 0, ta.type(-1), ta.type(0)), r).astype(ta)
        return r, None
    t = common(va.dtype, vb.dtype)
    x = conv(va, t)
    y = conv(vb, t)
    isf = t.kind == "f"
    if op in _ORDER:  # (a marker where the comparison may go the other way within the operands' bounds: flips)
        return _ORDER[op](x, y), (flips.compared(x, ea, y, eb) if track and (ea is not None or eb is not None)
                                  else None)
    if isf and counting.ACTIVE is not None and op in "+-*/":
        counting.ACTIVE.flop(x if x.size >= y.size else y)
    if op == "+" or op == "-":
        r = x + y if op == "+" else x - y
        if track and isf:
            re_ = exact_ops.rounding(op, x, ea, y, eb, r, _round_err(r))
            return r, infinities.settle(r, _sum_err(ea, eb, re_), lambda: infinities.sum_exact(x, ea, y, eb))
        return r, None
    if op == "*":
        r = x * y
        if track and isf:
            re_ = exact_ops.rounding(op, x, ea, y, eb, r, _round_err(r))
            e = _product_err(re_, x, ea, y, eb)
            return r, infinities.settle(r, e, lambda: infinities.product_exact(x, ea, y, eb))
        return r, None
    if op == "/":
        if isf:
            r = x / y
            if track:
                e = _round_err(r)
                if ea is not None or eb is not None:
                    ay = _abs(y.astype(F64))
                    den = ay - _ea(eb)
                    num = _ea(ea) + _abs(r.astype(F64)) * _ea(eb)
                    with np.errstate(divide="ignore", invalid="ignore"):
                        prop = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.where(den == den, np.inf, den))
                    e = e + prop
                return r, infinities.quotient(r, e, x, ea, y, eb)
            return r, None
        return _idiv(x, y, t), None
    if op == "%":
        if isf:  # MSL's float `%` is fmod: exact, but its operands' error carries through (remainders.py)
            return remainders.fmod(x, ea, y, eb, track)
        return _imod(x, y, t), None
    if op == "&":
        return x & y, None
    if op == "|":
        return x | y, None
    if op == "^":
        return x ^ y, None
    if op == "<":
        return x < y, None
    if op == ">":
        return x > y, None
    if op == "<=":
        return x <= y, None
    if op == ">=":
        return x >= y, None
    if op == "==":
        return x == y, None
    if op == "!=":
        return x != y, None
    raise NotImplementedError(op)


def _idiv(x, y, t):
    if t.kind == "u":
        with np.errstate(divide="ignore"):
            return np.floor_divide(x, y)
    # C: truncation toward zero.  (x - fmod(x, y)) / y is exact.
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.fmod(x, y)
        q = np.floor_divide(x - r, y)
    return q.astype(t) if q.dtype != t else q


def _imod(x, y, t):
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.fmod(x, y) if t.kind == "i" else np.remainder(x, y)
    return r


def fma(a, b, c, track: bool, dt=None, contracted: bool = False):
    """Fused multiply-add with a single rounding (fused.py).  contracted: a*b + c the compiler may fuse
    or not (nvcc fuses by default, --fmad=false, gcc's -ffp-contract=off reference and a backend that
    declines round the product first): the bound also holds the product's rounding, so that it covers
    either result (a cancelling a*b - c is exact fused, off by the product's rounding unfused)."""
    (va, ea), (vb, eb), (vc, ec) = a, b, c
    t = dt or common(common(va.dtype, vb.dtype), vc.dtype)
    if t.kind != "f":
        return arith("+", arith("*", a, b, False), c, False)
    if va.dtype != t or vb.dtype != t or vc.dtype != t:  # C's conversions first (`i * f + c`: i rounded to float)
        (va, ea), (vb, eb), (vc, ec) = a, b, c = tuple(convert(x, t, track) for x in (a, b, c))
    r = fused.fma(va, vb, vc, t)
    if counting.ACTIVE is not None:
        counting.ACTIVE.flop(r, 2)
    if not track:
        return r, None
    e = _product_err(_round_err(r), va, ea, vb, eb)
    if contracted:
        with np.errstate(over="ignore"):
            e = e + _round_err(va.astype(t) * vb.astype(t)).astype(F64)
    if ec is not None:
        e = e + ec
    e = exact_ops.fused(va, ea, vb, eb, vc, ec, r, e, contracted)
    return r, infinities.settle(r, e, lambda: infinities.fma_exact(va, ea, vb, eb, vc, ec))


def _product_err(e, x, ea, y, eb):
    """e plus the propagated bound of x * y: |y| ea + |x| eb + ea eb (bmul: an exact factor adds nothing)."""
    if ea is not None:
        e = e + infinities.bmul(_abs(y.astype(F64)), ea)
    if eb is not None:
        e = e + infinities.bmul(_abs(x.astype(F64)), eb)
    if ea is not None and eb is not None:
        e = e + infinities.bmul(ea, eb)
    return e


def neg(a):
    v, e = a
    t = promote(v.dtype)
    return -conv(v, t), (e if e is None or t.kind == "f" else bitbounds.lost_like(e))


def bitnot(a):
    v, e = a
    t = promote(v.dtype)
    return ~conv(v, t), (None if e is None else bitbounds.lost_like(e))


def lnot(a):
    return np.logical_not(truth(a[0])), (a[1] if getattr(a[0], "dtype", None) == BOOL else None)  # (`!p`: false
    # for a Pointer, as its truth; a comparison's marker stays: emulator.flips)


def truth(v):
    """C truth value as a bool array / scalar; a pointer's (`if (sums && tid == last)`) is true but in
    its lanes that hold NULL (emulator.nulls); a pointer null in every lane is the integer 0."""
    dt = getattr(v, "dtype", None)
    if dt is None:  # a Pointer, or a Python scalar
        from .memory import Pointer
        if isinstance(v, Pointer):
            from .nulls import truth as pointer_truth
            return pointer_truth(v)
        return np.bool_(bool(v))
    return v if dt == BOOL else v != 0


def convert(a, dt, track: bool):
    """Value conversion to dt, with the rounding bound of a narrowing float conversion."""
    v, e = a
    if v.dtype == dt:
        return a
    if e is not None and v.dtype.kind in "iu":  # an integer holding a float's bits (bitbounds)
        same = dt.kind in "iu" and dt.itemsize == v.dtype.itemsize
        return conv(v, dt), (e if same else None if dt.kind == "b" else bitbounds.lost_like(e))
    if dt == BF16:  # a float32 value rounded to bfloat16's 8 bits: the rounding is its error
        return bfloat16.convert(v, e) if track else (conv(v, dt), None)
    r = conv(v, dt)
    if dt.kind != "f":
        return r, (e if v.dtype == BOOL and dt.kind in "iu" else None)  # (a comparison's marker: emulator.flips)
    if not track:
        return r, None
    u = UNIT_ROUNDOFF.get(dt, 0.0)
    if v.dtype.kind == "f" and v.dtype.itemsize <= dt.itemsize:
        return r, e
    if v.dtype.kind in "iub" and (v.dtype.itemsize < 4 or dt.itemsize >= 8 or v.dtype == np.bool_):
        return r, e
    re_ = ufp.rounding(r, u, _HALF_ETA) if dt == F16 else _abs(r.astype(F64)) * u
    re_ = exact_ops.converted(v, e, r, re_)
    return r, infinities.settle(r, re_ if e is None else e + re_, lambda: infinities.exact_inf(v, e))


def to_int32(v):
    return conv(v, I32)
