"""Struct values held in registers: a kernel parameter of a struct type passed by value (apex's
`NhwcBatchNormFwdParams params`), a local `S s = params;`, `S s; s.x = ...;`, `S s = {a, b};`.

A StructVal maps each field to its value: a (value, error) pair of a scalar or a pointer, or a
nested StructVal.  A parameter's array fields (`float w[4];` inside the struct) are read-only
buffers of their own.  Reads `s.f`, `s.a.b`, `s.arr[i]` and stores `s.f = v` are resolved at
compile time to a slot and a path of field names; what stays unsupported (a pointer to a struct)
is refused at its line.

A local's array field (`struct P { float v[4]; }; P p;`, llm.c's Packed128 payload) is a per-lane
local buffer of its own, as a local array is; value semantics are kept by copying: a declaration
with an initialiser, a whole-struct assignment and a by-value parameter copy the source's
elements into the destination's own buffer (for the lanes that run it), never sharing it.
"""
from __future__ import annotations

import numpy as np
from pycparser import c_ast

from .ctype import ArrT, PtrT, StructT, base_scalar, conv, inner_dims, row_scalar, scalar_count, vector_row
from . import undefined
from .errors import EmulatorError
from .memory import Buffer, Pointer


class StructVal(dict):
    """field name -> (value, error) | StructVal: one struct value for all lanes."""


def is_struct(t) -> bool:
    """A struct the emulator keeps in registers field by field (not a vector type: those are rows
    of scalars in memory)."""
    return isinstance(t, StructT) and vector_row(t) is None


def merge_structs(merge, g, old, new, m):
    """Per-field merge of a struct assigned to the lanes of mask m."""
    if not isinstance(old, StructVal):
        return new
    out = StructVal(old)  # a field the new value lacks keeps the old one's
    for k, v in new.items():
        out[k] = merge(g, old.get(k), v, m)
    return out


def has_array_fields(t) -> bool:
    """Whether a struct (or one nested in it) has an array field: its values need copying."""
    return any(isinstance(ft, ArrT) or (is_struct(ft) and has_array_fields(ft)) for _, ft in t.fields)


def fresh_struct(t: StructT, name: str, g, line: int = 0) -> StructVal:
    """A struct local's value before any assignment: each array field a zeroed per-lane local
    buffer (nested structs alike), the other fields without a value."""
    out = StructVal()
    for f, ft in t.fields:
        if isinstance(ft, ArrT):
            elem, n = base_scalar(ft), scalar_count(ft)
            if not isinstance(elem, np.dtype):
                raise EmulatorError(f"field `{name}.{f}`: arrays of structs or pointers in a struct variable are "
                                    "not supported by the emulator", g.ctx.path, line)
            buf = Buffer(f"{name}.{f}", np.zeros(g.n * n, dtype=elem), "local", n, g.ctx.track, line)
            lanes = undefined.unwritten(buf, g.lane_idx * n)  # (no element written yet)
            out[f] = (Pointer(buf, elem, lanes, np.int64(0), n, inner_dims(ft)[1:]), None)
        elif is_struct(ft) and has_array_fields(ft):
            out[f] = fresh_struct(ft, f"{name}.{f}", g, line)
    return out


def _lane_starts(p: Pointer, n_lanes: int) -> np.ndarray:
    return np.broadcast_to(np.asarray(p.base + p.off, dtype=np.int64), (n_lanes,))


def assign_struct(merge, t: StructT, dst: StructVal, src, g, m, path: str, pos) -> StructVal:
    """dst = src for the lanes of mask m, by value: an array field's elements are copied from the
    source's buffer into dst's own (whatever buffer the source's are in: a local's, a parameter's
    read-only field); the other fields are merged as scalars are."""
    if not isinstance(src, StructVal):
        raise EmulatorError(f"struct {t.name or ''} assigned a value that is not a struct", path, *pos)
    out = StructVal(dst)
    for f, ft in t.fields:
        sv = src.get(f)
        if sv is None:
            continue
        if isinstance(ft, ArrT):
            d, s = dst[f][0], sv[0]
            if not isinstance(s, Pointer):
                raise EmulatorError(f"array field `{f}` assigned a value that is not an array", path, *pos)
            n = d.size
            k = np.arange(n, dtype=np.int64)
            sel = np.ones(g.n, dtype=bool) if m is g.full else np.broadcast_to(np.asarray(m, dtype=bool), (g.n,))
            di = (_lane_starts(d, g.n)[:, None] + k)[sel]
            si = (_lane_starts(s, g.n)[:, None] + k)[sel]
            d.data[di] = conv(s.data[si], d.dt)
            undefined.copy(d.buf, di, s.buf, si)
            if s.buf.err is not None:
                d.buf.err_for_store()[di] = s.buf.err[si]
            elif d.buf.err is not None:
                d.buf.err[di] = 0
        elif is_struct(ft) and has_array_fields(ft):
            out[f] = assign_struct(merge, ft, dst[f], sv, g, m, path, pos)
        else:
            out[f] = merge(g, dst.get(f), sv, m)
    return out


