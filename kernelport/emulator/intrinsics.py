"""Implementations of the dialect table's concepts (keyed by concept key, never by spelling),
plus the C math library functions that are not backend concepts.

Names are mapped to concepts by the compiler through `dialect.spelled_by` / `dialect.bind`; this
module only says what each concept computes.
"""
from __future__ import annotations

import math

import numpy as np

from . import bfloat16, bitbounds, counting, directed, infinities, order as schedule_order, remainders, undefined, warp
from .ctype import BF16, BOOL, F16, F32, F64, I32, I64, U16, U32, U64, UNIT_ROUNDOFF, common, conv, promote
from .errors import EmulatorError
from .ops import arith, convert, fma as _fma

# Declared parameter types of the CUDA/HIP bit intrinsics (C converts the argument: this is how
# a 64-bit ballot passed to 32-bit __popc loses lanes 32-63).  Metal's are generic.
BITOP_PARAM = {"popc": U32, "popc64": U64, "ffs": I32, "ffs64": I64, "clz": I32, "clz64": I64, "brev": U32,
               "brev64": U64}

COLLECTIVES = {"shfl", "shfl_up", "shfl_down", "shfl_xor", "ballot", "any", "all", "activemask", "lanemask_lt",
               "simd_sum", "simd_max", "simd_min"}

# sm_70's matches (dialect.CUDA_ONLY_WARP; HIP: the prologue's kp_match_any): __match_all_sync's predicate,
# written through its pointer, is the caller's (calls.py _match_all)
MATCHES = {"cuda_only___match_any_sync", "cuda_only___match_all_sync"}


# ---------------------------------------------------------------------------------------------
# Math
# ---------------------------------------------------------------------------------------------
def _deriv_exp(x):
    return np.exp(x)


_MATH = {
    # name: (numpy function, |derivative| function or None, the GPU implementation's documented maximum error in
    # ulps: CUDA programming guide, "Mathematical Functions", single precision; 0: correctly rounded)
    "exp": (np.exp, lambda x: np.exp(x), 2),
    "exp2": (np.exp2, lambda x: np.exp2(x) * math.log(2), 2),
    "exp10": (lambda x: np.power(x.dtype.type(10), x), lambda x: np.power(10.0, x) * math.log(10), 2),
    "expm1": (np.expm1, lambda x: np.exp(x), 1),
    "log": (np.log, lambda x: 1.0 / np.abs(x), 1),
    "log2": (np.log2, lambda x: 1.0 / (np.abs(x) * math.log(2)), 1),
    "log10": (np.log10, lambda x: 1.0 / (np.abs(x) * math.log(10)), 2),
    "log1p": (np.log1p, lambda x: 1.0 / np.abs(1 + x), 1),
    "sin": (np.sin, lambda x: np.ones_like(x), 2),
    "cos": (np.cos, lambda x: np.ones_like(x), 2),
    "tan": (np.tan, lambda x: 1.0 + np.tan(x) ** 2, 4),
    "asin": (np.arcsin, lambda x: 1.0 / np.sqrt(np.maximum(1 - x * x, 1e-300)), 2),
    "acos": (np.arccos, lambda x: 1.0 / np.sqrt(np.maximum(1 - x * x, 1e-300)), 2),
    "atan": (np.arctan, lambda x: 1.0 / (1 + x * x), 2),
    "sinh": (np.sinh, lambda x: np.cosh(x), 3),
    "cosh": (np.cosh, lambda x: np.cosh(x), 2),
    "tanh": (np.tanh, lambda x: 1.0 - np.tanh(x) ** 2, 2),
    "sqrt": (np.sqrt, lambda x: 0.5 / np.sqrt(np.maximum(np.abs(x), 1e-300)), 0),
    "rsqrt": (lambda x: (1 / np.sqrt(x.astype(F64))).astype(x.dtype),
              lambda x: 0.5 * np.abs(x) ** -1.5, 2),
    "cbrt": (np.cbrt, lambda x: np.abs(x) ** (-2 / 3) / 3, 1),
    "erf": (None, lambda x: 2 / math.sqrt(math.pi) * np.exp(-x * x), 2),
    "fabs": (np.abs, None, 0),
    "floor": (np.floor, None, 0),
    "ceil": (np.ceil, None, 0),
    "trunc": (np.trunc, None, 0),
    "round": (lambda x: np.trunc(x + np.copysign(x.dtype.type(0.5), x)).astype(x.dtype), None, 0),
    "rint": (np.rint, None, 0),
    "saturate": (lambda x: np.clip(x, x.dtype.type(0), x.dtype.type(1)), None, 0),
    "rcp": (lambda x: (x.dtype.type(1) / x), lambda x: 1.0 / (x * x), 0),
}
# The fast (hardware approximation) forms compute the same function here; their documented
# extra error is added to the bound.
_FAST_ULPS = {"exp": 2, "log": 2, "sin": 2, "cos": 2, "pow": 8, "tan": 4, "log2": 2, "log10": 3}
# CUDA's fast logarithms near 1 (x in [0.5, 2], where the result nears 0) are bounded absolutely
# (programming guide, "Intrinsic Functions": __logf 2^-21.41, __log2f 2^-22, __log10f is __log2f
# times log10(2)): a relative bound alone would be 0 at x = 1
_FAST_ABS = {"log": 2.0 ** -21.41, "log2": 2.0 ** -22, "log10": 2.0 ** -22 * math.log10(2)}
# CUDA's fast sine and cosine are bounded absolutely, by the argument's range (programming guide,
# "Intrinsic Functions": __sinf/__cosf 2^-21.41 on [-pi, pi]; PTX ISA sin/cos.approx.f32: 2^-20.5
# on [-100 pi, 100 pi]; beyond, no bound is documented: unbounded).  A relative bound alone is far
# too tight near a zero (cuRAND's Box-Muller normals through __sincosf: 3.6e-7 apart on an H100).
_FAST_ABS_RANGES = {f: ((math.pi, 2.0 ** -21.41), (100 * math.pi, 2.0 ** -20.5)) for f in ("sin", "cos")}


