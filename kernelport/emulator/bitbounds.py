"""Error bounds through bit reinterpretation: a float's bound travels with its bits.

An integer value that holds the bits of float elements (a Packed128 payload memcpy'd into an
`int4`, a load or store through `reinterpret_cast<int4*>` of a float buffer, `__float_as_int`)
keeps each element's bound in its `e`: the bound of the one float it holds where the sizes are
equal, or, for two narrower floats (two bf16 or half in an int32, two floats in an int64), a
complex number whose real part bounds the element at the lower address and whose imaginary part
the higher one's.  Where the mapping cannot be followed (integer arithmetic on the bits, more
than two floats in one integer, part of a float's bits, float bits kept in integer memory) the
bound becomes NaN, unknown, and the run records where ("bound lost at file:line"): never a
tight bound.
"""
from __future__ import annotations

import numpy as np

from . import bfloat16

_NAN = float("nan")


def lost_like(e, v=None):
    """An unknown bound (NaN) shaped as `e` (or, where e is None, as the value v)."""
    x = e if e is not None else v
    if isinstance(x, np.ndarray) and x.ndim:
        return np.full(x.shape, _NAN)
    return _NAN


def is_lost(e) -> bool:
    if e is None:
        return False
    return bool(np.isnan(np.asarray(e)).any())


def record(ctx, node, what: str) -> None:
    """Note where a bound was lost (once per source position and cause)."""
    line, col = ctx.pos(node)
    key = f"{ctx.path}:{line}:{col}: {what}"
    if key not in ctx.bounds_lost:
        ctx.bounds_lost.append(key)


def pack(parts):
    """The integer's e for the bounds of the k float elements it holds, lowest address first."""
    if all(p is None for p in parts):
        return None
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        lo, hi = (0.0 if p is None else p for p in parts)
        return np.asarray(lo, np.float64) + 1j * np.asarray(hi, np.float64)
    return lost_like(next(p for p in parts if p is not None))


def unpack(e, k: int):
    """The bounds of the k float elements an integer holds (pack's inverse): a list of k, each
    None (exact) or a bound; NaN ones where e does not hold k elements."""
    if e is None:
        return [None] * k
    complex_ = np.iscomplexobj(e)
    if k == 1 and not complex_:
        return [e]
    if k == 2 and complex_:
        return [np.real(e), np.imag(e)]
    return [lost_like(np.real(e))] * k  # (a different split: unknown)


def granules(comps, dt: np.dtype):
    """(byte offset, bytes, bound) of each float element the register components hold."""
    out = []
    for j, (_, e) in enumerate(comps):
        base = j * dt.itemsize
        if dt.kind == "f" or e is None or not np.iscomplexobj(e):
            out.append((base, dt.itemsize, e))
        else:
            half = dt.itemsize // 2
            lo, hi = unpack(e, 2)
            out += [(base, half, lo), (base + half, half, hi)]
    return out


def regroup(grains, dt: np.dtype, count: int):
    """The e of each of `count` register components of type dt over the granules' bytes."""
    out = []
    for j in range(count):
        lo, hi = j * dt.itemsize, (j + 1) * dt.itemsize
        inside = [g for g in grains if g[0] < hi and g[0] + g[1] > lo]
        if all(g[2] is None for g in inside):
            out.append(None)
        elif any(g[0] < lo or g[0] + g[1] > hi for g in inside):
            out.append(lost_like(next(g[2] for g in inside if g[2] is not None)))  # a float split in two
        elif dt.kind == "f":
            out.append(inside[0][2] if len(inside) == 1 else lost_like(next(g[2] for g in inside if g[2] is not None)))
        else:
            out.append(pack([g[2] for g in inside]))
    return out


def reinterpret(e, src: np.dtype, dst: np.dtype):
    """The bound of a same-size bit reinterpretation (`__float_as_int`, `__int_as_float`, as_type)."""
    if e is None:
        return None
    if dst.kind == "f" and np.iscomplexobj(e):
        return lost_like(np.real(e))  # two narrower floats read as one
    return e


# ---------------------------------------------------------------------------------------------
# Memory: a float buffer read or written through an integer view
# ---------------------------------------------------------------------------------------------
def _elements(addr, a: int, b: int):
    """The indices of the b-byte elements that a-byte scalars at addr overlap."""
    if a <= b:
        return addr * a // b
    k = a // b
    return (np.asarray(addr)[..., None] * k + np.arange(k)).reshape(-1) if np.ndim(addr) else addr * k + np.arange(k)


def _is_float(dt) -> bool:
    return dt.kind == "f" or dt == bfloat16.BF16


def load(g, p, addr, node):
    """e of a load through p, a view of a buffer in another scalar type, or of integer memory
    that was given float bits (its shadow)."""
    buf = p.buf
    a = p.dt.itemsize
    addr = np.asarray(addr, np.int64)
    if not buf.track:
        return shadow_load(p, addr * a, a, _is_float(p.dt))
    err = buf.err
    if err is None:
        return None
    b = buf.data.dtype.itemsize
    if p.dt.kind in "iu" and a % b == 0 and a // b <= 2:
        k = a // b
        parts = [err.take(addr * k + i, mode="clip").astype(np.float64) for i in range(k)]
        return pack(parts)
    touched = err.take(_elements(addr, a, b), mode="clip")
    if not np.any(touched):
        return None
    record(g.ctx, node, f"{p.dt} read of {buf.name}'s {buf.data.dtype} elements")
    return np.full(addr.shape, _NAN) if addr.ndim else _NAN


