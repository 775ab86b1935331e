"""A local's address passed to a helper (`Float3 v; compute_velocity(d, m, &v);`, HeCBench's cfd):
the helper writes the caller's variable through its pointer parameter.

The emulator keeps locals in registers (a number per lane, a struct field by field), which have no
address.  At the call, `&x` is a per-lane temporary in local memory holding x's value (a number, or a
struct in its C layout, as an array of structs in memory is), the helper gets a pointer to it, and
when the call returns x takes the temporary's value back (copy-in / copy-out, as reference
parameters are: frontend/references.py).  That is the pointer's meaning while the helper does not
keep it past the call, which C code of this kind cannot do in the emulator (storing a pointer into
memory is refused), and while no other pointer to x is live across the call (only `&x` at this call
names it).  A local array, a struct with array fields and the address taken anywhere else stay
located refusals.
"""
from __future__ import annotations

import numpy as np
from pycparser import c_ast

from . import undefined
from .ctype import U8, vector_row
from .memory import Buffer, Pointer
from .ops import convert
from .structs import StructVal, has_array_fields, is_struct
from .vectors import VecVal


def addressed_local(fc, arg):
    """(slot, type) of the local `x` when the argument is `&x` of a number, a vector (float3: a row of
    scalars) or a struct without array fields, else None."""
    if not (isinstance(arg, c_ast.UnaryOp) and arg.op == "&" and isinstance(arg.expr, c_ast.ID)):
        return None
    ent = fc.scope.lookup(arg.expr.name)
    if ent is None or ent[0] != "local" or hasattr(ent, "array"):
        return None
    t = ent[2]
    if isinstance(t, np.dtype) or vector_row(t) is not None or (is_struct(t) and not has_array_fields(t)):
        fc.used.add(ent[1])
        return ent[1], t
    return None


def const_address(fc, node):
    """`&x` of a local declared const (llm.c's `vec_at(const float4& vec, int i)` reads
    `reinterpret_cast<const float*>(&vec)[i]`): a temporary holding x's value, as at a call; nothing
    may write through it (x is const), so nothing is copied back.  None for any other `&x`."""
    hit = addressed_local(fc, node)
    if hit is None or hit[0] not in fc.const_slots:
        return None
    return temporary(*hit, node.expr.name, fc.pos(node)[0], node, fc.pos(node))


def _set(v: StructVal) -> StructVal:
    """The fields a struct value has (a field never assigned is left out of the copy)."""
    return StructVal({k: (_set(x) if isinstance(x, StructVal) else x) for k, x in v.items() if x is not None})


def temporary(slot: int, t, name: str, line: int, node, pos):
    """fn(fr, m) -> (pointer, None): the temporary holding the local's value, for the call's lanes."""
    from . import layout  # (layout builds StructVals: a module-level import is a cycle)

    def addr(fr, m):
        g = fr.g
        v = fr.env[slot]
        if isinstance(t, np.dtype):
            buf = Buffer(name, np.zeros(g.n, dtype=t), "local", 1, g.ctx.track, line)
            undefined.unwritten(buf)  # (what the local's value does not write is never written)
            p = Pointer(buf, t, g.lane_idx, np.int64(0), 1)
            if v is not None:
                g.ctx.mem.store(g, p, v, m, node, g.ctx.track)
            return p, None
        if vector_row(t) is not None:  # a row of n scalars, as a buffer of vectors holds one
            dt, n = vector_row(t)
            buf = Buffer(name, np.zeros(g.n * n, dtype=dt), "local", n, g.ctx.track, line)
            undefined.unwritten(buf)
            p = Pointer(buf, dt, g.lane_idx * n, np.int64(0), n, (n,))
            for i, c in enumerate(v if isinstance(v, VecVal) else ()):
                if c is not None:
                    g.ctx.mem.store(g, p.index(0).add(i), c if c[0].dtype == dt else convert(c, dt, g.ctx.track), m,
                                    node, g.ctx.track)
            return p, None
        size = layout.struct_dtype(t).itemsize
        buf = Buffer(name, np.zeros(g.n * size, dtype=U8), "local", size, False, line)
        buf.layout = layout.struct_dtype(t)
        p = Pointer(buf, U8, g.lane_idx * size, np.int64(0), size, (size,), t)
        if isinstance(v, StructVal):
            layout.store_struct(g, p, _set(v), m, node, g.ctx.path, pos, convert)
        return p, None
    return addr


def copy_back(p: Pointer, t, g, m, node, pos):
    """The temporary's value after the call: what the local takes back."""
    from . import layout
    if isinstance(t, np.dtype):
        return g.ctx.mem.load(g, p, m, node, g.ctx.track)
    if vector_row(t) is not None:
        return VecVal(g.ctx.mem.load(g, p.index(0).add(i), m, node, g.ctx.track) for i in range(vector_row(t)[1]))
    return layout.load_struct(g, p, m, node, g.ctx.path, pos)