def _erf(x):
    v = np.vectorize(math.erf, otypes=[F64])(x.astype(F64))
    return v.astype(x.dtype)


def ulp_bound(ar, u, ulps):
    """The bound of a result r = ar (|r|) within `ulps` ulps of the exact one: an ulp of r is at most 2u|r|, so
    2 ulps u |r|; a correctly rounded one (0) is within half an ulp, u |r|.  Before stop 65 (1 + ulps) u |r|, which
    counted ulps as half ulps: CUDA's expf (2 ulps) got 1.5, powf (4) got 1.5."""
    return ar * u * max(1.0, 2.0 * ulps)


def math1(fn: str, a, track: bool, dt=None, fast: bool = False):
    v, e = a
    t = dt or (v.dtype if v.dtype.kind == "f" else F64)
    x = conv(v, t)
    f, d, ulps = _MATH[fn]
    with np.errstate(all="ignore"):
        r = _erf(x) if fn == "erf" else f(x)
        if r.dtype != t:
            r = r.astype(t)
        if not track or t.kind != "f":
            return r, None
        u = UNIT_ROUNDOFF[t]
        ax = np.abs(r.astype(F64))
        err = ulp_bound(ax, u, ulps + (_FAST_ULPS.get(fn, 0) if fast else 0))
        if fast and fn == "exp":  # __expf: 2 + floor(|1.173 x|) ulps (programming guide, "Intrinsic Functions")
            err = err + 2 * ax * u * np.floor(np.abs(1.173 * x.astype(F64)))
        if fast and fn in _FAST_ABS:
            xd = x.astype(F64)
            err = err + np.where((xd >= 0.5) & (xd <= 2), _FAST_ABS[fn], 0.0)
        if fast and fn in _FAST_ABS_RANGES:
            (r1, a1), (r2, a2) = _FAST_ABS_RANGES[fn]
            ad = np.abs(x.astype(F64))
            err = err + np.where(ad <= r1, a1, np.where(ad <= r2, a2, np.inf))
        if e is not None and d is not None:
            xd = x.astype(F64)
            # derivative at the worse end of [x - e, x + e] (an exact input adds nothing; an
            # unbounded one leaves the result unbounded, never dd * inf's NaN)
            dd = np.maximum(np.abs(d(xd - e)), np.abs(d(xd + e)))
            err = err + np.where(e == 0, 0.0, np.where(np.isfinite(dd) & np.isfinite(e), dd * e, np.inf))
        if np.isinf(x).any():  # f(exact +-inf) is the library's limit (exp(-inf) = 0): its rounding only
            whole = ulp_bound(ax, u, ulps + (_FAST_ULPS.get(fn, 0) if fast else 0))
            err = np.where(infinities.exact_inf(x, e), np.where(np.isinf(r), 0.0, whole), err)
    return r, err


