"""Arrays of structs in memory (issue 18): b+tree's `knode *knodesD`, streamcluster's `Point *p`.

A buffer of structs holds their bytes in the C layout of the struct's declaration (each field at
its alignment, the struct padded to a multiple of its widest field: numpy's `align=True` is that
rule), so the inputs, every port and the comparison agree byte for byte.  A pointer to a struct
is a byte pointer (memory.Pointer, dt uint8) that carries the StructT: dims (sizeof,) for a
pointer (`p + 1` is the next struct), () for one struct object (`p[i]`, `*p`).  A field read
`p[i].f` / `p->f` is the field's own scalar at its byte offset; an array field `p[i].keys`
decays to a pointer to its first element; a nested struct is a struct object again.
"""
from __future__ import annotations

import functools
import zlib

import numpy as np

from . import bfloat16
from .ctype import U8, ArrT, PtrT, StructT, base_scalar, inner_dims, scalar_count, vector_row
from .errors import EmulatorError
from .memory import Buffer, Pointer
from .structs import StructVal
from .vectors import VecVal


def in_memory(t) -> bool:
    """A struct an array of which lives in memory as bytes (not a vector type: those are rows
    of scalars)."""
    return isinstance(t, StructT) and vector_row(t) is None


@functools.lru_cache(maxsize=256)
def struct_dtype(t: StructT) -> np.dtype:
    """The struct's C layout as a numpy structured dtype (field offsets, padding, size)."""
    return np.dtype([(f, _field_dtype(ft)) for f, ft in t.fields], align=True)


def _field_dtype(ft) -> np.dtype:
    if isinstance(ft, np.dtype):
        return ft
    if isinstance(ft, PtrT):
        return np.dtype(np.uint64)  # 8 bytes, aligned to 8: a device pointer
    if isinstance(ft, ArrT):
        return np.dtype((_field_dtype(base_scalar(ft)), inner_dims(ft)))
    if isinstance(ft, StructT):
        return struct_dtype(ft)
    raise TypeError(f"no memory layout for a field of type {ft}")


def bind_array(name: str, t: StructT, a, error_bound: bool, path: str) -> Pointer:
    """A kernel argument `T *name` for a struct T: `a`, a numpy structured array with T's fields
    (converted field by field to T's own layout), as a global buffer of bytes."""
    try:
        dt = struct_dtype(t)
    except TypeError as e:
        raise EmulatorError(f"argument `{name}`: struct {t.name or ''}: {e}", path) from None
    arr = np.asarray(a)
    if arr.dtype.names is None or set(arr.dtype.names) != set(dt.names):
        raise EmulatorError(f"argument `{name}` is an array of struct {t.name or ''}: pass a numpy structured "
                            f"array with its fields ({', '.join(dt.names)})", path)
    data = np.ascontiguousarray(arr.reshape(-1).astype(dt)).view(U8).copy()
    buf = Buffer(name, data, "global", data.shape[0], error_bound)
    buf.layout = dt
    return Pointer(buf, U8, 0, np.int64(0), data.shape[0], (dt.itemsize,), t)