def bind_struct(name: str, t: StructT, a, pointer_arg, path: str, pos=(0, 0)) -> StructVal:
    """A struct argument from a dict of its fields (nested dicts for nested structs):
    `pointer_arg(qualified name, pointer type, array)` binds a pointer field to a global buffer,
    whose output is named `name.field`; errors point at the kernel (pos).  A field not given has
    no value: reading it is an error at the read (a struct of 20 fields of which the kernel reads
    5 needs only those 5)."""
    if not isinstance(a, dict):
        raise EmulatorError(f"argument `{name}` is a struct {t.name or ''}: pass a dict of its fields "
                            f"({', '.join(f for f, _ in t.fields)})", path, *pos)
    fields = dict(t.fields)
    extra = [k for k in a if k not in fields]
    if extra:
        raise EmulatorError(f"struct argument `{name}` has no field `{extra[0]}` (fields: {', '.join(fields)})",
                            path, *pos)
    out = StructVal()
    for f, ft in t.fields:
        q = f"{name}.{f}"
        if f not in a:
            continue
        v = a[f]
        if isinstance(ft, PtrT):
            out[f] = pointer_arg(q, ft, v)
        elif isinstance(ft, StructT):
            out[f] = bind_struct(q, ft, v, pointer_arg, path, pos)
        elif isinstance(ft, ArrT):
            out[f] = (_array_field(q, ft, v, path, pos), None)
        elif isinstance(ft, np.dtype):
            if isinstance(v, np.ndarray) and v.ndim:
                raise EmulatorError(f"field `{q}` is a scalar but got an array", path, *pos)
            out[f] = (conv(np.asarray(v), ft)[()], None)
        else:
            raise EmulatorError(f"field `{q}` of type {ft} is not supported by the emulator", path, *pos)
    return out


def bind_vector(name: str, t: StructT, a, path: str, pos=(0, 0)):
    """A vector argument (uchar4, float2, ...) passed by value, from a dict of its components
    (x, y, z, w; kernelport.inputs gives `colors.x`, ... as a struct's fields): the VecVal a
    vector variable holds, each component converted to the vector's scalar type."""
    from .vectors import VecVal
    elem, n = vector_row(t)
    names = "xyzw"[:n]
    if not isinstance(a, dict) or sorted(a) != sorted(names):
        got = ", ".join(a) if isinstance(a, dict) else type(a).__name__
        raise EmulatorError(f"argument `{name}` is a vector of {n} {elem}: pass a dict of its components "
                            f"({', '.join(names)}), got {got}", path, *pos)
    return VecVal((conv(np.asarray(a[f]), elem)[()], None) for f in names)


def _array_field(q, ft, v, path, pos):
    elem = base_scalar(ft)
    n = scalar_count(ft)
    if not isinstance(elem, np.dtype):
        raise EmulatorError(f"field `{q}`: arrays of structs in a struct are not supported by the emulator",
                            path, *pos)
    arr = np.asarray(v, dtype=elem).reshape(-1)
    if arr.shape[0] != n:
        raise EmulatorError(f"field `{q}` holds {n} values, got {arr.shape[0]}", path, *pos)
    arr = arr.copy()
    arr.flags.writeable = False
    return Pointer(Buffer(q, arr, "const", n, False), elem, 0, np.int64(0), n, inner_dims(ft)[1:])


def node_name(node) -> str:
    """The variable at the root of `s.a.b`."""
    while isinstance(node, c_ast.StructRef):
        node = node.name
    return node.name if isinstance(node, c_ast.ID) else "?"


class FieldLV:
    """`s.a.b = ...` for a struct variable s: the field at `path` of the value in s's slot."""
    kind = "field"

    def __init__(self, slot, path, t, node):
        self.slot, self.path, self.t, self.node = slot, path, t, node