def _chosen_bound(x, ea, y, eb, low: bool):
    """The bound of min(x, y) (low) or max(x, y) whose exact operands lie within ea of x and eb of y:
    the chosen operand's bound only where the two intervals cannot trade places (x + ea <= y - eb for
    min: the exact minimum is x's too); where they overlap the exact result may be the other operand,
    and min/max move by at most the larger of the two (they are 1-Lipschitz in the max norm)."""
    a = 0.0 if ea is None else ea
    b = 0.0 if eb is None else eb
    xd, yd = x.astype(F64), y.astype(F64)
    if low:
        x_alone, y_alone = xd + a <= yd - b, yd + b <= xd - a
    else:
        x_alone, y_alone = xd - a >= yd + b, yd - b >= xd + a
    return np.where(x_alone, a, np.where(y_alone, b, np.maximum(a, b)))


def math2(fn: str, a, b, track: bool, dt=None, fast=False):
    (va, ea), (vb, eb) = a, b
    t = dt or common(va.dtype if va.dtype.kind == "f" else F64, vb.dtype if vb.dtype.kind == "f" else F64)
    x, y = conv(va, t), conv(vb, t)
    with np.errstate(all="ignore"):
        if fn in ("fmin", "min", "fmax", "max"):
            low = fn.endswith("min")
            r = np.fmin(x, y) if low else np.fmax(x, y)
            return r, (_chosen_bound(x, ea, y, eb, low) if track and (ea is not None or eb is not None) else None)
        if fn == "pow":
            r = np.power(x, y)
            if not track:
                return r, None
            u = UNIT_ROUNDOFF[t]
            ar = np.abs(r.astype(F64))
            err = ulp_bound(ar, u, 4 + (_FAST_ULPS["pow"] if fast else 0))  # powf: 4 ulps (pow: 2)
            if ea is not None:
                err = err + infinities.bmul(np.abs(y.astype(F64) * r.astype(F64) / np.where(x == 0, 1, x.astype(F64))), ea)
            if eb is not None:
                err = err + infinities.bmul(ar * np.abs(np.log(np.abs(x.astype(F64)) + 1e-300)), eb)
            return r, err
        if fn == "copysign":
            return np.copysign(x, y), ea
        if fn == "fmod":  # exact, but the operands' error carries through; unbounded near a jump
            return remainders.fmod(x, ea, y, eb, track)
        if fn == "nextafter":  # exact: the neighbour of x toward y (directed roundings' helpers step with it)
            return np.nextafter(x, y), ea
        moved = np.hypot(0.0 if ea is None else ea, 0.0 if eb is None else eb)  # how far (x, y) may lie
        if fn == "atan2":  # atan2f: 3 ulps; the angle of a point moved by `moved` at distance d turns by
            r = np.arctan2(x, y)  # <= moved / (d - moved) (unbounded where the disc reaches the origin)
            if not track:
                return r, None
            d = np.hypot(x.astype(F64), y.astype(F64)) - moved
            turn = np.where(moved == 0, 0.0, np.where(d > 0, moved / np.where(d > 0, d, 1.0), np.inf))
            return r, ulp_bound(np.abs(r.astype(F64)), UNIT_ROUNDOFF[t], 3) + turn
        if fn == "hypot":  # hypot is 1-Lipschitz in the (x, y) plane: bounds ea, eb move it by <= hypot(ea, eb), not max
            r = np.hypot(x, y)
            return r, (ulp_bound(np.abs(r.astype(F64)), UNIT_ROUNDOFF[t], 3) + moved if track else None)
        if fn == "rhypot":  # CUDA's rhypotf (2 ulp): 1/hypot rounded once; inputs' bounds move it by <= r^2 hypot(ea, eb)
            r = (1.0 / np.hypot(x.astype(F64), y.astype(F64))).astype(t)
            return r, (np.abs(r.astype(F64)) * UNIT_ROUNDOFF[t] * 4 + infinities.bmul(
                np.square(r.astype(F64)), moved) if track else None)
        if fn == "fdim":
            return remainders.fdim(x, ea, y, eb, track)
        if fn == "divide":
            return arith("/", (x, ea), (y, eb), track)
    raise NotImplementedError(fn)


