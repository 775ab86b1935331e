"""Null pointers in some lanes only: `p = 0;` (or NULL, nullptr) in one branch, a buffer's address in the
other, merged after the divergence (if/else, a ternary, a loop's exit).

A pointer null in every lane stays the integer 0, as before.  A `Pointer` (memory.py) that is null in
some lanes keeps its buffer and gives those lanes the offset NULL_OFF, far below any buffer: pointer
arithmetic keeps them far below (C leaves arithmetic on NULL undefined anyway), a comparison with 0 and a
pointer's truth read them per lane, and a load or store through one fails the bounds check, which
words it as a dereference of a null pointer at the access, naming the thread (`null_fault`).
"""
from __future__ import annotations

import numpy as np

from .errors import EmulatorError
from .memory import Pointer

NULL_OFF = -(1 << 52)  # a null lane's offset (times a 16-byte scalar's size stays inside int64)
NULL_BELOW = -(1 << 40)  # offsets below this are null lanes' (no buffer has 2^40 scalars)


def null_lanes(p: Pointer):
    """A bool per lane (or a scalar) where p is null."""
    off = p.off
    if not isinstance(off, np.ndarray):
        return np.bool_(off < NULL_BELOW)
    return np.asarray(off) < NULL_BELOW


def truth(p: Pointer):
    """`if (p)`: true where the lane's pointer is not null."""
    return ~null_lanes(p)


def compare_with_int(op: str, p: Pointer, v):
    """`p == 0` / `p != 0` per lane; (None: a comparison with an integer that is not 0, not modelled here)."""
    if np.any(np.asarray(v) != 0):
        return None
    null = null_lanes(p)
    return (null if op == "==" else ~null), None


def _lanes(g, x):
    return np.broadcast_to(np.asarray(x), (g.n,))


def merge(g, old, new, m):
    """`new` in the lanes of m, `old` elsewhere, where one side is a Pointer and the other an integer
    (NULL, or a local declared without a value) or a pointer into another buffer; None where neither."""
    vo, vn = old[0], new[0]
    po, pn = isinstance(vo, Pointer), isinstance(vn, Pointer)
    if po and pn:  # two buffers: right only where one side is null in every lane it gives
        if not (_lanes(g, null_lanes(vo)) | m | _invalid(g)).all():
            if not (_lanes(g, null_lanes(vn)) | ~m).all():
                return None
            p, mine = vo, ~m
        else:
            p, mine = vn, m
    else:
        p, ints = (vn, vo) if pn else (vo, vn)
        mine = m if pn else ~m
        # lanes whose local was never written take the pointer (indeterminate in C, as a first
        # assignment's other lanes do: undefined.assigned); the rest must hold NULL
        mine = mine | _lanes(g, getattr(ints, "undef", None) if getattr(ints, "undef", None) is not None else False)
        rest = ~mine & ~_invalid(g)
        if (_lanes(g, ints) != 0)[rest].any():
            raise EmulatorError("a pointer that holds an integer other than NULL in some threads and an address in "
                                "others (not supported by the emulator)", g.ctx.path)
    off = np.where(mine, np.asarray(p.off, np.int64), np.int64(NULL_OFF))
    return Pointer(p.buf, p.dt, p.base, off, p.size, p.dims, p.st), None


def _invalid(g):
    """Lanes that are no thread (a block smaller than the wave): they hold nothing of their own."""
    return ~_lanes(g, g.valid)


def null_fault(idx: int, what: str, thread, block):
    """The message of a load or store through a lane's null pointer, or None where idx is a buffer's."""
    if idx >= NULL_BELOW:
        return None
    return f"{what} through a null pointer (this thread's pointer holds NULL); thread {thread} of block {block}"


def non_pointer(g, v, m, what: str, pos):
    """The error of a `what` (dereference, subscript, atomic, ...) through v, which is no Pointer: a
    located KernelFault where v is NULL (null_access), else the emulator's own EmulatorError."""
    return null_access(g, v, m, what, pos) or EmulatorError(f"{what} of a non-pointer", g.ctx.path, *pos)


def null_access(g, v, m, what: str, pos):
    """A KernelFault naming the first active thread where every active lane's v is NULL (a pointer null
    in every lane stays the integer 0), or None."""
    from .errors import KernelFault
    act = np.broadcast_to(np.asarray(m, bool), (g.n,))
    try:
        vals = np.broadcast_to(np.asarray(v), (g.n,))
    except (TypeError, ValueError):
        return None
    if vals.dtype.kind not in "iub" or not act.any() or vals[act].any():
        return None
    t, b = g.thread_of(int(np.flatnonzero(act)[0]))
    return KernelFault(f"{what} of a null pointer (this thread's pointer holds NULL); thread {t} of block {b}",
                       g.ctx.path, *pos)
