"""Where an assignment writes (a mixin of FnCompiler): the lvalue of an expression (a local, shared,
dynamic shared or file-scope variable, an element `p[k]`, `*p`, a field) and the store into it, with
what a store converts or copies on the way (a vector, a struct object loaded whole, a row of a
vector buffer copied into another's)."""
from __future__ import annotations

from pycparser import c_ast

from . import layout, undefined
from .ctype import ArrT, base_scalar, inner_dims
from .errors import EmulatorError
from .expressions import LV, LocalLV, MemLV, _value, as_index
from .nulls import non_pointer
from .lanes import merge
from .memory import Pointer
from .ops import convert
from .structs import StructVal
from .vectors import VecVal, vector_value


class StoreCompiler:
    def lvalue(self, node) -> LV:
        if isinstance(node, c_ast.ID):
            ent = self.scope.lookup(node.name)
            if ent is not None:
                if ent[0] == "local":
                    self.used.add(ent[1])
                    return LocalLV(ent[1], ent[2])
                if ent[0] == "shared":
                    key, t = ent[1], ent[2]
                    elem, row = self._memory_rows(node, t)  # __shared__ uint2 s[N]: rows of 2 scalars
                    dims = (inner_dims(t)[1:] if isinstance(t, ArrT) else ()) + row
                    return MemLV(lambda fr, m: fr.g.shared_ptr(key, elem, dims), t)
                if ent[0] == "dyn":
                    t = ent[2]
                    elem = base_scalar(t)
                    dims = inner_dims(t)[1:] if isinstance(t, ArrT) else ()
                    return MemLV(lambda fr, m: fr.g.dynamic_ptr(elem, dims), t)
            if node.name in self.c.globals:
                d, t = self.c.globals[node.name]
                name = node.name
                if isinstance(t, ArrT) and layout.in_memory(base_scalar(t)):  # `__constant__ kValues ck[N]`
                    st = base_scalar(t)
                    return MemLV(lambda fr, m: fr.g.ctx.global_structs(name, st), t)
                elem, row = self._memory_rows(node, t)  # __constant__ float3 c[N]: rows of 3 scalars
                dims = (inner_dims(t)[1:] if isinstance(t, ArrT) else ()) + row
                return MemLV(lambda fr, m: fr.g.ctx.global_ptr(name, elem, dims), t)
            raise self.err(node, f"`{node.name}` is not assignable")
        if isinstance(node, c_ast.ArrayRef):
            base = self.ex(node.name)
            idx = self.ex(node.subscript)
            row_key = ("row", id(node))

            def pf(fr, m):
                p = _value(base(fr, m))
                if not isinstance(p, Pointer):
                    raise non_pointer(fr.g, p, m, "subscript", self.pos(node))
                k = as_index(idx(fr, m)[0])
                # `s[i]` of a pointer to rows (a uint2 buffer): its row length, for a store of a whole row
                fr.tmp[row_key] = p.dims[0] if len(p.dims) == 1 and p.st is None else 0
                return p.index(k) if p.dims else p.add(k)
            lv = MemLV(pf, None)
            lv.row_key = row_key
            return lv
        if isinstance(node, c_ast.UnaryOp) and node.op == "*":
            pe = self.ex(node.expr)

            def pf(fr, m):
                p = pe(fr, m)[0]
                if not isinstance(p, Pointer):
                    raise non_pointer(fr.g, p, m, "dereference", self.pos(node))
                return p
            return MemLV(pf, None)
        if isinstance(node, c_ast.Cast):
            return self.lvalue(node.expr)
        if isinstance(node, c_ast.StructRef):
            return self.component_lvalue(node) or self.field_lvalue(node) or MemLV(self._vector_field_ptr(node), None)
        raise self.err(node, f"unsupported assignment target {type(node).__name__}")

    def _store(self, lv, node):
        """Returns store(fr, m, val) -> stored value."""
        if lv.kind == "field":
            return self.field_store(lv, node)
        by_value = self.struct_value_store(lv, node)
        if by_value is not None:
            return by_value
        if lv.kind == "local":
            s = lv.slot
            cv = self._converter(lv.t) if lv.t is not None else (lambda v, g: v)

            first = (lambda g, fr, s, val, m: val) if s in self.definite_slots else undefined.assigned

            def st(fr, m, val):
                val = cv(val, fr.g)
                fr.env[s] = merge(fr.g, fr.env[s], val, m) if fr.env[s] is not None else first(fr.g, fr, s, val, m)
                return val
            return st
        if lv.kind == "component":
            return self.component_store(lv)
        pf, row_key = lv.ptr_fn, getattr(lv, "row_key", None)

        def st(fr, m, val):
            p = pf(fr, m)
            g = fr.g
            v = val
            if isinstance(v, VecVal):
                return self.vector_store(p, v, m, g, node)
            if p.st is not None:  # `*dst = *src;`: the struct object src points at, loaded whole
                v = layout.from_memory(v, fr.g, m, node, self.pos(node))
            if isinstance(v, StructVal) and p.st is not None:
                return layout.store_struct(g, p, v, m, node, g.ctx.path, self.pos(node), convert)
            if isinstance(v, StructVal) or p.st is not None:
                raise EmulatorError("a struct stored through a pointer that is not a pointer to that struct"
                                    if isinstance(v, StructVal) else "a value that is not a struct stored through "
                                    "a pointer to structs", g.ctx.path, *self.pos(node))
            if isinstance(v[0], Pointer) and not v[0].dims and fr.tmp.get(row_key):  # `s[i] = v[j];` of vectors
                return self.vector_store(p, vector_value(v, p.dt, fr.tmp[row_key], g, m, node, self.pos), m, g, node)
            if isinstance(v[0], Pointer):
                raise EmulatorError("storing a pointer into memory is not supported by the emulator",
                                    g.ctx.path, *self.pos(node))
            if v[0].dtype != p.dt:
                v = convert(v, p.dt, g.ctx.track)
            g.ctx.mem.store(g, p, v, m, node, g.ctx.track)
            return v
        return st