# ---------------------------------------------------------------------------------------------
# C library and vendor intrinsics that are not dialect concepts (same name on every backend)
# ---------------------------------------------------------------------------------------------
# The unsuffixed C math names are C++ overloads in every dialect (CUDA's and HIP's math headers, <cmath>,
# MSL): `sqrt(x)` and `fma(a, b, c)` of float arguments are the float functions, rounded as float; a
# double argument, or only integers, calls the double one.  The GPU showed the difference: llm.c's
# `lerp` (`fma(w, end, fma(-w, start, start))` on floats) computed in double drifted 4 float ulps.
OVERLOADED = "overloaded"


def _c_math_table():
    t = {}
    for fn in _MATH:
        t[fn] = ("m1", fn, OVERLOADED)
        t[fn + "f"] = ("m1", fn, F32)
    for fn in ("pow", "fmin", "fmax", "copysign", "fmod", "atan2", "hypot", "fdim", "nextafter"):
        t[fn] = ("m2", fn, OVERLOADED)
        t[fn + "f"] = ("m2", fn, F32)
    t["rhypotf"] = ("m2", "rhypot", F32)  # CUDA's; its rhypot is double only (no float overload)
    t["rhypot"] = ("m2", "rhypot", F64)
    t["fma"] = ("fma", None, OVERLOADED)
    t["modf"] = ("modf", None, OVERLOADED)  # C's modf(x, iptr), MSL's modf(x, intval): modf_calls.py
    t["modff"] = ("modf", None, F32)
    # C's frexp(x, exp) (the mantissa returned, the exponent written: modf_calls.py) and ldexp(x, n): both exact
    # (kernelport's directed-rounding prologue scales operands with them)
    t["frexp"], t["frexpf"] = ("frexp", None, OVERLOADED), ("frexp", None, F32)
    t["ldexp"], t["ldexpf"] = ("ldexp", None, OVERLOADED), ("ldexp", None, F32)
    # C's sincos(x, sptr, cptr) / sincosf, CUDA's fast __sincosf, MSL's sincos(x, cosval): modf_calls.py
    t["sincos"] = ("sincos", None, OVERLOADED)
    t["sincosf"] = ("sincos", None, F32)
    t["__sincosf"] = ("sincos", "fast", F32)
    t["fmaf"] = ("fma", None, F32)
    t["__fmaf_rn"] = ("fma", None, F32)
    t["__fma_rn"] = ("fma", None, F64)
    t["__frcp_rn"] = ("m1", "rcp", F32)
    t["__fsqrt_rn"] = ("m1", "sqrt", F32)
    t["__exp10f"] = ("m1", "exp10", F32)
    t["__log2f"] = ("m1", "log2", F32)
    t["__log10f"] = ("m1", "log10", F32)
    t["__tanf"] = ("m1", "tan", F32)
    return t