def store(g, p, addr, v, e, m, node):
    """Write the bounds of a store of the value (v, e) through p, a view of a buffer in another
    scalar type, or into integer memory (its shadow)."""
    buf = p.buf
    if v.dtype.kind == "f" and not _is_float(p.dt):
        e = None  # a value conversion to an integer: no bits travel
    elif e is not None and v.dtype.kind != "f" and _is_float(p.dt):
        e = lost_like(e)  # an integer converted to a float's value: its bits' bounds say nothing
    elif p.dt == bfloat16.BF16 and v.dtype.kind == "f":
        e = bfloat16.store(v, e, True)[1]  # (the rounding into two bytes: the store's own error)
    full = m is g.full or m.all()
    addr = np.asarray(addr, np.int64)
    sel = None if full else np.flatnonzero(m) if addr.ndim else np.flatnonzero(m)[-1:]
    at = addr if sel is None or not addr.ndim else addr[sel]

    def lanes(x):
        """x at the stored lanes (the last one's where every lane stores to one address)."""
        if x is None:
            return 0.0
        if isinstance(x, np.ndarray) and x.ndim:
            x = x if sel is None else x[sel]
            return x if at.ndim else x[-1]
        return x

    a = p.dt.itemsize
    if not buf.track:
        if e is None and buf.shadow is None:
            return
        if e is not None and np.iscomplexobj(e) and not _is_float(p.dt):
            parts = [(a // 2, lanes(x)) for x in unpack(e, 2)]
        else:
            parts = [(a, None if e is None else lanes(e))]
        shadow_store(p, at * a, parts, a)
        return
    if e is None and buf.err is None:
        return
    if is_lost(e):
        record(g.ctx, node, f"bits of unknown bound stored into {buf.name}")
    err = buf.err_for_store()
    b = buf.data.dtype.itemsize
    if p.dt.kind in "iu" and a % b == 0 and a // b <= 2:
        k = a // b
        for i, part in enumerate(unpack(e, k)):
            err[at * k + i] = lanes(part if part is None else np.real(part))
        return
    # a float written in another float's size, or part of a float's bits: unknown unless exact
    idx = _elements(at, a, b)
    if e is None and not np.any(err[idx]):
        return
    record(g.ctx, node, f"{p.dt} write into {buf.name}'s {buf.data.dtype} elements")
    err[idx] = _NAN


# ---------------------------------------------------------------------------------------------
# Integer memory given float bits (a struct of bf16 copied into `extern __shared__ char p[]`, an
# `int tmp[]` of __float_as_int values): a shadow per byte, the bound of the float element that
# starts there and its size (-1: a later byte of one), so the bound is found again by whatever
# type reads the bytes back
# ---------------------------------------------------------------------------------------------
def _shadow(buf):
    if buf.shadow is None:
        # float32 bounds as a float buffer keeps (the shadow is 5 bytes per byte of the memory)
        buf.shadow = (np.zeros(buf.data.nbytes, np.float32), np.zeros(buf.data.nbytes, np.int8))
    return buf.shadow


def shadow_store(p, at, parts_of, a: int) -> None:
    """Record the bounds `parts_of` (a list of (size, bound per lane or None)) of a-byte scalars
    written at the byte offsets `at` of integer memory."""
    bnd, size = _shadow(p.buf)
    span = at[..., None] + np.arange(a) if np.ndim(at) else at + np.arange(a)
    bnd[span] = 0.0
    size[span] = 0
    off = 0
    for sz, part in parts_of:
        if part is not None:
            size[at + off] = sz
            for j in range(1, sz):
                size[at + off + j] = -1
            bnd[at + off] = part
        off += sz


def shadow_load(p, at, a: int, want_float: bool):
    """The e of a-byte scalars read at byte offsets `at` of integer memory (pack's form for an
    integer; one bound for a float); NaN where the bytes do not hold whole elements that fit."""
    bnd, size = p.buf.shadow
    win = size.take(at[..., None] + np.arange(a) if np.ndim(at) else at + np.arange(a), mode="clip")
    if not win.any():
        return None
    halves = [a] if want_float or a < 2 else [a, a // 2]
    for h in halves:
        ok = True
        parts = []
        for off in range(0, a, h):
            w = win[..., off: off + h]
            whole = (w[..., 0] == h) & (w[..., 1:] == -1).all(axis=-1)
            empty = (w == 0).all(axis=-1)
            ok &= (whole | empty).all()
            parts.append(np.where(whole, bnd.take(np.asarray(at) + off, mode="clip"), 0.0))
        if ok:
            return pack(parts) if len(parts) <= 2 else lost_like(parts[0])
    return np.full(np.shape(at), _NAN) if np.ndim(at) else _NAN
