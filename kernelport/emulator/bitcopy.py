"""`memcpy(dst, src, n)` in device code: a copy of n bytes, C's way to read an object's bits as
another type (llm.c's Packed128 copies an `int4` into its element array and back).

Each side is a register, `&x` of a local scalar or vector (`int4 bits`), or an address: an array
(`&self.payload`, a local array, a buffer pointer), viewed as the other side's element type.  The
copy is whole objects and aligned rows: a register side takes exactly its own size, an address
side is read or written as the other side's scalars at an offset they align with; anything else
is a located error, never a partial or shifted copy.
"""
from __future__ import annotations

import math

import numpy as np
from pycparser import c_ast

from . import bitbounds
from .ctype import vector_row
from .errors import EmulatorError
from .expressions import ZERO
from .memory import Pointer
from .undefined import as_type, mark, marks, plain
from .vectors import VecVal


def aligned_view(p: Pointer, dt: np.dtype, fail, what: str = "the {n}-byte scalars of the other side") -> Pointer:
    """p as a pointer to dt scalars; each lane's byte offset must align with dt (else `fail(message)`, raised)."""
    start = np.asarray(p.base + p.off, dtype=np.int64) * p.dt.itemsize
    if np.any(start % dt.itemsize):
        raise fail("an address not aligned to " + what.format(n=dt.itemsize))
    return p.cast(dt)


def lane_uniform(value, fail, what: str) -> int:
    """The one integer every lane's `value` holds (else `fail(message)`, raised: `what` differs between lanes)."""
    n = np.asarray(value)
    if n.ndim and np.unique(n).size > 1:
        raise fail(f"{what} that differs between lanes")
    return int(n.reshape(-1)[0])


class BitCopyCompiler:
    """FnCompiler's memcpy (a mixin)."""

    def _memcpy_side(self, node):
        """('reg', dtype, count, load, store, is a vector) for `&x` of a local scalar or vector;
        ('ptr', value fn) for any other argument."""
        if isinstance(node, c_ast.UnaryOp) and node.op == "&":
            inner = node.expr
            ent = self.scope.lookup(inner.name) if isinstance(inner, c_ast.ID) else None
            if ent is not None and ent[0] == "local":
                t = ent[2]
                row = (t, 1) if isinstance(t, np.dtype) else vector_row(t)
                if row is not None:
                    lv = self.lvalue(inner)
                    return "reg", row[0], row[1], self._load_lv(lv, inner), self._store(lv, inner), row[1] > 1 or \
                        not isinstance(t, np.dtype)
            if isinstance(inner, (c_ast.ArrayRef, c_ast.UnaryOp)):
                return "ptr", self.ex(node)  # an element's address (`&tile[2 * t]`)
            return "ptr", self.ex(inner)  # an array's address is the array (`&self.payload`)
        return "ptr", self.ex(node)

    def memcpy_call(self, args, node):
        if len(args) != 3:
            raise self.err(node, f"memcpy takes (destination, source, bytes), not {len(args)} arguments")
        dst, src = self._memcpy_side(args[0]), self._memcpy_side(args[1])
        nf = self.ex(args[2])
        path, pos = self.c.path, self.pos(node)

        def fail(msg):
            return EmulatorError(f"memcpy: {msg}", path, *pos)

        def pointer(side, fr, m):
            p = side[1](fr, m)[0]
            if not isinstance(p, Pointer):
                raise fail("an argument is neither an array, a pointer nor `&` of a local scalar or vector")
            return p.index(0) if p.dims else p

        def view(p, dt, g):
            return aligned_view(p, dt, fail)

        def f(fr, m):
            g = fr.g
            n = lane_uniform(nf(fr, m)[0], fail, "a byte count")
            for side in (dst, src):
                if side[0] == "reg" and n != side[1].itemsize * side[2]:
                    raise fail(f"{n} bytes copied to or from a {side[1].itemsize * side[2]}-byte local: "
                               "only whole objects are copied")
            if src[0] == "reg":
                v = src[3](fr, m)
                comps = list(v) if isinstance(v, VecVal) else [v]
                if dst[0] == "reg":  # bits of one register as another's
                    raw = np.stack([np.broadcast_to(np.asarray(plain(c[0]), src[1]), (g.n,)) for c in comps], axis=1)
                    out = np.ascontiguousarray(raw).view(np.uint8).view(dst[1])
                    # a destination scalar holds a value never written where any of its bytes does
                    unset = np.repeat(np.stack([marks(c[0], (g.n,)) for c in comps], axis=1), src[1].itemsize,
                                      axis=1).reshape(g.n, dst[2], dst[1].itemsize).any(axis=2)
                    # each float element's bound follows its bytes (bitbounds)
                    errs = bitbounds.regroup(bitbounds.granules(comps, src[1]), dst[1], dst[2]) if g.ctx.track \
                        else [None] * dst[2]
                    if dst[1].kind == "f" and any(bitbounds.is_lost(x) for x in errs):
                        bitbounds.record(g.ctx, node, "memcpy into a float of bits whose bound was not followed")
                    new = [(mark(out[:, j], unset[:, j]), errs[j]) for j in range(dst[2])]
                else:
                    p = view(pointer(dst, fr, m), src[1], g)
                    for j, c in enumerate(comps):
                        g.ctx.mem.store(g, p.add(j), (as_type(c[0], src[1]), c[1]), m, node, g.ctx.track)
                    return ZERO
            elif dst[0] == "reg":
                p = view(pointer(src, fr, m), dst[1], g)
                new = [g.ctx.mem.load(g, p.add(j), m, node, g.ctx.track) for j in range(dst[2])]
            else:
                ps, pd = pointer(src, fr, m), pointer(dst, fr, m)
                size = math.gcd(n, ps.dt.itemsize, pd.dt.itemsize)
                dt = np.dtype(f"u{size}")
                ps, pd = view(ps, dt, g), view(pd, dt, g)
                for j in range(n // size):
                    g.ctx.mem.store(g, pd.add(j), g.ctx.mem.load(g, ps.add(j), m, node, g.ctx.track), m, node,
                                    g.ctx.track)
                return ZERO
            dst[4](fr, m, VecVal(new) if dst[5] else new[0])
            return ZERO
        return f