def member(p: Pointer, name: str, arrow: bool, path: str, pos) -> tuple[Pointer, bool]:
    """`p->name` / `p.name` of a struct in memory: (pointer to the field, whether it is a scalar
    to load); an array field is the pointer to its first element, a vector or struct field its
    row / object."""
    if arrow:
        if not p.dims:
            raise EmulatorError(f"`->{name}` on a struct object (write `.{name}`)", path, *pos)
        p = p.index(0)
    elif p.dims:
        raise EmulatorError(f"`.{name}` on a pointer to struct (write `->{name}`)", path, *pos)
    st = p.st
    dt = struct_dtype(st)
    if name not in dt.names:
        raise EmulatorError(f"struct {st.name or ''} has no field `{name}` (fields: {', '.join(dt.names)})", path, *pos)
    off, ft = dt.fields[name][1], st.field(name)
    q = p.add(off)
    if isinstance(ft, np.dtype):
        return _aligned(q, ft, name, path, pos).cast(ft), True
    if isinstance(ft, StructT) and in_memory(ft):
        return Pointer(q.buf, U8, q.base, q.off, q.size, (), ft), False
    if isinstance(ft, StructT):  # a vector type: its row of scalars (`.x` is scalar 0)
        elem = vector_row(ft)[0]
        return _aligned(q, elem, name, path, pos).cast(elem), False
    if isinstance(ft, ArrT) and isinstance(base_scalar(ft), np.dtype):
        elem = base_scalar(ft)
        return _aligned(q, elem, name, path, pos).cast(elem, inner_dims(ft)[1:]), False
    if isinstance(ft, ArrT) and in_memory(ft.elem):
        return Pointer(q.buf, U8, q.base, q.off, q.size, (struct_dtype(ft.elem).itemsize,), ft.elem), False
    raise EmulatorError(f"field `{name}` of struct {st.name or ''} is a {'pointer' if isinstance(ft, PtrT) else ft} "
                        "held in memory: the emulator reads numbers, vectors, arrays and structs from memory, not "
                        "pointers", path, *pos)


def scalar_field(field_ptr, name: str, pos):
    """A field pointer function, for a store: refused where the field is not a number."""
    def pf(fr, m):
        p, scalar = field_ptr(fr, m)
        if not scalar:
            raise EmulatorError(f"assignment to the field `{name}`, not a number: assign its elements or fields",
                                fr.g.ctx.path, *pos)
        return p
    return pf


def from_memory(v, g, m, node, pos):
    """`S s = p[i];` where p points at structs in memory: the struct value; else v as it is (g: the group)."""
    if isinstance(v, tuple) and v and isinstance(v[0], Pointer) and v[0].st is not None:
        return load_struct(g, v[0], m, node, g.ctx.path, pos)
    return v


def _aligned(q: Pointer, dt: np.dtype, name: str, path: str, pos) -> Pointer:
    if np.any((q.base + q.off) % dt.itemsize):
        raise EmulatorError(f"field `{name}` is not aligned to its {dt.itemsize} bytes (a packed struct is not "
                            "supported by the emulator)", path, *pos)
    return q


def as_pointer(p: Pointer) -> Pointer:
    """`&p[i]`: a struct object's address, a pointer to structs again (`part + 1`, `part->x`)."""
    if p.st is None or p.dims:
        return p
    return Pointer(p.buf, p.dt, p.base, p.off, p.size, (struct_dtype(p.st).itemsize,), p.st)


def load_struct(g, p: Pointer, m, node, path: str, pos) -> StructVal:
    """`S s = p[i];`: the struct object at p, field by field, as a value in registers."""
    if p.dims:
        p = p.index(0)
    out = StructVal()
    for f, ft in p.st.fields:
        q, scalar = member(p, f, False, path, pos)
        if scalar:
            out[f] = g.ctx.mem.load(g, q, m, node, g.ctx.track)
        elif q.st is not None and not q.dims:
            out[f] = load_struct(g, q, m, node, path, pos)
        elif isinstance(ft, StructT):
            out[f] = VecVal(g.ctx.mem.load(g, q.add(i), m, node, g.ctx.track) for i in range(vector_row(ft)[1]))
        elif isinstance(ft, ArrT) and isinstance(base_scalar(ft), np.dtype) and q.st is None:
            out[f] = (_array_field_copy(g, q, ft, f, m, node), None)
        else:
            raise EmulatorError(f"struct {p.st.name or ''} loaded whole from memory has an array field `{f}` of "
                                "structs: read its fields one by one", path, *pos)
    return out