class StructCompiler:
    """FnCompiler's struct variables (a mixin)."""

    def _memory_rows(self, node, t):
        """row_scalar of a shared or file-scope variable's type; a located refusal for an array of
        structs or pointers (`__constant__ kValues ck[N]`, `__device__ float* p[4]`), which these
        memories do not hold yet."""
        got = row_scalar(t)
        if got is None:
            base = base_scalar(t)
            what = f"structs (`{base.name}`)" if isinstance(base, StructT) else "pointers" \
                if isinstance(base, PtrT) else f"`{base}`"
            raise self.err(node, f"`{node.name}` holds {what}: shared and file-scope arrays of structs "
                                 f"or pointers are not supported by the emulator yet")
        return got

    def _field_path(self, node):
        """(slot, field path, type) of a struct variable or a field of one; None when node is not
        one.  A field of a struct reached through a pointer is refused here, at its line."""
        if isinstance(node, c_ast.ID):
            ent = self.scope.lookup(node.name)
            if ent is not None and ent[0] == "local" and is_struct(ent[2]):
                self.used.add(ent[1])
                return ent[1], (), ent[2]
            return None
        if not isinstance(node, c_ast.StructRef):
            return None
        if node.type == "->":
            return None  # a pointer to structs in memory (emulator.layout)
        inner = self._field_path(node.name)
        if inner is None:
            return None
        slot, path, t = inner
        ft = t.field(node.field.name)
        if ft is None:
            raise self.err(node, f"struct {t.name or ''} has no field `{node.field.name}` (fields: "
                                 f"{', '.join(f for f, _ in t.fields)})")
        return slot, path + (node.field.name,), ft

    def _static_type(self, node):
        if isinstance(node, c_ast.ID):
            ent = self.scope.lookup(node.name)
            return ent[2] if ent is not None and ent[0] == "local" else None
        hit = self._field_path(node) if isinstance(node, c_ast.StructRef) else None
        return hit[2] if hit else None

    def struct_member(self, node):
        """Read `s.f` (`s.a.b`) of a struct variable; None when node is not one."""
        hit = self._field_path(node)
        if hit is None:
            return None
        slot, path, _ = hit
        text = ".".join((node_name(node),) + path)
        pos = self.pos(node)

        def f(fr, m):
            v = fr.env[slot]
            for k in path:
                v = v.get(k) if v is not None else None
            if v is None:
                raise EmulatorError(f"field `{text}` has no value: a field of a struct argument that was not given "
                                    "(`scalar`/`arg` with its dotted name), or of a local read before it is "
                                    "assigned", fr.g.ctx.path, *pos)
            return v
        return f

    def field_lvalue(self, node):
        hit = self._field_path(node)
        if hit is None or not hit[1]:
            return None
        if isinstance(hit[2], ArrT):
            return None  # s.arr[i] = ...: the array field's buffer (read-only for a parameter)
        return FieldLV(*hit, node)

    def field_store(self, lv, node):
        from .lanes import merge
        slot, path, t = lv.slot, lv.path, lv.t
        cv = self._converter(t)
        pos = self.pos(node)

        def put(sv, keys, val, g, m):
            k = keys[0]
            out = StructVal(sv)
            if len(keys) == 1:
                old = sv.get(k)
                out[k] = val if old is None else merge(g, old, val, m)
            else:
                out[k] = put(sv.get(k) or StructVal(), keys[1:], val, g, m)
            return out

        def st(fr, m, val):
            if isinstance(val, StructVal) != is_struct(t):
                raise EmulatorError(f"field `{'.'.join(path)}` assigned a value of another kind", fr.g.ctx.path, *pos)
            val = cv(val, fr.g)
            if isinstance(val, StructVal) and has_array_fields(t):  # `o.in = p;`: p's elements copied in
                cur = fr.env[slot]
                for k in path:
                    cur = cur.get(k) if cur is not None else None
                dst = cur if cur is not None else fresh_struct(t, ".".join(path), fr.g, pos[0])
                val = assign_struct(merge, t, dst, val, fr.g, m, fr.g.ctx.path, pos)
            fr.env[slot] = put(fr.env[slot] or StructVal(), path, val, fr.g, m)
            return val
        return st

    def struct_decl(self, node, t):
        """`S s;`, `S s = other;`, `S s = {a, b, ...};`: a struct variable in registers."""
        if has_array_fields(t):
            return self._struct_decl_arrays(node, t)
        s = self.slot()
        self.used.add(s)
        init, pres = None, []
        if isinstance(node.init, c_ast.InitList):
            init, pres = self._with_pres(node, lambda: self._struct_init(node.init, t))
        elif node.init is not None:
            init, pres = self._with_pres(node, lambda: self.ex(node.init))
        self.scope.add(node.name, ("local", s, t))
        pos = self.pos(node)
        from .layout import from_memory  # (layout builds StructVals: a module-level import is a cycle)
        if init is None:
            def plain(fr, m):
                fr.env[s] = StructVal()
        else:
            from .lanes import merge

            def plain(fr, m):
                v = from_memory(init(fr, m), fr.g, m, node, pos)
                if not isinstance(v, StructVal):
                    raise EmulatorError(f"struct variable `{node.name}` initialised from a value that is not a "
                                        "struct", fr.g.ctx.path, *pos)
                fr.env[s] = v if m is fr.g.full or fr.env[s] is None else merge(fr.g, fr.env[s], v, m)
        fn, gen = self._leaf(plain, pres)
        return fn, gen, False

    def _struct_decl_arrays(self, node, t):
        """`P p;`, `P p = q;`, `P p = f(...);` of a struct with array fields: fresh buffers of its own,
        the initialiser's elements copied in (value semantics, emulator.structs)."""
        if isinstance(node.init, c_ast.InitList):
            raise self.err(node, f"struct variable `{node.name}` has array fields: a brace initialiser of it is not "
                                 "supported by the emulator (assign its fields)")
        s = self.slot()
        self.used.add(s)
        self.local_arr = True
        init, pres = (None, [])
        if node.init is not None:
            init, pres = self._with_pres(node, lambda: self.ex(node.init))
        self.scope.add(node.name, ("local", s, t))
        pos = self.pos(node)
        name = node.name
        from .lanes import merge

        from .layout import from_memory

        def plain(fr, m):
            v = fresh_struct(t, name, fr.g, pos[0])
            if init is not None:  # (from another local, a call's result, or memory: `x128 r = s_res[i];`)
                v = assign_struct(merge, t, v, from_memory(init(fr, m), fr.g, m, node, pos), fr.g, m, fr.g.ctx.path, pos)
            fr.env[s] = v
        fn, gen = self._leaf(plain, pres)
        return fn, gen, False

    def struct_value_store(self, lv, node):
        """`p = q;` of a struct variable with array fields: q's elements copied into p's buffers;
        None for any other store."""
        if lv.kind != "local" or not is_struct(lv.t) or not has_array_fields(lv.t):
            return None
        from .lanes import merge
        slot, t, pos = lv.slot, lv.t, self.pos(node)

        from .layout import from_memory

        def st(fr, m, val):
            dst = fr.env[slot] if fr.env[slot] is not None else fresh_struct(t, "?", fr.g, pos[0])
            fr.env[slot] = assign_struct(merge, t, dst, from_memory(val, fr.g, m, node, pos), fr.g, m, fr.g.ctx.path, pos)
            return fr.env[slot]
        return st

    def by_value(self, t, node):
        """A struct parameter (by value, or a reference the lowering passes by value and copies back):
        an argument that is a struct object in memory (`f(d[i])` of a `S*` buffer, as `S s = d[i];`)
        loaded into registers; one with array fields copied into the callee's own buffers.  None for
        any other type."""
        if not is_struct(t):
            return None
        from .layout import from_memory
        from .lanes import merge
        pos = self.pos(node)

        def cv(v, g, m):
            v = from_memory(v, g, m, node, pos)
            if not has_array_fields(t):
                return v
            return assign_struct(merge, t, fresh_struct(t, "param", g, pos[0]), v, g, m, g.ctx.path, pos)
        return cv

    def e_CompoundLiteral(self, node):
        """`(T){a, b}` (the front end's C++ braced temporary `T{a, b}`: frontend/braced.py): a struct value
        built as `T x = {a, b};` builds x's (fields in order, those left out zeroed)."""
        t = self.c.tr.resolve(node.type)
        if not is_struct(t):
            raise self.err(node, "a compound literal of a type other than a struct (a vector: use make_<type>(...))")
        if has_array_fields(t):
            raise self.err(node, f"a braced temporary of struct {t.name or ''} with array fields is not supported "
                                 "by the emulator (declare a variable and assign its fields)")
        return self._struct_init(node.init, t)

    def _struct_init(self, init, t):
        """`{a, b, {c, d}}`: fields in order; fields left out are zero, as C zero-fills them."""
        if len(init.exprs) > len(t.fields):
            raise self.err(init, f"{len(init.exprs)} initialisers for the {len(t.fields)} fields of struct "
                                 f"{t.name or ''}")
        parts = []
        for k, (f, ft) in enumerate(t.fields):
            if k >= len(init.exprs) and is_struct(ft) and not has_array_fields(ft):
                parts.append((f, self._struct_init(c_ast.InitList([]), ft)))  # its own fields zeroed
            elif k >= len(init.exprs):
                if not isinstance(ft, np.dtype):
                    raise self.err(init, f"field `{f}` left out of the initialiser: the emulator zero-fills only "
                                         "scalar and struct fields")
                zero = (ft.type(0), None)
                parts.append((f, lambda fr, m, z=zero: z))
            elif isinstance(ft, StructT) and isinstance(init.exprs[k], c_ast.InitList):
                parts.append((f, self._struct_init(init.exprs[k], ft)))
            else:
                e, cv = self.ex(init.exprs[k]), self._converter(ft)
                parts.append((f, lambda fr, m, e=e, cv=cv: cv(e(fr, m), fr.g)))
        return lambda fr, m: StructVal((f, fn(fr, m)) for f, fn in parts)