C_LIBRARY = _c_math_table()
C_LIBRARY.update(directed.TABLE)  # CUDA's directed roundings (__fadd_rd, __fsqrt_ru, __fma_rz, ...)
# MSL's scoped math with no C name of its own (`precise::divide(x, y)`): the C_LIBRARY entry it runs as
SCOPED_MATH = {"divide": "__fdiv_rn"}
C_LIBRARY.update({
    "min": ("minmax", "min", None), "max": ("minmax", "max", None), "umin": ("minmax", "min", U32),
    "umax": ("minmax", "max", U32), "llmin": ("minmax", "min", I64), "llmax": ("minmax", "max", I64),
    "abs": ("abs", None, None), "labs": ("abs", None, None), "llabs": ("abs", None, None),
    "clamp": ("clamp", None, None),
    "__ldg": ("ldg", None, None),
    # cache-hinted loads and stores (sm_35+): the load or store they hint
    **{name: ("ldg", None, None) for name in ("__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv")},
    **{name: ("stg", None, None) for name in ("__stwb", "__stcg", "__stcs", "__stwt")},
    "__fadd_rn": ("op", "+", F32), "__fsub_rn": ("op", "-", F32), "__fmul_rn": ("op", "*", F32),
    "__fdiv_rn": ("op", "/", F32), "__dadd_rn": ("op", "+", F64), "__dmul_rn": ("op", "*", F64),
    "__float2int_rz": ("cvt", "rz", I32), "__float2int_rn": ("cvt", "rn", I32), "__float2int_rd": ("cvt", "rd", I32),
    "__float2int_ru": ("cvt", "ru", I32), "__float2uint_rz": ("cvt", "rz", U32), "__float2uint_rn": ("cvt", "rn", U32),
    "__float2uint_rd": ("cvt", "rd", U32), "__float2uint_ru": ("cvt", "ru", U32),
    "__int2float_rn": ("cvt", "rn", F32), "__uint2float_rn": ("cvt", "rn", F32), "__double2float_rn": ("cvt", "rn", F32),
    "__float2ll_rz": ("cvt", "rz", I64), "lrintf": ("cvt", "rn", I64), "lroundf": ("cvt", "ra", I64),
    "llrintf": ("cvt", "rn", I64), "llroundf": ("cvt", "ra", I64),
    "__float_as_int": ("bits", None, I32), "__int_as_float": ("bits", None, F32),
    "__float_as_uint": ("bits", None, U32), "__uint_as_float": ("bits", None, F32),
    "__double_as_longlong": ("bits", None, I64), "__longlong_as_double": ("bits", None, F64),
    "__half_as_ushort": ("bits", None, U16), "__ushort_as_half": ("bits", None, F16),
    "__umulhi": ("mulhi", None, U32), "__mulhi": ("mulhi", None, I32), "__mul24": ("op", "*", I32),
    "__umul24": ("op", "*", U32), "mul24": ("op", "*", None),  # Metal's mul24(T, T): of its arguments' type
    "isnan": ("pred", "isnan", None), "isinf": ("pred", "isinf", None), "isfinite": ("pred", "isfinite", None),
    "signbit": ("pred", "signbit", None), "__isnanf": ("pred", "isnan", None),
    "__float2half": ("cvt", "rn", F16), "__half2float": ("cvt", "rn", F32),
    "__float2bfloat16": ("cvt", "rn", BF16), "__float2bfloat16_rn": ("cvt", "rn", BF16),
    "__bfloat162float": ("cvt", "rn", F32),
    # cuda_fp16.h: half arithmetic, each operation rounded to half (as the hardware does)
    "__float2half_rn": ("cvt", "rn", F16), "__hadd": ("op", "+", F16), "__hsub": ("op", "-", F16),
    "__hmul": ("op", "*", F16), "__hdiv": ("op", "/", F16), "__hfma": ("fma", None, F16),
    "__hmax": ("minmax", "max", F16), "__hmin": ("minmax", "min", F16), "__habs": ("abs", None, None),
    "__hgt": ("op", ">", F16), "__hlt": ("op", "<", F16), "__hge": ("op", ">=", F16), "__hle": ("op", "<=", F16),
    "__heq": ("op", "==", F16), "__hne": ("op", "!=", F16),
    "__syncthreads_count": ("bar_red", "count", None), "__syncthreads_and": ("bar_red", "and", None),
    "__syncthreads_or": ("bar_red", "or", None),
})




