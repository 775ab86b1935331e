"""C's arithmetic types and values for the annotation expressions (kernelport/cexpr.py): every value
carries its C type; conversions and the usual arithmetic conversions follow C, with range checks."""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass


class CExprError(ValueError):
    def __init__(self, message: str, offset: int = 0, hint: str | None = None):
        super().__init__(message)
        self.offset = offset
        self.hint = hint


# -- C types ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CType:
    """A C scalar type: its kind, width, signedness and conversion rank."""
    name: str
    kind: str  # "int" | "float"
    bits: int
    signed: bool = True
    rank: int = 0  # integer conversion rank

    @property
    def lo(self) -> int:
        return -(1 << (self.bits - 1)) if self.signed else 0

    @property
    def hi(self) -> int:
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1


BOOL = CType("bool", "int", 1, False, 0)
CHAR, SCHAR, UCHAR = CType("char", "int", 8, True, 1), CType("signed char", "int", 8, True, 1), \
    CType("unsigned char", "int", 8, False, 1)
SHORT, USHORT = CType("short", "int", 16, True, 2), CType("unsigned short", "int", 16, False, 2)
INT, UINT = CType("int", "int", 32, True, 3), CType("unsigned int", "int", 32, False, 3)
LONG, ULONG = CType("long", "int", 64, True, 4), CType("unsigned long", "int", 64, False, 4)
LLONG, ULLONG = CType("long long", "int", 64, True, 5), CType("unsigned long long", "int", 64, False, 5)
FLOAT, DOUBLE = CType("float", "float", 32), CType("double", "float", 64)
HALF = CType("half", "float", 16)

# Type names (as written in kernels and casts) -> the type (LP64, as nvcc/hipcc/Metal hosts use).
TYPES = {
    "bool": BOOL, "_Bool": BOOL, "char": CHAR, "signed char": SCHAR, "unsigned char": UCHAR, "int8_t": SCHAR,
    "uint8_t": UCHAR, "short": SHORT, "short int": SHORT, "signed short": SHORT, "unsigned short": USHORT,
    "int16_t": SHORT, "uint16_t": USHORT, "int": INT, "signed": INT, "signed int": INT, "int32_t": INT,
    "unsigned": UINT, "unsigned int": UINT, "uint": UINT, "uint32_t": UINT, "long": LONG, "long int": LONG,
    "signed long": LONG, "int64_t": LONG, "ptrdiff_t": LONG, "unsigned long": ULONG, "unsigned long int": ULONG,
    "uint64_t": ULONG, "size_t": ULONG, "long long": LLONG, "long long int": LLONG, "signed long long": LLONG,
    "unsigned long long": ULLONG, "unsigned long long int": ULLONG, "float": FLOAT, "double": DOUBLE,
    "half": HALF, "__half": HALF,
}


def ctype(name: str) -> CType | None:
    """The C type of a (kernel parameter's) type name, qualifiers ignored; None if not arithmetic."""
    words = [w for w in name.replace("*", " ").split() if w not in ("const", "volatile", "__restrict__", "restrict")]
    return TYPES.get(" ".join(words))


@dataclass(frozen=True)
class Value:
    """A C scalar value with its type."""
    type: CType
    v: int | float

    def __int__(self) -> int:
        return int(self.v)


def _float_max(t: CType) -> float:
    return {16: 65504.0, 32: 3.4028234663852886e38}.get(t.bits, 1.7976931348623157e308)


def _round(t: CType, x: float) -> float:
    """`x` rounded to `t` (to nearest even, as C converts); inf where it overflows `t`."""
    if t.bits == 32:
        try:
            return struct.unpack("f", struct.pack("f", x))[0]
        except OverflowError:
            return math.copysign(math.inf, x)
    if t.bits == 16:
        import numpy as np  # only for half, which struct cannot round near its top
        return float(np.float16(x)) if abs(x) < 65520 else math.copysign(math.inf, x)
    return x


def _in_range(t: CType, x: float) -> bool:
    """Whether `x` converts to a finite value of floating type `t`."""
    return math.isfinite(x) and math.isfinite(_round(t, x))


def fits(t: CType, v: int | float) -> bool:
    """Whether `v` is representable in `t` (integers exactly, floats as a finite value)."""
    if t.kind == "int":
        if t is BOOL:
            return v in (0, 1)
        return float(v).is_integer() and t.lo <= v <= t.hi if isinstance(v, float) else t.lo <= v <= t.hi
    return _in_range(t, float(v))


def convert(val: Value, t: CType, offset: int = 0, *, strict: bool = False) -> Value:
    """`val` converted to `t` as C does (integers wrap modulo 2^N, as GCC defines it); `strict`
    demands that the value is representable (a scalar must fit its declared type)."""
    v = val.v
    if t.kind == "float":
        if not _in_range(t, float(v)):
            raise CExprError(f"{_show(val)} is out of the range of {t.name}", offset,
                             hint=f"{t.name} holds magnitudes up to {_float_max(t):.7g}")
        return Value(t, _round(t, float(v)))
    if t is BOOL:
        return Value(INT, int(v != 0))
    if isinstance(v, float):
        if not math.isfinite(v) or not (t.lo - 1 < v < t.hi + 1):
            raise CExprError(f"{_show(val)} does not fit {t.name} (converting it is undefined in C)", offset,
                             hint=f"{t.name} holds {t.lo} to {t.hi}")
        if strict and not v.is_integer():
            raise CExprError(f"{_show(val)} is not an integer, but {t.name} is an integer type", offset,
                             hint="write an integer value, or a cast (int)x to truncate it")
        v = int(v)
    if strict and not t.lo <= v <= t.hi:
        raise CExprError(f"{v} does not fit {t.name} ({t.lo} to {t.hi})", offset,
                         hint=f"use a smaller value, or declare the parameter with a wider type")
    w = v & ((1 << t.bits) - 1)
    if t.signed and w > t.hi:
        w -= 1 << t.bits
    return Value(t, w)


def _show(val: Value) -> str:
    return repr(val.v) if isinstance(val.v, float) else str(val.v)


def _promote(t: CType) -> CType:
    return INT if t.kind == "int" and t.rank < INT.rank else t


def _common(a: CType, b: CType) -> CType:
    """C's usual arithmetic conversions."""
    if a.kind == "float" or b.kind == "float":
        if DOUBLE in (a, b):
            return DOUBLE
        return FLOAT if FLOAT in (a, b) or a.kind == b.kind else (a if a.kind == "float" else b)
    a, b = _promote(a), _promote(b)
    if a == b:
        return a
    if a.signed == b.signed:
        return a if a.rank >= b.rank else b
    u, s = (a, b) if not a.signed else (b, a)
    if u.rank >= s.rank:
        return u
    if s.bits > u.bits:
        return s
    return next(t for t in (UINT, ULONG, ULLONG) if t.rank == s.rank)
