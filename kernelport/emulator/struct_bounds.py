"""The rounding bounds of an array of structs (emulator.layout: a buffer of bytes in the struct's C
layout): each number field's bound, read from the bytes' shadow (emulator.bitbounds: the bound of
the float element that starts at a byte and its size), as a structured array of the struct's field
names with float64 fields, which compare.py walks field by field as it walks the values.

A field whose start byte holds a whole element of the field's size has that bound; one no inexact
store reached (no shadow entry) is exact (0); one whose bytes hold part of another element or a
misaligned one is unknown (NaN: compare counts it as such, never a pass on a tight bound).
"""
from __future__ import annotations

import numpy as np


def mirror(dt: np.dtype) -> np.dtype:
    """dt's field names and shapes with every number field as float64 (a bound)."""
    assert dt.names is not None and dt.fields is not None
    out = []
    for f in dt.names:
        sub = dt.fields[f][0]
        if sub.subdtype is not None:
            base, shape = sub.subdtype
            out.append((f, mirror(base) if base.names is not None else np.dtype(np.float64), shape))
        elif sub.names is not None:
            out.append((f, mirror(sub)))
        else:
            out.append((f, np.float64))
    return np.dtype(out)


def _leaves(dt: np.dtype, offset: int = 0, path: tuple[str, ...] = ()):
    """(path, byte offset in the struct, element dtype, sub-array shape) of each number field
    (a field that is an array of structs is left at 0: compare does not judge it field by field)."""
    assert dt.names is not None and dt.fields is not None
    for f in dt.names:
        sub, off = dt.fields[f][0], dt.fields[f][1]
        if sub.subdtype is not None:
            base, shape = sub.subdtype
            if base.names is None:
                yield path + (f,), offset + off, base, shape
        elif sub.names is not None:
            yield from _leaves(sub, offset + off, path + (f,))
        else:
            yield path + (f,), offset + off, sub, ()


def field_bounds(layout: np.dtype, nbytes: int, shadow) -> np.ndarray:
    """The bounds of a buffer of `nbytes` bytes holding structs of `layout`, given its shadow
    ((bound per byte, size per byte) or None: nothing inexact was stored into it)."""
    n = nbytes // layout.itemsize
    out = np.zeros(n, mirror(layout))
    if shadow is None:
        return out
    bnd, size = shadow
    starts = np.arange(n, dtype=np.int64) * layout.itemsize
    for path, off, base, shape in _leaves(layout):
        k = int(np.prod(shape, dtype=np.int64)) if shape else 1
        at = (starts[:, None] + off + np.arange(k, dtype=np.int64) * base.itemsize).reshape(-1)
        a = base.itemsize
        win = size[at[:, None] + np.arange(a)]
        whole = (win[:, 0] == a) & (win[:, 1:] == -1).all(axis=1)
        empty = (win == 0).all(axis=1)
        b = np.where(whole, bnd[at].astype(np.float64), np.where(empty, 0.0, np.nan))
        dst = out
        for f in path[:-1]:
            dst = dst[f]
        dst[path[-1]] = b.reshape((n,) + tuple(shape))
    return out
