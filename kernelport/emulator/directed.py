"""CUDA's directed-rounding arithmetic in the emulator: `__fadd_rd`, `__fmul_ru`, `__fsqrt_rz`,
`__dadd_ru`, `__fma_rd`, ... (PTX's add/mul/div/fma/sqrt/rcp with .rm / .rp / .rz), and the double
round-to-nearest forms the table had no entry for (`__dsub_rn`, `__ddiv_rn`, `__dsqrt_rn`, `__drcp_rn`).

numpy computes only round-to-nearest, so each element's result is found from the exact value: the
largest representable value at or below it (its floor in the type), decided with Python's Fraction
(a square root by comparing the candidate's exact square with the operand), then the floor or the
next value up as the mode asks.  Interval-arithmetic codes (a bound computed downwards, the other
upwards) and the VRP savings of heldout63 (`__fsqrt_ru` of a distance) call them; without them a run
stopped at "unknown function".  Rare in kernels, so the element loop in Python costs nothing that
matters.  IEEE's special cases: a NaN or infinite operand, a division by zero and a negative square
root give the round-to-nearest result (the same in every mode); an exact zero sum is -0 when rounding
down unless both addends are +0, as IEEE 754 (6.3) says; past the largest finite value, down and
toward zero give it and up gives infinity (mirrored for negative values).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from .ctype import F32, F64

# CUDA's name stem -> (operation, operand count, type); each with _rd, _ru, _rz (and _rn where noted)
_STEMS = {"__fadd": ("+", 2, F32), "__fsub": ("-", 2, F32), "__fmul": ("*", 2, F32), "__fdiv": ("/", 2, F32),
          "__frcp": ("rcp", 1, F32), "__fsqrt": ("sqrt", 1, F32), "__fmaf": ("fma", 3, F32),
          "__dadd": ("+", 2, F64), "__dsub": ("-", 2, F64), "__dmul": ("*", 2, F64), "__ddiv": ("/", 2, F64),
          "__drcp": ("rcp", 1, F64), "__dsqrt": ("sqrt", 1, F64), "__fma": ("fma", 3, F64)}
_NEAREST_TOO = ("__dsub", "__ddiv", "__drcp", "__dsqrt")  # their _rn had no entry before this table

# intrinsics.C_LIBRARY entries: name -> ("rnd", (operation, mode), type)
TABLE = {f"{stem}_{mode}": ("rnd", (op, mode), dt)
         for stem, (op, _, dt) in _STEMS.items()
         for mode in ("rd", "ru", "rz") + (("rn",) if stem in _NEAREST_TOO else ())}


def rounded(op: str, mode: str, operands, nearest, dt):
    """The result of `op` on `operands` (values already of type dt) rounded by `mode`, and its error
    bound: `nearest` (the round-to-nearest (value, bound) the emulator computes) widened by the step."""
    near_v, near_e = nearest
    arrays = np.broadcast_arrays(*(np.asarray(v, dt) for v in operands), np.asarray(near_v, dt))
    out = np.array(arrays[-1], dt, copy=True)
    flat = out.reshape(-1)
    ops = [a.reshape(-1) for a in arrays[:-1]]
    for i in range(flat.size):
        flat[i] = _one(op, mode, [o[i] for o in ops], flat[i], dt)
    if not isinstance(near_v, np.ndarray):
        out = out.reshape(())[()]
    if near_e is None:
        return out, None
    return out, near_e + np.abs(np.asarray(out, F64) - np.asarray(near_v, F64))


def _one(op: str, mode: str, xs, near, dt):
    if op == "fma" and np.isfinite(xs[0]) and np.isfinite(xs[1]) and not np.isfinite(xs[2]):
        return xs[2]  # a finite product is exact: the infinite (or NaN) addend is the result, in every mode
    if not all(np.isfinite(x) for x in xs) or op == "/" and xs[1] == 0 or op == "rcp" and xs[0] == 0:
        return near  # NaN / infinite operands, x / 0, 1 / 0: the same in every mode
    if op == "sqrt":
        a = Fraction(float(xs[0]))
        if a <= 0:
            return near  # sqrt(+-0) = +-0, sqrt(negative) = NaN
        lo = _floor(lambda c: (_q(c) ** 2 > a) - (_q(c) ** 2 < a), near, dt)
        return _pick(mode, lo, near, lambda c: _q(c) ** 2 == a, True, dt, lambda lo_, hi_: _sqrt_tie(lo_, hi_, a))
    exact = _exact(op, [_q(x) for x in xs])
    if exact == 0:
        return _zero(op, mode, xs, near, dt)
    if mode == "rn" and abs(exact) >= _overflow(dt):  # IEEE: rounds to infinity from max + half its step
        return dt.type(np.inf if exact > 0 else -np.inf)
    top = _q(np.finfo(dt).max)
    lo = _floor(lambda c: (_q(c) > exact) - (_q(c) < exact), dt.type(min(max(exact, -top), top)), dt)
    return _pick(mode, lo, near, lambda c: _q(c) == exact, exact > 0, dt,
                 lambda lo_, hi_: (exact - _q(lo_)) - (_q(hi_) - exact))


def nearest_fma(a, b, c, near, dt):
    """a * b + c rounded once to nearest (fused.py's exact fallback); near: the unfused value, the
    IEEE result where an operand is infinite or NaN."""
    return _one("fma", "rn", [dt.type(a), dt.type(b), dt.type(c)], dt.type(near), dt)


def _overflow(dt) -> Fraction:
    top = _q(np.finfo(dt).max)
    return top + (top - _q(np.nextafter(np.finfo(dt).max, dt.type(0)))) / 2


def _q(x) -> Fraction:
    return Fraction(float(x))


def _exact(op: str, f):
    if op == "+":
        return f[0] + f[1]
    if op == "-":
        return f[0] - f[1]
    if op == "*":
        return f[0] * f[1]
    if op == "/":
        return f[0] / f[1]
    if op == "rcp":
        return 1 / f[0]
    return f[0] * f[1] + f[2]  # fma


def _floor(side, c, dt):
    """The largest value of dt at or below the exact value; side(c): the sign of c - exact."""
    c = dt.type(c)
    while np.isfinite(c) and side(c) > 0:
        c = np.nextafter(c, dt.type(-np.inf))
    while np.isfinite(c):
        up = np.nextafter(c, dt.type(np.inf))
        if not np.isfinite(up) or side(up) > 0:
            break
        c = up
    return c


def _pick(mode: str, lo, near, is_exact, positive: bool, dt, tie):
    """lo (the floor), the next value up, or for rn the nearer (ties to even); past the largest finite
    value lo or the next is infinite (rn: the finite one, _one having sent values past the overflow
    threshold to infinity)."""
    hi = np.nextafter(lo, dt.type(np.inf))  # past the largest finite value: infinity
    if np.isfinite(lo) and is_exact(lo):
        return lo
    if mode == "rd" or mode == "rz" and positive:
        return lo
    if mode == "ru" or mode == "rz":
        return hi
    if not (np.isfinite(lo) and np.isfinite(hi)):  # below the overflow threshold (_one): the largest finite
        return hi if np.isfinite(hi) else lo if np.isfinite(lo) else near
    t = tie(lo, hi)  # rn: (exact - lo) - (hi - exact); ties to the even significand
    if t != 0:
        return lo if t < 0 else hi
    return lo if int(np.asarray(lo).view(np.uint64 if dt == F64 else np.uint32)) % 2 == 0 else hi


def _sqrt_tie(lo, hi, a):
    """The sign of (sqrt(a) - lo) - (hi - sqrt(a)), i.e. of sqrt(a) - m with m the midpoint: of a - m^2."""
    m = (_q(lo) + _q(hi)) / 2
    return (a > m * m) - (a < m * m)


def _zero(op: str, mode: str, xs, near, dt):
    """An exact zero: a product or quotient keeps the sign numpy gave; a sum is -0 rounding down
    unless both addends are +0 (the sign of +0 + +0 and of -0 + -0 stays in every mode)."""
    if op in ("*", "/", "rcp"):
        return near
    if op == "+":
        addends = [xs[0], xs[1]]
    elif op == "-":
        addends = [xs[0], -xs[1]]
    else:
        addends = [xs[0] * xs[1], xs[2]]
    if all(x == 0 for x in addends) and np.signbit(addends[0]) == np.signbit(addends[1]):
        return dt.type(addends[0])
    return dt.type(-0.0) if mode == "rd" else dt.type(0.0)
