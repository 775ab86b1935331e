"""Expressions of a function body: each compiles to `f(fr, m) -> (value, error_bound)` over the
lanes of a frame (lvalues, loads and stores, operators, casts, built-in index variables)."""
from __future__ import annotations

import numpy as np
from pycparser import c_ast

from . import flips, layout
from .addressed import const_address
from .addresses import cast
from .ctype import AUTO, VOID, ArrT, PtrT, common, conv, char_literal, float_literal, int_literal
from .errors import EmulatorError
from .frontend import NS_SEP
from .lanes import merge
from .memory import Pointer
from .nulls import compare_with_int, non_pointer, null_access
from .ops import arith, bitnot, convert, fma, lnot, neg, truth
from .undefined import decide, never_written
from .vectors import VecVal, vector_operands

ZERO = (np.int32(0), None)


_INDEX_OK = (np.dtype(np.int32), np.dtype(np.int64))


def as_index(k):
    """An index/offset value: int32 and int64 stay as they are (numpy indexes with either)."""
    if k.dtype in _INDEX_OK:
        return k
    return k.astype(np.int64)


def _value(v):
    """The value of a (value, error) pair; a struct value (a dict of fields) as it is, which no
    subscript takes (`s[k]` of a class object whose operator[] was not lowered: a located error)."""
    return v if isinstance(v, dict) else v[0]


def _marker(pair):
    """A condition's flip marker (emulator.flips): the bound of a comparison's result, else None."""
    e = pair[1] if isinstance(pair, tuple) else None
    return e if e is not None and getattr(pair[0], "dtype", None) == np.bool_ and not np.iscomplexobj(e) else None


def isarr(v):
    return isinstance(v, np.ndarray) and v.ndim > 0


class LV:
    """An lvalue: load / store / address."""
    kind = "?"


class LocalLV(LV):
    kind = "local"

    def __init__(self, slot, t):
        self.slot, self.t = slot, t


class MemLV(LV):
    kind = "mem"

    def __init__(self, ptr_fn, t):
        self.ptr_fn, self.t = ptr_fn, t


# concept keys of builtin index variables -> accessor on a group
INDEX_3D = {"thread_idx": "tid", "block_idx": "bid", "block_dim": "bdim", "grid_dim": "gdim"}