def overload_type(args) -> np.dtype:
    floats = [v.dtype for v, _ in args if getattr(v, "dtype", None) is not None and v.dtype.kind == "f"]
    return F64 if not floats or F64 in floats else F32


def c_library(kind, what, dt, args, track):
    if kind == "ldexp":  # x * 2**n, exact but for overflow and underflow; a bound on x scales with it
        t = overload_type(args[:1]) if dt == OVERLOADED else dt
        (v, e), n = conv_val(args[0], t), np.asarray(args[1][0]).astype(np.int32)
        with np.errstate(all="ignore"):
            return np.ldexp(v, n).astype(t), (None if e is None or not track else e * np.ldexp(1.0, n))
    if dt == OVERLOADED:
        dt = overload_type(args)
    if kind == "m1":
        return math1(what, args[0], track, dt)
    if kind == "m2":
        return math2(what, args[0], args[1], track, dt)
    if kind == "fma":
        return _fma(*(conv_val(a, dt) for a in args[:3]), track, dt)
    if kind == "minmax":
        (va, ea), (vb, eb) = args[0], args[1]
        t = dt or common(va.dtype, vb.dtype)
        if t.kind == "f":
            return math2("fmin" if what == "min" else "fmax", args[0], args[1], track, t)
        x, y = conv(va, t), conv(vb, t)
        return (np.minimum(x, y) if what == "min" else np.maximum(x, y)), None
    if kind == "clamp":
        lo = c_library("minmax", "max", None, [args[0], args[1]], track)
        return c_library("minmax", "min", None, [lo, args[2]], track)
    if kind == "abs":
        v, e = args[0]
        return np.abs(conv(v, promote(v.dtype))), e
    if kind == "op":
        return arith(what, conv_val(args[0], dt), conv_val(args[1], dt), track)
    if kind == "rnd":  # directed.py: the nearest result (and its bound), moved to the side the mode asks
        op, mode = what
        xs = [conv_val(a, dt) for a in args]
        near = (_fma(*xs[:3], track, dt) if op == "fma" else math1(op, xs[0], track, dt) if op in ("sqrt", "rcp")
                else arith(op, xs[0], xs[1], track))
        return directed.rounded(op, mode, [v for v, _ in xs], near, dt)
    if kind == "cvt":
        v, e = args[0]
        if dt == BF16:  # rounded to nearest even; a float32 value in registers
            return bfloat16.convert(v, e)
        if dt.kind != "f" and v.dtype.kind == "f":  # (every one of these takes a float: __float2int_rn, lrintf)
            v = conv(v, F32)
            x = v.astype(F64)
            if what == "rn":
                x = np.rint(x)
            elif what == "rd":
                x = np.floor(x)
            elif what == "ru":
                x = np.ceil(x)
            elif what == "ra":
                x = np.trunc(x + np.copysign(0.5, x))
            # the integer, exact as a float, converted as PTX's cvt.{rni,rzi,rmi,rpi}.{s,u}N.f32 (ctype.conv)
            return conv(x.astype(F32), dt), None
        # a narrowing conversion (__float2half, __double2float_rn, __int2float_rn) rounds: its bound, as a cast's
        return convert((v, e), dt, track)
    if kind == "bits":  # the bound travels with the bits (bitbounds)
        v, e = args[0]
        e = bitbounds.reinterpret(e, v.dtype, dt) if track else None
        if isinstance(v, np.ndarray) and v.ndim:
            return undefined.view_as(v, dt), e
        return np.array([v]).view(dt)[0], e
    if kind == "mulhi":
        (va, _), (vb, _) = args
        w = (conv(va, dt).astype(np.int64) * conv(vb, dt).astype(np.int64)) >> 32
        return conv(w, dt), None
    if kind == "pred":
        v, _ = args[0]
        return getattr(np, what)(v).astype(I32) if v.dtype.kind == "f" else np.zeros_like(v, dtype=I32), None
    raise NotImplementedError(kind)


