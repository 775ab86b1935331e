"""<cuda_pipeline.h>'s primitives in the emulator, for the original CUDA (whose toolkit header the emulator
does not read; a file that defines a function of the same name, as the HIP port's definitions do
(kernelport/backends/hip_async_copies.py), runs its own).

`__pipeline_memcpy_async(dst, src, size_and_align[, zfill])` is a copy complete when the call returns, as
a copy complete before every later wait is what CUDA's asynchronous one promises at its wait: the first
size_and_align - zfill bytes of src, zeros after (zfill may differ between lanes: a bounds guard); both
sides are read as unsigned scalars of the largest size dividing the length and both element types, a
zfill of part of one a located error.  `__pipeline_commit()` and `__pipeline_wait_prior(N)` have nothing
left to wait for (their arguments are evaluated).  `__pipeline_arrive_on` (an mbarrier's) is not emulated.
"""
from __future__ import annotations

import math

import numpy as np

from .bitcopy import aligned_view, lane_uniform
from .errors import EmulatorError
from .expressions import ZERO
from .memory import Pointer

NAMES = frozenset({"__pipeline_memcpy_async", "__pipeline_commit", "__pipeline_wait_prior"})


def call(fc, name: str, args, node):
    """The emulated call of `name` (one of NAMES) with `args` (pycparser nodes), compiled by FnCompiler `fc`."""
    evaluated = [fc.ex(a) for a in args]
    if name != "__pipeline_memcpy_async":
        def nothing(fr, m):
            for a in evaluated:
                a(fr, m)
            return ZERO
        return nothing
    if len(args) not in (3, 4):
        raise fc.err(node, f"__pipeline_memcpy_async takes (dst, src, size_and_align[, zfill]), not {len(args)} arguments")
    dst, src, size = evaluated[:3]
    zfill = evaluated[3] if len(args) == 4 else None
    path, pos = fc.c.path, fc.pos(node)

    def fail(msg):
        return EmulatorError(f"__pipeline_memcpy_async: {msg}", path, *pos)

    def pointer(side, fr, m):
        p = side(fr, m)[0]
        if not isinstance(p, Pointer):
            raise fail("an address that is not a pointer")
        return p.index(0) if p.dims else p

    def f(fr, m):
        g = fr.g
        n = lane_uniform(size(fr, m)[0], fail, "a size")
        if n not in (4, 8, 16):
            raise fail(f"size_and_align {n}: CUDA takes 4, 8 or 16")
        z = np.broadcast_to(np.asarray(zfill(fr, m)[0], dtype=np.int64), (g.n,)) if zfill is not None \
            else np.zeros(g.n, np.int64)
        ps, pd = pointer(src, fr, m), pointer(dst, fr, m)
        unit = math.gcd(n, ps.dt.itemsize, pd.dt.itemsize)
        active = np.broadcast_to(np.asarray(m, dtype=bool), (g.n,))
        if np.any(active & ((z % unit != 0) | (z < 0) | (z > n))):
            raise fail(f"a zfill that is not a whole number of the copy's {unit}-byte scalars within its size")
        dt = np.dtype(f"u{unit}")
        ps, pd = aligned_view(ps, dt, fail, "{n} bytes"), aligned_view(pd, dt, fail, "{n} bytes")
        for j in range(n // unit):
            kept = j * unit < n - z
            copy, zero = active & kept, active & ~kept
            if copy.any():
                g.ctx.mem.store(g, pd.add(j), g.ctx.mem.load(g, ps.add(j), copy, node, g.ctx.track), copy, node,
                                g.ctx.track)
            if zero.any():
                g.ctx.mem.store(g, pd.add(j), (np.zeros(g.n, dt), None), zero, node, g.ctx.track)
        return ZERO
    return f