class ExpressionCompiler:
    """FnCompiler's expressions (a mixin: the scope, slots and hoisting state are FnCompiler's)."""

    def ex(self, node):
        meth = getattr(self, "e_" + type(node).__name__, None)
        if meth is None:
            raise self.err(node, f"unsupported expression {type(node).__name__}")
        return meth(node)

    def e_Constant(self, node):
        t = node.type
        if t == "string":
            raise self.err(node, "string literals are not supported in device code by the emulator")
        if t == "char":
            v = (char_literal(node.value), None)
        elif t in ("float", "double", "long double"):
            v = (float_literal(node.value), None)
        else:
            v = (int_literal(node.value), None)
        return lambda fr, m: v

    def e_ID(self, node):
        name = node.name
        ent = self.scope.lookup(name)
        if ent is not None:
            kind = ent[0]
            if kind == "local":
                s = ent[1]
                self.used.add(s)

                t = ent[2]

                def f(fr, m):
                    v = fr.env[s]
                    if v is None or (isinstance(v, VecVal) and any(c is None for c in v)):  # a partial vector
                        return never_written(v, t, fr.g, name, node)
                    return v
                return f
            if kind in ("shared", "dyn"):
                lv = self.lvalue(node)
                if isinstance(ent[2], ArrT):
                    pf = lv.ptr_fn
                    return lambda fr, m: (pf(fr, m), None)
                return self._load_lv(lv, node)
            if kind == "builtin":
                return self._builtin_value(ent[1], ent[2], node)
        if name in self.c.enums:
            v = (np.int32(self.c.enums[name]), None)
            return lambda fr, m: v
        if name in self.c.globals:
            d, t = self.c.globals[name]
            lv = self.lvalue(node)
            if isinstance(t, ArrT):
                pf = lv.ptr_fn
                return lambda fr, m: (pf(fr, m), None)
            if "const" in (d.quals or []) and d.init is not None:
                try:
                    cv = self.c.const_eval(d.init)
                    v = (conv(np.asarray(cv), t)[()] if isinstance(t, np.dtype) else cv, None)
                    return lambda fr, m: v
                except EmulatorError:
                    pass
            return self._load_lv(lv, node)
        b = self._lookup_builtin_name(name)
        if b is not None:
            return self._builtin_value(*b, node)
        if NS_SEP in name:
            raise self.err(node, f"unknown name `{name.replace(NS_SEP, '::')}`")
        raise self.err(node, f"unknown name `{name}`")

    def _lookup_builtin_name(self, name):
        hit = self.c.spelled_by(name)
        if hit is not None and hit[0].kind == "index":
            return hit[0].key, None
        for comp, suf in enumerate(("_x", "_y", "_z")):
            if name.endswith(suf):
                hit = self.c.spelled_by(name[:-2])
                if hit is not None and hit[0].kind == "index":
                    return hit[0].key, comp
        return None

    def _builtin_value(self, key, comp, node):
        if key in INDEX_3D:
            attr = INDEX_3D[key]
            if comp is None:  # the whole uint3 (Metal passes it to helpers): a vector value
                return lambda fr, m: VecVal((c, None) for c in getattr(fr.g, attr))
            return lambda fr, m: (getattr(fr.g, attr)[comp], None)
        if key == "warp_size":
            wave_type = self.c.warp_size_dtype.type
            return lambda fr, m: (wave_type(fr.g.W), None)
        if key == "lane_id":
            return lambda fr, m: (fr.g.lane_u32, None)
        if key == "warp_id":
            return lambda fr, m: (fr.g.warp_u32, None)
        if key == "global_idx":
            if comp is None:
                raise self.err(node, "use of the whole built-in vector (take .x/.y/.z)")
            return lambda fr, m: (fr.g.bid[comp] * fr.g.bdim[comp] + fr.g.tid[comp], None)
        if key == "linear_tid":
            return lambda fr, m: (fr.g.ltid_u32, None)
        raise self.err(node, f"unsupported built-in {key}")

    def e_StructRef(self, node):
        field = self.struct_member(node)
        if field is not None:
            return field
        if isinstance(node.name, c_ast.ID) and node.type == ".":
            nm = node.name.name
            ent = self.scope.lookup(nm)
            field = node.field.name
            comp = "xyz".find(field)
            if ent is not None and ent[0] == "builtin":
                if comp < 0:
                    raise self.err(node, f"unknown component .{field}")
                return self._builtin_value(ent[1], comp, node)
            if ent is None:
                b = self._lookup_builtin_name(nm)
                if b is not None and comp >= 0:
                    return self._builtin_value(b[0], comp, node)
        member = self.vector_member(node)
        if member is not None:
            return member
        fp = self._field_ptr(node)

        def f(fr, m):
            p, scalar = fp(fr, m)
            if not scalar:  # an array, vector or struct field of a struct in memory: its address
                return p, None
            return fr.g.ctx.mem.load(fr.g, p, m, node, fr.g.ctx.track)
        return f

    def _vector_field_ptr(self, node):
        """The scalar field `p[i].f = ...` stores to (a vector's component or a struct's field)."""
        return layout.scalar_field(self._field_ptr(node), node.field.name, self.pos(node))

    def _field_ptr(self, node):
        """A field in memory: (its pointer, whether it is a scalar to load).  A field of a vector
        type (v[i].y, p->x): a pointer to float2 is one to rows of 2 scalars (dims (2,)); v[i] is
        the row, .y its scalar 1.  A field of a struct in memory (a pointer carrying its StructT:
        emulator.layout) is at its offset."""
        fi = "xyzw".find(node.field.name)
        vector = fi >= 0 and len(node.field.name) == 1
        base = self.ex(node.name)
        arrow = node.type == "->"

        def pf(fr, m):
            p = _value(base(fr, m))
            if isinstance(p, Pointer) and p.st is not None:
                return layout.member(p, node.field.name, arrow, fr.g.ctx.path, self.pos(node))
            if not vector:
                if not isinstance(p, Pointer) and (e := null_access(fr.g, p, m, f"member {node.type}", self.pos(node))):
                    raise e
                raise EmulatorError("struct members are not supported by the emulator here (built-in .x/.y/.z, "
                                    ".x/.y/.z/.w of vector types in memory, fields of struct variables, of struct "
                                    "arguments and of arrays of structs in memory)", fr.g.ctx.path, *self.pos(node))
            if not isinstance(p, Pointer) or (len(p.dims) != 1 if arrow else p.dims):
                raise EmulatorError(f"member .{node.field.name} of a value held in registers: vector and struct "
                                    "variables are not supported by the emulator yet (read v[i].x from memory)",
                                    fr.g.ctx.path, *self.pos(node))
            row = p.index(0) if arrow else p
            if fi >= (p.dims[0] if arrow else 4):
                raise EmulatorError(f"no member .{node.field.name}", fr.g.ctx.path, *self.pos(node))
            return row.add(fi), True
        return pf

    def _load_lv(self, lv, node):
        if lv.kind == "component":
            s, i = lv.slot, lv.index
            return lambda fr, m: fr.env[s][i]
        if lv.kind == "field":
            return self.struct_member(lv.node)
        if lv.kind == "local":
            s = lv.slot
            return lambda fr, m: fr.env[s]
        pf = lv.ptr_fn

        def f(fr, m):
            p = pf(fr, m)
            return fr.g.ctx.mem.load(fr.g, p, m, node, fr.g.ctx.track)
        return f

    def e_ArrayRef(self, node):
        base = self.ex(node.name)
        idx = self.ex(node.subscript)

        def f(fr, m):
            p = _value(base(fr, m))
            if not isinstance(p, Pointer):
                raise non_pointer(fr.g, p, m, "subscript", self.pos(node))
            k = as_index(idx(fr, m)[0])
            if p.dims:  # a row of a multi-dimensional array: decays to a pointer
                return p.index(k), None
            return fr.g.ctx.mem.load(fr.g, p.add(k), m, node, fr.g.ctx.track)
        return f

    def e_Assignment(self, node):
        lv = self.lvalue(node.lvalue)
        rhs = self.ex(node.rvalue)
        st = self._store(lv, node)
        if node.op == "=":
            return lambda fr, m: st(fr, m, rhs(fr, m))
        op = node.op[:-1]
        cur = self._load_lv(lv, node)
        binop = self._binop_fn(op, node)
        fused = self._accumulated(node)  # `x += a*b`: one fma, as nvcc contracts it
        compound = self.user_compound(node, lv, cur, rhs, self._store(lv, node), binop, fused)
        if compound is not None:  # the file's `operator op=` on a vector variable
            return compound

        def combine(fr, m, old):
            return binop(old, rhs(fr, m), fr.g) if fused is None else fused(fr, m, old)
        if lv.kind == "mem":
            # evaluate the address once: load and store through the same pointer
            pf = lv.ptr_fn

            def f(fr, m):
                p = pf(fr, m)
                g = fr.g
                old = g.ctx.mem.load(g, p, m, node, g.ctx.track)
                new = combine(fr, m, old)
                if new[0].dtype != p.dt:
                    new = convert(new, p.dt, g.ctx.track)
                g.ctx.mem.store(g, p, new, m, node, g.ctx.track)
                return new
            return f
        return lambda fr, m: st(fr, m, combine(fr, m, cur(fr, m)))

    def _binop_fn(self, op, node):
        def f(a, b, g):
            va, vb = a[0], b[0]
            self._whole_vectors(op, (va, vb), g, node)
            if isinstance(va, Pointer) or isinstance(vb, Pointer):
                return self._ptr_arith(op, a, b, g, node)
            return arith(op, a, b, g.ctx.track)
        return f

    def _ptr_arith(self, op, a, b, g, node):
        va, vb = a[0], b[0]
        if isinstance(va, Pointer) and isinstance(vb, Pointer):
            if op == "-":
                return (np.int64(0) + (va.off - vb.off)) // max(va.stride, 1), None
            if op in ("==", "!=", "<", ">", "<=", ">="):
                return arith(op, (np.asarray(va.off), None), (np.asarray(vb.off), None), False)
        if isinstance(va, Pointer) and op in ("+", "-"):
            k = as_index(vb)
            return va.add(k if op == "+" else -k.astype(np.int64)), None
        if isinstance(vb, Pointer) and op == "+":
            return vb.add(as_index(va)), None
        if op in ("==", "!="):  # comparison with a null pointer: per lane (emulator.nulls)
            got = compare_with_int(op, va if isinstance(va, Pointer) else vb, vb if isinstance(va, Pointer) else va)
            return (np.bool_(op == "!="), None) if got is None else got
        raise EmulatorError(f"unsupported pointer operation `{op}`", g.ctx.path, *self.pos(node))

    def e_BinaryOp(self, node):
        op = node.op
        if op in ("&&", "||"):
            return self._logical(node)
        if op in ("+", "-") and self.c_contract() and isinstance(node.left, c_ast.BinaryOp) and node.left.op == "*":
            return self._contracted(node.left.left, node.left.right, node.right, node, op == "-")
        if op in ("+", "-") and self.c_contract() and isinstance(node.right, c_ast.BinaryOp) and node.right.op == "*":
            return self._contracted(node.right.left, node.right.right, node.left, node, False, True, op == "-")
        lf, rf = self.ex(node.left), self.ex(node.right)
        binop = self._binop_fn(op, node)
        user = self.user_operator(op, node)  # the file's `operator op` on vector values

        def f(fr, m):
            a, b = lf(fr, m), rf(fr, m)
            if user is not None and (isinstance(a, VecVal) or isinstance(b, VecVal)):
                return user(fr, m, (a, b))
            if isinstance(a, VecVal) or isinstance(b, VecVal):
                raise EmulatorError(f"operator {op} on a vector value is not supported by the emulator (take "
                                    ".x/.y/.z/.w)", fr.g.ctx.path, *self.pos(node))
            return binop(a, b, fr.g)
        return f

    def c_contract(self):
        return True

    def _logical(self, node):
        lf = self.ex(node.left)
        rf, rp = self._branch(node.right)
        is_and = node.op == "&&"

        if rp:
            def evaluate(fr, m):
                la = lf(fr, m)
                a = truth(decide(la[0], m, fr.g, node, "which operand runs"))
                if not isarr(a):
                    if bool(a) != is_and:
                        return np.bool_(not is_and), _marker(la)
                    for p in rp:
                        yield from p(fr, m)
                    rb = rf(fr, m)
                    return truth(rb[0]), flips.either(_marker(la), _marker(rb))
                sub = (m & a) if is_and else (m & ~a)
                if not sub.any():
                    return a, _marker(la)
                for p in rp:
                    yield from p(fr, sub)
                rb = rf(fr, sub)
                b = truth(rb[0])
                return ((a & b) if is_and else (a | b)), flips.either(_marker(la), flips.within(_marker(rb), sub))
            return self._hoist_conditional(evaluate)

        def f(fr, m):
            la = lf(fr, m)
            a = truth(decide(la[0], m, fr.g, node, "which operand runs"))
            if not isarr(a):
                if bool(a) != is_and:
                    return np.bool_(not is_and), _marker(la)
                rb = rf(fr, m)
                return truth(rb[0]), flips.either(_marker(la), _marker(rb))
            sub = (m & a) if is_and else (m & ~a)
            if not sub.any():
                return a, _marker(la)
            rb = rf(fr, sub)
            b = truth(rb[0])
            return ((a & b) if is_and else (a | b)), flips.either(_marker(la), flips.within(_marker(rb), sub))
        return f

    def _branch(self, node):
        """Compile a conditionally evaluated operand with its own hoisted calls."""
        if self.pres is None:
            return self.ex(node), ()
        f, pres = self._with_pres(node, lambda: self.ex(node))
        return f, tuple(pres)

    def _hoist_conditional(self, evaluate):
        """A ?: / && / || whose operands synchronise runs as a hoisted step of its own, so each
        operand's calls run only for the lanes that evaluate it."""
        self.yields = True
        k = self.ntmp
        self.ntmp += 1

        def pre(fr, m):
            fr.tmp[k] = yield from evaluate(fr, m)

        self.pres.append(pre)
        return lambda fr, m: fr.tmp[k]

    def e_TernaryOp(self, node):
        cf = self.ex(node.cond)
        effects = flips.has_effects(node.iftrue, node.iffalse)
        # `a > b ? a : b`: a flip picks the other of two values within their bounds of each other, and the larger
        # (smaller) of two is within the larger of their bounds of the exact one: no taint (emulator.flips)
        minmax = flips.selects_compared(node) and not effects
        tf, tp = self._branch(node.iftrue)
        ff, fp = self._branch(node.iffalse)

        def select(fr, m, c, a, b, t):
            if isinstance(a, VecVal) or isinstance(b, VecVal):
                return merge(fr.g, *vector_operands(b, a, m & ~t, t, fr.g, node, self.pos), t)
            va, vb = a[0], b[0]
            if isinstance(va, Pointer) or isinstance(vb, Pointer):
                return merge(fr.g, b, a, t)
            dt = common(va.dtype, vb.dtype)
            v = np.where(c, conv(va, dt), conv(vb, dt))
            if a[1] is None and b[1] is None:
                return v, None
            if minmax:
                return v, np.maximum(0.0 if a[1] is None else a[1], 0.0 if b[1] is None else b[1])
            return v, np.where(c, 0.0 if a[1] is None else a[1], 0.0 if b[1] is None else b[1])

        if tp or fp:
            def evaluate(fr, m):
                cv = cf(fr, m)
                c = truth(decide(cv[0], m, fr.g, node, "which operand of ?: runs"))
                if _marker(cv) is not None and not minmax:
                    flips.decided(fr.g, node.cond, cv, m, "which operand of ?: runs", effects)
                if not isarr(c):
                    for p in (tp if c else fp):
                        yield from p(fr, m)
                    return tf(fr, m) if c else ff(fr, m)
                t, fm = m & c, m & ~c
                a = b = None
                if t.any():
                    for p in tp:
                        yield from p(fr, t)
                    a = tf(fr, t)
                if fm.any():
                    for p in fp:
                        yield from p(fr, fm)
                    b = ff(fr, fm)
                if a is None or b is None:
                    return a if b is None else b
                return select(fr, m, c, a, b, t)
            return self._hoist_conditional(evaluate)

        def f(fr, m):
            cv = cf(fr, m)
            c = truth(decide(cv[0], m, fr.g, node, "which operand of ?: runs"))
            if _marker(cv) is not None and not minmax:
                flips.decided(fr.g, node.cond, cv, m, "which operand of ?: runs", effects)
            if not isarr(c):
                return tf(fr, m) if c else ff(fr, m)
            t = m & c
            fm = m & ~c
            if not fm.any():
                return tf(fr, m)
            if not t.any():
                return ff(fr, m)
            return select(fr, m, c, tf(fr, t), ff(fr, fm), t)
        return f

    def _element_address(self, node):
        base, idx = self.ex(node.name), self.ex(node.subscript)

        def pf(fr, m):
            p = _value(base(fr, m))
            if not isinstance(p, Pointer):
                raise non_pointer(fr.g, p, m, "subscript", self.pos(node))
            return p.add(as_index(idx(fr, m)[0]))
        return pf

    def e_UnaryOp(self, node):
        op = node.op
        if op == "sizeof":
            v = (np.uint64(self.c.sizeof_node(node.expr, self.scope)), None)
            return lambda fr, m: v
        if op in ("++", "--", "p++", "p--"):
            lv = self.lvalue(node.expr)
            st = self._store(lv, node)
            one = (np.int32(1), None)
            aop = "+" if "+" in op else "-"
            post = op.startswith("p")
            binop = self._binop_fn(aop, node)
            if lv.kind == "mem":
                pf = lv.ptr_fn

                def f(fr, m):
                    p = pf(fr, m)
                    g = fr.g
                    old = g.ctx.mem.load(g, p, m, node, g.ctx.track)
                    new = convert(binop(old, one, g), p.dt, g.ctx.track)
                    g.ctx.mem.store(g, p, new, m, node, g.ctx.track)
                    return old if post else new
                return f
            cur = self._load_lv(lv, node)

            def f(fr, m):
                old = cur(fr, m)
                if old is None:
                    raise EmulatorError("increment of an unassigned variable", fr.g.ctx.path, *self.pos(node))
                new = st(fr, m, binop(old, one, fr.g))
                return old if post else new
            return f
        if op == "&":
            lv = self.lvalue(node.expr)
            if lv.kind == "local" and (read_only := const_address(self, node)) is not None:
                return read_only
            if lv.kind in ("local", "field", "component"):  # (`&v.z` of a vector variable: a component of a register)
                raise self.err(node, "taking the address of a local variable is not supported by the emulator")
            pf = lv.ptr_fn
            if isinstance(node.expr, c_ast.ArrayRef):  # `&a[i]` is `a + i`: into rows it points at a row
                pf = self._element_address(node.expr)  # (`__ldcs(&v4[i])` of a float4*: a float4*)
            return lambda fr, m: (layout.as_pointer(pf(fr, m)), None)
        if op == "*":
            lv = self.lvalue(node)
            pf = lv.ptr_fn

            def f(fr, m):
                p = pf(fr, m)
                if p.dims:  # *p is p[0]: a row of a multi-dimensional array (or of a vector buffer)
                    return p.index(0), None
                return fr.g.ctx.mem.load(fr.g, p, m, node, fr.g.ctx.track)
            return f
        a = self.ex(node.expr)
        if op == "-":
            return lambda fr, m: neg(a(fr, m))
        if op == "+":
            return lambda fr, m: (lambda v: (conv(v[0], common(v[0].dtype, v[0].dtype)), v[1]))(a(fr, m))
        if op == "~":
            return lambda fr, m: bitnot(a(fr, m))
        if op == "!":
            return lambda fr, m: lnot(a(fr, m))
        raise self.err(node, f"unsupported operator {op}")

    def e_Cast(self, node):
        t = self.c.tr.resolve(node.to_type)
        a = self.ex(node.expr)
        if t is AUTO or t is VOID:
            return a
        if isinstance(t, (np.dtype, PtrT)):  # scalar and pointer casts, pointer <-> integer too
            return cast(a, t, self.pos(node))
        raise self.err(node, "unsupported cast")

    def e_ExprList(self, node):
        fs = [self.ex(e) for e in node.exprs]

        def f(fr, m):
            r = ZERO
            for x in fs:
                r = x(fr, m)
            return r
        return f

    def e_Typename(self, node):
        raise self.err(node, "a type where a value is expected")

    def e_InitList(self, node):
        raise self.err(node, "brace initialiser in an expression")