def conv_val(a, dt):
    v, e = a
    if dt is None or v.dtype == dt:
        return a
    return conv(v, dt), e


# ---------------------------------------------------------------------------------------------
# Concepts of kind "math" (accurate and fast forms): concept key -> (function, arity, fast)
# ---------------------------------------------------------------------------------------------
def math_concept(key: str, args, track: bool, overloaded: bool):
    """`math_exp`, `fast_exp`, `math_fma`, ... : float32 (CUDA/HIP's `f` functions), or, where the
    backend's math functions are `overloaded` (Metal), the argument's float type."""
    fast = key.startswith("fast_")
    fn = key.split("_", 1)[1]
    dt = None if overloaded else F32
    if dt is None:
        v0 = args[0][0]
        dt = v0.dtype if v0.dtype.kind == "f" else F32
    if fn == "fma":
        r = _fma(*(conv_val(a, dt) for a in args[:3]), track, dt)
    elif fn in ("pow", "fmin", "fmax", "divide"):
        r = math2(fn, args[0], args[1], track, dt, fast)
    else:
        r = math1(fn, args[0], track, dt, fast)
    if counting.ACTIVE is not None:
        counting.ACTIVE.math(fn, r[0])
    return r


# ---------------------------------------------------------------------------------------------
# Warp collectives: (values, active lanes, W) -> per-lane result
# ---------------------------------------------------------------------------------------------
def collective(key: str, args: dict, active: np.ndarray, W: int, ctx, node, yieldless_scalar=False):
    """Run a warp collective of concept `key` with bound arguments {param: (v, e)}.  A value never written
    (emulator.undefined) among the active lanes' values marks the result of every lane of its warp, where
    the operation did not carry the marks itself (a reduction, a vote); as a lane, a mask or a width it
    stops the run at the call."""
    marked = undefined.warp_marks(args, active, W, ctx, node)
    if marked is None:
        return _collective(key, args, active, W, ctx, node, yieldless_scalar)
    v, e = args["value" if "value" in args else "predicate"]
    args = {**args, "value" if "value" in args else "predicate": (undefined.plain(v), e)}
    r = _collective(key, args, active, W, ctx, node, yieldless_scalar)
    if key in ("shfl", "shfl_up", "shfl_down", "shfl_xor"):  # lane by lane: the marks of the lanes each reads
        read, _ = _collective(key, {**args, "value": (np.broadcast_to(v.undef, active.shape).astype(np.uint8), None)},
                              active, W, ctx, node, yieldless_scalar)
        return undefined.warp_result(r, np.asarray(read, bool))
    return undefined.warp_result(r, marked)


