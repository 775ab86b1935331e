"""C types for the emulator: scalars are numpy dtypes; pointers, arrays and structs small classes.

A value's numpy dtype IS its C type (int32 = int, uint32 = unsigned, int64 = long / long long,
float32 = float, bool = _Bool or a comparison result, ...), so arithmetic never silently widens:
every binary operation converts both operands to the type the C usual arithmetic conversions
give, then lets numpy compute in exactly that type.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from pycparser import c_ast

from .bfloat16 import BF16, rounded as _bf16_rounded  # two bytes in memory, float32 in registers

I8, U8, I16, U16 = np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.int16), np.dtype(np.uint16)
I32, U32, I64, U64 = np.dtype(np.int32), np.dtype(np.uint32), np.dtype(np.int64), np.dtype(np.uint64)
F16, F32, F64, BOOL = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.bool_)
FLOATS = (F16, F32, F64)
UNIT_ROUNDOFF = {F16: 2.0 ** -11, F32: 2.0 ** -24, F64: 2.0 ** -53}


class _Auto:
    def __repr__(self):
        return "auto"


class _Void:
    def __repr__(self):
        return "void"


AUTO = _Auto()
VOID = _Void()


@dataclass(frozen=True)
class PtrT:
    """A pointer type of the emulator."""
    elem: object  # np.dtype | ArrT | StructT | AUTO | VOID


@dataclass(frozen=True)
class ArrT:
    """An array type of the emulator (n None: unsized)."""
    elem: object
    n: int | None


@dataclass(frozen=True)
class StructT:
    """A struct type of the emulator: its fields in order."""
    name: str
    fields: tuple  # ((name, type), ...)

    def field(self, name):
        for n, t in self.fields:
            if n == name:
                return t
        return None


def scalar_count(t) -> int:
    """Number of scalars an object of type t occupies (arrays of arrays flatten)."""
    if isinstance(t, ArrT):
        return (t.n or 0) * scalar_count(t.elem)
    if isinstance(t, StructT):
        return sum(scalar_count(ft) for _, ft in t.fields)
    return 1


VECTOR_FIELDS = "xyzw"


def vector_row(t):
    """(scalar dtype, n) of a CUDA vector type (float2/3/4, int4, ...: fields x, y, z, w of one
    scalar type), laid out in memory as n consecutive scalars; None for any other type."""
    if isinstance(t, StructT) and 1 <= len(t.fields) <= 4 and \
            tuple(n for n, _ in t.fields) == tuple(VECTOR_FIELDS[:len(t.fields)]):
        dts = {ft for _, ft in t.fields}
        if len(dts) == 1 and isinstance(next(iter(dts)), np.dtype):
            return next(iter(dts)), len(t.fields)
    return None


def row_scalar(t):
    """(scalar dtype, dims below the array's) of an array's element in memory: a vector type
    (uint2) is a row of its n scalars (dims (n,)), as a pointer to it is; None for other structs."""
    base = base_scalar(t)
    row = vector_row(base)
    if row is not None:
        return row[0], (row[1],)
    return (base, ()) if isinstance(base, np.dtype) else None


def base_scalar(t):
    while isinstance(t, ArrT):
        t = t.elem
    return t


def inner_dims(t) -> tuple[int, ...]:
    dims = []
    while isinstance(t, ArrT):
        dims.append(t.n or 0)
        t = t.elem
    return tuple(dims)


def sizeof(t) -> int:
    if isinstance(t, np.dtype):
        return t.itemsize
    if isinstance(t, PtrT):
        return 8
    if isinstance(t, ArrT):
        return (t.n or 0) * sizeof(t.elem)
    if isinstance(t, StructT):
        return sum(sizeof(ft) for _, ft in t.fields)
    return 1


def from_names(names: list[str]):
    s = list(names)
    if "void" in s:
        return VOID
    if "float" in s:
        return F32
    if "double" in s:
        return F64
    if "_Bool" in s:
        return BOOL
    uns = "unsigned" in s
    if "char" in s:
        return U8 if uns else I8
    if "short" in s:
        return U16 if uns else I16
    if "long" in s:
        return U64 if uns else I64
    return U32 if uns else I32


class TypeResolver:
    """Resolves pycparser type nodes, following typedefs (with emulator overrides)."""

    def __init__(self, ast: c_ast.FileAST, overrides: dict[str, str], eval_const, err=None):
        self.typedefs: dict[str, c_ast.Node] = {}
        self.structs: dict[str, c_ast.Struct] = {}
        self.overrides = overrides
        self.eval_const = eval_const
        self.err = err  # err(node, message) -> a located EmulatorError
        self.cache: dict[str, object] = {}
        for e in ast.ext:
            if isinstance(e, c_ast.Typedef):
                self.typedefs[e.name] = e.type
            if isinstance(e, c_ast.Decl) and isinstance(e.type, c_ast.Struct) and e.type.name and e.type.decls:
                self.structs[e.type.name] = e.type

    def named(self, name: str):
        if name in self.cache:
            return self.cache[name]
        ov = self.overrides.get(name)
        if ov == "half":
            t = F16
        elif ov == "bfloat16":
            t = BF16  # two bytes in memory as CUDA's; its values compute as float32 (kernelport.emulator.bfloat16)
        elif ov == "auto":
            t = AUTO
        elif name in self.typedefs:
            t = self.resolve(self.typedefs[name])
        else:
            t = I32
        self.cache[name] = t
        return t

    def resolve(self, node):
        if isinstance(node, c_ast.TypeDecl):
            return self.resolve(node.type)
        if isinstance(node, c_ast.Typename):
            return self.resolve(node.type)
        if isinstance(node, c_ast.Decl):
            return self.resolve(node.type)
        if isinstance(node, c_ast.IdentifierType):
            names = node.names
            if len(names) == 1 and names[0] not in ("int", "float", "double", "char", "short", "long", "unsigned",
                                                     "signed", "void", "_Bool"):
                return self.named(names[0])
            return from_names(names)
        if isinstance(node, c_ast.PtrDecl):
            return PtrT(self.resolve(node.type))
        if isinstance(node, c_ast.ArrayDecl):
            n = None
            if node.dim is not None:
                v = self.eval_const(node.dim)
                if isinstance(v, bool) or not isinstance(v, int) or not 0 < v < 1 << 31:
                    shown = v.item() if hasattr(v, "item") else v  # (a float constant folds to a numpy scalar)
                    msg = f"an array size must be a positive integer constant below 2^31, not {shown!r}"
                    raise self.err(node.dim, msg) if self.err else ValueError(msg)
                n = v
            return ArrT(self.resolve(node.type), n)
        if isinstance(node, (c_ast.Struct, c_ast.Union)):
            decls = node.decls
            if decls is None and node.name in self.structs:
                decls = self.structs[node.name].decls
            fields = tuple((d.name, self.resolve(d.type)) for d in (decls or []))
            return StructT(node.name or "", fields)
        if isinstance(node, c_ast.Enum):
            return I32
        if isinstance(node, c_ast.FuncDecl):
            return self.resolve(node.type)
        raise TypeError(f"unsupported type {type(node).__name__}")


# ---------------------------------------------------------------------------------------------
# Usual arithmetic conversions
# ---------------------------------------------------------------------------------------------
_PROMOTE = {BOOL: I32, I8: I32, U8: I32, I16: I32, U16: I32, BF16: F32}
_INT_RANK = {I32: 1, U32: 1, I64: 2, U64: 2}
_COMMON: dict[tuple, np.dtype] = {}


def promote(dt: np.dtype) -> np.dtype:
    return _PROMOTE.get(dt, dt)


def common(a: np.dtype, b: np.dtype) -> np.dtype:
    key = (a, b)
    r = _COMMON.get(key)
    if r is not None:
        return r
    pa, pb = promote(a), promote(b)
    if pa.kind == "f" or pb.kind == "f":
        fa = pa if pa.kind == "f" else None
        fb = pb if pb.kind == "f" else None
        if fa is None:
            r = fb
        elif fb is None:
            r = fa
        else:
            r = fa if fa.itemsize >= fb.itemsize else fb
        if r == F16 and (fa != F16 or fb != F16) and (fa is not None and fb is not None):
            r = F32
    elif pa == pb:
        r = pa
    else:
        ra, rb = _INT_RANK[pa], _INT_RANK[pb]
        ua, ub = pa.kind == "u", pb.kind == "u"
        if ua == ub:
            r = pa if ra >= rb else pb
        else:
            u, s = (pa, pb) if ua else (pb, pa)
            if _INT_RANK[u] >= _INT_RANK[s]:
                r = u
            elif s.itemsize > u.itemsize:
                r = s
            else:
                r = np.dtype("u" + s.str[1:])
    _COMMON[key] = r
    return r


def dtype_of(v) -> np.dtype:
    return v.dtype


def conv(v, dt: np.dtype):
    """C conversion of a numpy array / scalar to dtype dt."""
    if v.dtype == dt:
        return v
    if dt == BF16:  # the float32 value the bfloat16 holds (rounded to nearest even)
        return _bf16_rounded(v)
    if dt == BOOL:
        return v != 0
    if v.dtype.kind == "f" and dt.kind in "iu":
        return _float_to_int(v, dt)
    return v.astype(dt)


def _int_bounds(dt: np.dtype):
    """(lo - 1, hi + 1, lo, hi, nan) of integer type dt: the first two as doubles (a value strictly between
    them truncates into the range; hi + 1 is a power of two, exact; lo - 1 rounds to lo at 64 bits, where
    lo itself then saturates to lo, the same value); nan the 1 << (bits - 1) PTX gives a NaN that is a
    double's or goes to 64 bits."""
    info = np.iinfo(dt)
    return (np.float64(int(info.min) - 1), np.float64(int(info.max) + 1), dt.type(info.min), dt.type(info.max),
            dt.type(info.min if dt.kind == "i" else 1 << (info.bits - 1)))


_BOUNDS = {t: _int_bounds(t) for t in (I8, U8, I16, U16, I32, U32, I64, U64)}


def _float_to_int(v, dt: np.dtype):
    """C's conversion of floating point to an integer type as nvcc's build computes it (C leaves a value
    out of the range undefined; numpy's astype wraps: -3.7 -> 4294967293).  PTX's `cvt.rzi.{s,u}N.fM`:
    truncation toward zero, saturated to N bits' range ("clamped to the destination range by default"),
    NaN -> 0, but 1 << (N - 1) from a double or to 64 bits.  nvcc converts a float or double to 8 or 16
    bits through 32 (`cvt.rzi.s32.f32`, then the store keeps the low bits: (signed char)200.0f is -56), a
    half directly (`cvt.rzi.s8.f16`).  Values in the range pay a min and a max."""
    wide = dt if dt.itemsize >= 4 or v.dtype == F16 else (I32 if dt.kind == "i" else U32)
    below, above, lo, hi, nan = _BOUNDS.get(wide) or _int_bounds(wide)
    nan = nan if v.dtype == F64 or wide.itemsize == 8 else wide.type(0)
    if not isinstance(v, np.ndarray):  # a scalar
        f = float(v)
        r = wide.type(int(f)) if below < f < above else hi if f > 0 else lo if f < 0 else nan
        return r.astype(dt) if wide != dt else r
    if not v.size:
        return v.astype(dt)
    least, most = v.min(), v.max()  # (NaN if one is)
    if below < least and most < above:
        return v.astype(wide).astype(dt) if wide != dt else v.astype(dt)
    with np.errstate(invalid="ignore"):
        r = v.astype(wide)  # (what the host's cast gives out of the range is replaced below)
    np.putmask(r, v <= below, lo)
    np.putmask(r, v >= above, hi)
    if np.isnan(least) or np.isnan(most):
        np.putmask(r, np.isnan(v), nan)
    return r.astype(dt) if wide != dt else r


# ---------------------------------------------------------------------------------------------
# Literals
# ---------------------------------------------------------------------------------------------
_INT_SUFFIX = re.compile(r"([uUlL]*)$")


def int_literal(text: str):
    t = text.replace("'", "")
    suf = _INT_SUFFIX.search(t).group(1).lower()
    body = t[: len(t) - len(suf)] if suf else t
    if body.lower().startswith("0x"):
        val, decimal = int(body, 16), False
    elif body.lower().startswith("0b"):
        val, decimal = int(body[2:], 2), False
    elif len(body) > 1 and body.startswith("0"):
        val, decimal = int(body, 8), False
    else:
        val, decimal = int(body), True
    uns = "u" in suf
    longs = suf.count("l")
    if longs == 0:
        cands = [U32, U64] if uns else ([I32, I64] if decimal else [I32, U32, I64, U64])
    else:
        cands = [U64] if uns else ([I64] if decimal else [I64, U64])
    for dt in cands:
        info = np.iinfo(dt)
        if info.min <= val <= info.max:
            return dt.type(val)
    return U64.type(val & 0xFFFFFFFFFFFFFFFF)


def float_literal(text: str):
    t = text.lower()
    single = t.endswith("f")
    if single or t.endswith("l"):
        t = t[:-1]
    try:
        v = float.fromhex(t) if t.startswith("0x") else float(t)
    except OverflowError:  # 0x1p99999: too large for any float type, which C makes infinity
        v = float("inf")
    if single:
        with np.errstate(over="ignore"):
            return np.float32(v)
    return np.float64(v)


def char_literal(text: str):
    body = text[1:-1]
    if body.startswith("\\"):
        esc = {"n": 10, "t": 9, "0": 0, "\\": 92, "'": 39, '"': 34, "r": 13}
        v = esc.get(body[1:], None)
        if v is None:
            v = int(body[2:], 16) if body[1] == "x" else int(body[1:], 8)
        return np.int32(v)
    return np.int32(ord(body))
