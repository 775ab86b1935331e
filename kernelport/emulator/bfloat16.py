"""bfloat16 as CUDA holds it: two bytes in memory (the high half of a float32's bits), rounded to
nearest even when a float is stored into one; values in registers are float32 (the float a
`__bfloat162float` or any arithmetic on one gives).

BF16 is a one-field structured dtype of two bytes: no arithmetic can run on it by mistake (numpy
refuses), it equals no C scalar type (`unsigned short` is not a bfloat16), and a buffer of it
holds CUDA's bytes, so a `reinterpret_cast<int4*>` over eight bfloat16s reads what the device reads.
"""
from __future__ import annotations

import weakref

import numpy as np

BF16 = np.dtype([("bf16", "<u2")])
UNIT_ROUNDOFF = 2.0 ** -8  # 8 significant bits


def is_bf16(dt) -> bool:
    return isinstance(dt, np.dtype) and dt == BF16


def bits(v) -> np.ndarray:
    """float values -> their bfloat16 bits (uint16), rounded to nearest even; NaN stays a quiet NaN."""
    f = np.asarray(v, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(f), ((u >> 16) | 0x40).astype(np.uint16), r)


def to_float(b) -> np.ndarray:
    """bfloat16 storage (BF16 or its uint16 bits) -> float32 values."""
    a = np.asarray(b)
    u = a.view(np.uint16) if a.dtype == BF16 else a.astype(np.uint16)
    return (u.astype(np.uint32) << 16).view(np.float32)


def stored(v) -> np.ndarray:
    """float values -> BF16 storage (what a store writes)."""
    return bits(v).view(BF16)


def rounded(v) -> np.ndarray:
    """float values -> the float32 values a conversion to bfloat16 gives (`(__nv_bfloat16)x`)."""
    return to_float(bits(v))


def store(v, e, track: bool):
    """(BF16 storage, error bound) of float values `v` with bound `e` stored into bfloat16: the
    rounding to nearest even is the store's own error, added where bounds are tracked."""
    f = np.asarray(v, np.float32)
    out = stored(f)
    if not track:
        return out, e
    r = to_float(out)
    gap = np.abs(r - f)
    gap = np.where(gap > 0, _rounding(r, f), 0.0)  # (a value rounded before, by a conversion: nothing more)
    return out, gap if e is None else e + gap


def _rounding(r, f):
    """The bound of one rounding to bfloat16, as a half's: u ufp(r) (emulator.ufp; at least the gap this run's value
    left, which holds a subnormal's).  Not the gap alone: a GPU whose value differs within its bound may round the other way."""
    from .ufp import rounding
    return np.maximum(np.abs(np.asarray(r, np.float64) - f), rounding(r, UNIT_ROUNDOFF, 2.0 ** -133))


def convert(v, e):
    """`__float2bfloat16(x)`: the float32 value the bfloat16 holds and the bound with its rounding (u ufp(r), as a
    half's; an exact operand, e None, stays exact: its rounding is the same on every GPU).  A value that is a
    bfloat16 already (this conversion's result or a load's, converted again where a cast's result is stored:
    bfloat16s are float32 in registers) is not rounded again."""
    f = np.asarray(v, np.float32)
    r = rounded(f)
    if _held(v) and np.array_equal(r, f, equal_nan=True):  # (its values checked: an array changed in place rounds)
        return v, e
    return held(r), None if e is None else e + _rounding(r, f)


_HELD: dict = {}  # id -> weak reference of the arrays that hold bfloat16 values (conversions' and loads' results)


def held(r):
    """r (float32 values, each a bfloat16), remembered as such (convert does not round it again)."""
    if isinstance(r, np.ndarray) and r.ndim:
        if len(_HELD) > 256:
            for k in [k for k, w in _HELD.items() if w() is None] or list(_HELD)[:128]:
                del _HELD[k]
        _HELD[id(r)] = weakref.ref(r)
    return r


def _held(v) -> bool:
    w = _HELD.get(id(v))
    return w is not None and w() is v