def _collective(key: str, args: dict, active: np.ndarray, W: int, ctx, node, yieldless_scalar=False):
    mask = args.get("mask")
    mask_v = None if mask is None else mask[0]
    if mask_v is not None:
        probs = warp.check_mask(mask_v, active, W)
        if probs is not None:
            bad, beyond, unnamed = probs
            mflat = np.asarray(mask_v).reshape(-1)
            mtxt = hex(int(mflat[int(np.argmax(active)) if mflat.size == active.size else 0]))
            if len(beyond):
                raise EmulatorError(f"lane mask {mtxt} names lanes {_lanes_txt(beyond)} beyond the wave of {W}",
                                    ctx.path, *ctx.pos(node))
            if len(bad):
                raise EmulatorError(f"lane mask {mtxt} names inactive lanes {_lanes_txt(bad)} "
                                    f"(wave of {W})", ctx.path, *ctx.pos(node))
            if len(unnamed):
                _undefined(ctx, node, f"lane mask {mtxt} does not name active lanes {_lanes_txt(unnamed)} "
                           f"(wave of {W}): undefined on the GPU")
    if key in ("shfl", "shfl_up", "shfl_down", "shfl_xor"):
        v, e = args["value"]
        src = args.get("lane") or args.get("delta") or args.get("lanemask")
        width = args.get("width")
        kind = {"shfl": "idx", "shfl_up": "up", "shfl_down": "down", "shfl_xor": "xor"}[key]
        if isinstance(v, np.ndarray) and v.ndim:
            pass
        elif not (isinstance(src[0], np.ndarray) and src[0].ndim):
            return v, e
        else:
            v = np.full(active.shape[0], v)
        sv = src[0]
        wv = None if width is None else width[0]
        out, bad = warp.shuffle(kind, v, sv, wv, active, W)
        if bad is not None:
            _undefined(ctx, node, f"shuffle reads lanes that are not active (wave of {W}): their values are "
                       f"undefined on the GPU")
            out = undefined.read_inactive(ctx, node, out, bad)  # (what it gives is no value: marked)
        eo = None
        if e is not None:
            ea = np.broadcast_to(np.asarray(e, np.result_type(e, F64)), active.shape) if np.ndim(e) == 0 else e
            eo, _ = warp.shuffle(kind, np.ascontiguousarray(ea), sv, wv, active, W)
        return out, eo
    if key == "ballot":
        return warp.group_ballot(args["predicate"][0], active, W, mask_v), None
    if key == "any":
        return warp.vote_any(args["predicate"][0], active, W, mask_v), None
    if key == "all":
        return warp.vote_all(args["predicate"][0], active, W, mask_v), None
    if key == "activemask":
        return warp.ballot(np.ones(active.shape[0], bool), active, W), None
    if key in ("simd_sum", "simd_max", "simd_min"):
        return warp.reduce(key[5:], args["value"], active, W)
    if key.startswith("warp_reduce_"):  # sm_80's __reduce_{op}_sync (Metal's simd_{op}): the mask is checked above
        op = key[len("warp_reduce_"):]
        return warp.reduce("sum" if op == "add" else op, args["value"], active, W)
    if key == "cuda_only___match_any_sync":  # CUDA's over its warp; the port's over `width` lanes of the wave
        width = args.get("width")
        return warp.match_any(args["value"][0], active, W, None if width is None else width[0]), None
    if key == "cuda_only___match_all_sync":  # its mask where every active lane of the segment has v's bits, else 0
        width = args.get("width")
        w = None if width is None else width[0]
        same = warp.match_any(args["value"][0], active, W, w)
        every = warp.match_any(np.zeros(active.shape[0], np.uint32), active, W, w)  # the segment's active lanes
        return np.where(same == every, every, 0).astype(same.dtype), None
    if key == "lanemask_lt":
        _, lane = warp.lanes(active.shape[0], W)
        return ((np.uint64(1) << lane.astype(np.uint64)) - np.uint64(1)).astype(U64), None
    raise NotImplementedError(key)


def _undefined(ctx, node, message: str) -> None:
    """A warning that the collective's result is undefined on the GPU: each schedule gives its own
    (an inactive lane's value in lockstep, 0 one thread at a time), so no run stands for another."""
    ctx.diag(node, "warning", message)
    if schedule_order.WATCH is not None:
        schedule_order.WATCH.dependent = True


def _lanes_txt(lanes) -> str:
    lanes = [int(x) for x in lanes]
    if not lanes:
        return ""
    runs, s, p = [], lanes[0], lanes[0]
    for x in lanes[1:] + [None]:
        if x is not None and x == p + 1:
            p = x
            continue
        runs.append(f"{s}" if s == p else f"{s}-{p}")
        if x is not None:
            s = p = x
    return ",".join(runs)


def bitop(key: str, a, overloaded: bool):
    """`popc`, `ffs`, `clz`, `brev` (and their 64-bit forms): the argument converted to the
    concept's parameter type, or, where the backend's bit functions are `overloaded` (Metal),
    kept as it is when it is an integer."""
    v, _ = a
    if not overloaded:
        v = conv(v, BITOP_PARAM[key])
    elif v.dtype.kind not in "iu":
        v = conv(v, U32)
    base = key.rstrip("64")
    if base == "popc":
        return warp.popc(v), None
    if base == "ffs":
        return warp.ffs(v), None
    if base == "clz":
        return warp.clz(v), None
    if base == "brev":
        return warp.brev(v), None
    raise NotImplementedError(key)
