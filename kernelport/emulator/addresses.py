"""Casts (`cast`: C's scalar conversions, a pointer viewed as another element type) and pointer
<-> integer casts, which need a byte address for each buffer a kernel turns into an integer.

`(uintptr_t)p`, `(unsigned long long)p`, `(size_t)p & 31`: a buffer gets its base address the
first time one of its pointers is cast (in the order the run casts them, so both runs of a wave
comparison give the same addresses), each base aligned to 256 bytes as cudaMalloc / hipMalloc
align, one after the other with a gap, so distinct buffers never compare equal and the low bits
of an address say its alignment.  `(T *)n` maps an address back into the buffer that holds it;
one that no buffer holds is a located error, never an invented pointer.
"""
from __future__ import annotations

import numpy as np

from .ctype import U8, base_scalar, inner_dims, vector_row
from .layout import in_memory, struct_dtype
from .errors import EmulatorError
from .memory import Pointer
from .nulls import NULL_OFF, null_lanes
from .ops import convert

ALIGN = 256  # bytes: the alignment the CUDA and HIP allocators give
FIRST = 1 << 20  # the first base: far from 0, so no buffer's address is a null pointer


class AddressMap:
    """Base addresses of the buffers that were cast to integers in one run."""

    def __init__(self):
        self.bases: dict[int, tuple[int, object]] = {}  # id(buffer) -> (base, buffer)
        self.next = FIRST

    def base(self, buf) -> int:
        hit = self.bases.get(id(buf))
        if hit is None:
            nbytes = buf.data.nbytes
            hit = (self.next, buf)
            self.bases[id(buf)] = hit
            self.next += -(-(nbytes + ALIGN) // ALIGN) * ALIGN  # one aligned gap after each buffer
        return hit[0]

    def find(self, addr: int):
        for base, buf in self.bases.values():
            if base <= addr < base + buf.data.nbytes:
                return base, buf
        return None


def _amap(ctx) -> AddressMap:
    am = getattr(ctx, "addresses", None)
    if am is None:
        am = ctx.addresses = AddressMap()
    return am


def pointer_to_int(p: Pointer, dt: np.dtype, ctx):
    """The byte address of p (per lane) as an integer of type dt (C truncates to narrow types)."""
    base = _amap(ctx).base(p.buf)
    scalars = np.asarray(p.addr(), dtype=np.int64)
    addr = np.uint64(base) + scalars.astype(np.uint64) * np.uint64(p.dt.itemsize)
    null = null_lanes(p)
    if null.any():  # (lanes whose pointer is NULL: address 0)
        addr = np.where(null, np.uint64(0), addr)
    return addr.astype(dt)[()]


def int_to_pointer(v, elem: np.dtype, dims: tuple, m, g, path, pos):
    """`(T *)n`: the pointer into the buffer that holds address n on every lane of mask m (its
    bounds: the whole buffer, NULL in the lanes whose n is 0); None for a null address on every lane,
    which stays the integer 0."""
    addrs = np.broadcast_to(np.asarray(v).astype(np.uint64), (g.n,))
    zero = addrs == 0
    live = addrs[m & ~zero]
    if not live.size or not np.any(live):
        return None
    if not isinstance(elem, np.dtype):
        raise EmulatorError("an integer converted to a pointer to a non-scalar type: the emulator converts "
                            "integers to pointers to scalars only", path, *pos)
    am = _amap(g.ctx)
    hits = {am.find(int(a)) for a in np.unique(live)}
    if len(hits) != 1 or None in hits:
        raise EmulatorError("an integer converted to a pointer that is not the address of one buffer the "
                            "kernel cast to an integer (the emulator maps back only the addresses it gave out)",
                            path, *pos)
    base, buf = hits.pop()
    byte = np.where(m & ~zero, addrs.astype(np.int64) - np.int64(base), 0)
    if np.any(byte % elem.itemsize):
        raise EmulatorError(f"an address converted to a pointer to a {elem.itemsize}-byte type is not aligned to "
                            f"{elem.itemsize} bytes", path, *pos)
    off = byte // elem.itemsize
    return Pointer(buf, elem, 0, np.where(zero, np.int64(NULL_OFF), off) if zero.any() else off,
                   buf.data.nbytes // elem.itemsize, dims)


def cast(a, t, pos):
    """The closure of `(t) a` for a scalar or pointer type t: C's conversion of a scalar, a
    pointer's view as another element type, and pointer <-> integer through the addresses here."""
    if isinstance(t, np.dtype):
        def to_scalar(fr, m):
            v = a(fr, m)
            if isinstance(v[0], Pointer):
                if t.kind not in "iu":
                    raise EmulatorError("a pointer cast to a floating type", fr.g.ctx.path, *pos)
                return pointer_to_int(v[0], t, fr.g.ctx), None
            return convert(v, t, fr.g.ctx.track)
        return to_scalar
    elem = base_scalar(t.elem)
    dims = inner_dims(t.elem)
    row = vector_row(elem)
    if row is not None:  # (float4 *)p: rows of 4 floats, as a float4 buffer is
        elem, dims = row[0], dims + (row[1],)

    def to_pointer(fr, m):
        v = a(fr, m)
        p = v[0]
        if isinstance(p, Pointer) and isinstance(elem, np.dtype):
            return p.cast(elem, dims), None
        if isinstance(p, Pointer) and in_memory(elem) and not dims:  # (S *)bytes: a pointer to structs in memory
            q = p.cast(U8)
            return Pointer(q.buf, U8, q.base, q.off, q.size, (struct_dtype(elem).itemsize,), elem), None
        if isinstance(p, (np.ndarray, np.integer)) and p.dtype.kind in "iu":  # (T *)n: an address
            q = int_to_pointer(p, elem, dims, m, fr.g, fr.g.ctx.path, pos)
            return v if q is None else (q, None)
        return v
    return to_pointer