def _array_field_copy(g, q: Pointer, ft: ArrT, name: str, m, node) -> Pointer:
    """An array field of a struct loaded whole (`const x128 r = s_res[i];`): its elements copied
    into a per-lane local buffer of the value's own, as a struct local's array field is
    (structs.fresh_struct), so the value never shares the memory it was read from."""
    elem, n = base_scalar(ft), scalar_count(ft)
    buf = Buffer(name, np.zeros(g.n * n, dtype=elem), "local", n, g.ctx.track, getattr(node.coord, "line", 0))
    for j in range(n):
        v, e = g.ctx.mem.load(g, q.add(j), m, node, g.ctx.track)
        idx = g.lane_idx * n + j
        # (a bfloat16 element: the float32 value loaded, stored back as its two bytes, not cast to them)
        buf.data[idx] = np.broadcast_to(bfloat16.stored(v) if elem == bfloat16.BF16 else np.asarray(v, dtype=elem), (g.n,))
        if e is not None and buf.err_for_store() is not None:
            buf.err_for_store()[idx] = np.broadcast_to(e, (g.n,))
    return Pointer(buf, elem, g.lane_idx * n, np.int64(0), n, inner_dims(ft)[1:])


def store_struct(g, p: Pointer, val: StructVal, m, node, path: str, pos, convert) -> StructVal:
    """`p[i] = s;`: each field of the struct value s stored at its offset."""
    if p.dims:
        p = p.index(0)
    for f, v in val.items():
        q, scalar = member(p, f, False, path, pos)
        if isinstance(v, StructVal) and q.st is not None:
            store_struct(g, q, v, m, node, path, pos, convert)
        elif isinstance(v, VecVal):
            for i, c in enumerate(v):
                g.ctx.mem.store(g, q.add(i), c if c[0].dtype == q.dt else convert(c, q.dt, g.ctx.track), m, node,
                                g.ctx.track)
        elif scalar:
            g.ctx.mem.store(g, q, v if v[0].dtype == q.dt else convert(v, q.dt, g.ctx.track), m, node, g.ctx.track)
        elif isinstance(v, tuple) and isinstance(v[0], Pointer) and q.st is None:  # an array field's elements
            src, n = v[0], v[0].size
            starts = np.broadcast_to(np.asarray(src.base + src.off, dtype=np.int64), (g.n,))
            for j in range(n):
                e = src.buf.err[starts + j] if src.buf.err is not None else None
                raw = src.data[starts + j]  # (bfloat16 bytes: the float32 values a store takes)
                c = (bfloat16.held(bfloat16.to_float(raw)) if raw.dtype == bfloat16.BF16 else raw, e)
                g.ctx.mem.store(g, q.add(j), c if c[0].dtype == q.dt else convert(c, q.dt, g.ctx.track), m, node,
                                g.ctx.track)
        else:
            raise EmulatorError(f"field `{f}` of a struct stored to memory is an array: store its elements",
                                path, *pos)
    return val


def global_structs(name: str, d, t: ArrT, given_all, generate, seed: int, path: str, pos) -> tuple[Buffer, np.ndarray]:
    """A file-scope array of structs (`__constant__ kValues ck[N];`, HeCBench's mriQ) as bytes in the
    struct's C layout, as an argument's are: the original's contents where a port is given them, each
    number field seeded where host code fills it (cudaMemcpyToSymbol: kernelport.verify_oracle.
    host_filled), zeros otherwise.  An initialiser is refused at its line (its values are not read)."""
    from .. import inputs
    st, n = base_scalar(t), 1
    for k in inner_dims(t):
        n *= k
    dt = struct_dtype(st)
    given = (given_all or {}).get(name)
    if given is not None and given.dtype == dt and given.shape == (n,):
        values = given.copy()
    elif d.init is not None:
        raise EmulatorError(f"`{name}`: an initialised file-scope array of structs is not supported by the "
                            "emulator yet", path, *pos)
    elif name in generate:
        values = inputs.structs_of(n, dt, [seed, zlib.crc32(name.encode())])
    else:
        values = np.zeros(n, dt)
    data = values.view(U8).copy()
    buf = Buffer(name, data, "global", data.shape[0], False, pos[0])
    buf.layout = dt
    return buf, values
