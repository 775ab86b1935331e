"""Vector values held in registers (float2, uint3, int4, ...; Metal's uint3 built-ins passed to a
helper): a VecVal is one (value, error) pair per component x, y, z, w.  Memory keeps a vector
as a row of scalars (ctype.vector_row), so a variable loads its row from `v[i]` and stores it
back component by component."""
from __future__ import annotations

from pycparser import c_ast

from . import undefined
from .ctype import F16, F32, vector_row
from .errors import EmulatorError
from .memory import Pointer
from .frontend.lowered import VECTOR_CTOR
from .ops import convert

# cuda_fp16.h's half2 operations, component by component, each rounded to half as the hardware
# does: name -> (intrinsics.c_library kind, what, result type) or a constructor
HALF2_OPS = {"__hadd2": ("op", "+"), "__hsub2": ("op", "-"), "__hmul2": ("op", "*"), "__h2div": ("op", "/"),
             "__hfma2": ("fma", None), "__hmax2": ("minmax", "max"), "__hmin2": ("minmax", "min")}
# name -> (components of the result taken from which argument's which component; None: the
# argument itself, a scalar), result type
HALF2_MOVES = {"__halves2half2": (((0, None), (1, None)), F16), "__floats2half2_rn": (((0, None), (1, None)), F16),
               "__float2half2_rn": (((0, None), (0, None)), F16), "__half2half2": (((0, None), (0, None)), F16),
               "__half22float2": (((0, 0), (0, 1)), F32), "__low2half": (((0, 0),), F16),
               "__high2half": (((0, 1),), F16), "__low2float": (((0, 0),), F32), "__high2float": (((0, 1),), F32),
               "__lowhigh2highlow": (((0, 1), (0, 0)), F16)}

FIELDS = "xyzw"


class VecVal(tuple):
    """A vector value: a tuple of per-component (value, error) pairs."""


def vector_value(val, dt, n, g, m, node, pos):
    """`val` (a VecVal, or the row `v[i]` of a vector buffer) as a VecVal of n components of
    type dt: the value a vector variable of that type holds after `T x = val;`."""
    if isinstance(val, VecVal):
        if len(val) != n:
            raise EmulatorError(f"a {len(val)}-component vector assigned to one of {n}", g.ctx.path, *pos(node))
        comps = val
    elif isinstance(val[0], Pointer) and not val[0].dims:
        row = val[0]
        comps = [g.ctx.mem.load(g, row.add(i), m, node, g.ctx.track) for i in range(n)]
    else:
        raise EmulatorError("a scalar assigned to a vector variable (the emulator takes a vector, v[i] of a "
                            "vector buffer, or make_<type>(...))", g.ctx.path, *pos(node))
    return VecVal(c if c[0].dtype == dt else convert(c, dt, g.ctx.track) for c in comps)


def vector_operands(b, a, mb, ma, g, node, pos):
    """`c ? a : b` where one operand is a vector value: both as VecVals, a row of a vector buffer (`*p`,
    `v[i]`) loaded in the lanes that chose it (mb, ma), as the other's type and size."""
    ref = a if isinstance(a, VecVal) else b
    dt, n = ref[0][0].dtype, len(ref)
    return tuple(x if isinstance(x, VecVal) else vector_value(x, dt, n, g, lanes, node, pos)
                 for x, lanes in ((b, mb), (a, ma)))


def merge_vectors(merge, g, old, new, m):
    """Per-component merge of a vector assigned to the lanes of mask m."""
    return VecVal(merge(g, o, n, m) for o, n in zip(old, new))


class ComponentLV:
    """`p.y = ...` for a vector variable p: component 1 of the value in p's slot."""
    kind = "component"

    def __init__(self, slot, index, dt, n):
        self.slot, self.index, self.dt, self.n = slot, index, dt, n


class VectorCompiler:
    """FnCompiler's vector variables (a mixin)."""

    def _vector_local(self, name):
        """(slot, scalar dtype, n) of a vector variable `name` in scope, else None."""
        ent = self.scope.lookup(name)
        if ent is None or ent[0] != "local":
            return None
        row = vector_row(ent[2])
        return None if row is None else (ent[1], row[0], row[1])

    def _component(self, node):
        """(slot, component index, dtype, n) of `p.x` for a vector variable p, else None."""
        if node.type != "." or not isinstance(node.name, c_ast.ID):
            return None
        local = self._vector_local(node.name.name)
        if local is None:
            return None
        slot, dt, n = local
        fi = FIELDS.find(node.field.name)
        if len(node.field.name) != 1 or not 0 <= fi < n:
            raise self.err(node, f"no member .{node.field.name} in a {n}-component vector")
        self.used.add(slot)
        return slot, fi, dt, n

    def vector_member(self, node):
        """Read `p.x` of a vector variable; None when node is not one."""
        hit = self._component(node)
        if hit is None:
            return None
        slot, fi, dt, _ = hit

        def f(fr, m):
            v = fr.env[slot]
            if v is None or v[fi] is None:  # (never assigned: a value never written, emulator.undefined)
                return (undefined.fresh(dt, fr.g.n), None)
            return v[fi]
        return f

    def component_lvalue(self, node):
        hit = self._component(node)
        return None if hit is None else ComponentLV(*hit)

    def component_store(self, lv):
        from .lanes import merge
        s, i, dt, n = lv.slot, lv.index, lv.dt, lv.n

        def st(fr, m, val):
            if isinstance(val, VecVal) or isinstance(val[0], Pointer):
                raise EmulatorError("a vector or pointer assigned to a vector component", fr.g.ctx.path)
            if val[0].dtype != dt:
                val = convert(val, dt, fr.g.ctx.track)
            # components assigned one by one (`int2 t; t.x = ...; t.y = ...;`): the others stay
            # unset (None) until assigned, and reading one is an error
            cur = fr.env[s] if fr.env[s] is not None else VecVal([None] * n)
            if cur[i] is None:  # (its first assignment: the lanes it leaves are never written)
                val = undefined.assigned(fr.g, fr, s, val, m)
            fr.env[s] = VecVal(merge(fr.g, c, val, m) if k == i else c for k, c in enumerate(cur))
            return val
        return st

    def vector_decl(self, node, t):
        """`float2 p = v[i];`, `uint3 q = tid;`, `float4 r;`: a vector variable in registers."""
        dt, n = vector_row(t)
        s = self.slot()
        self.used.add(s)
        init, pres = None, []
        if node.init is not None:
            if isinstance(node.init, c_ast.InitList):
                raise self.err(node, "brace initialiser of a vector variable (use make_<type>(...))")
            init, pres = self._with_pres(node, lambda: self.ex(node.init))
        self.scope.add(node.name, ("local", s, t))
        if "const" in (node.quals or []):
            self.const_slots.add(s)
        pos = self.pos
        if init is None:
            def plain(fr, m):
                fr.env[s] = None
                fr.tmp[("declared", s)] = m  # (emulator.undefined)
        else:
            from .lanes import merge

            def plain(fr, m):
                v = vector_value(init(fr, m), dt, n, fr.g, m, node, pos)
                fr.env[s] = v if m is fr.g.full or fr.env[s] is None else merge(fr.g, fr.env[s], v, m)
        fn, gen = self._leaf(plain, pres)
        return fn, gen, False

    def vector_store(self, p, val, m, g, node):
        """`v[i] = p;`: a vector value stored as the row of scalars at p (`*q = p;` through a pointer to
        vectors, q's dims (n,): its first row, never every n-th scalar)."""
        if p.dims:
            p = p.index(0)
        for i, c in enumerate(val):
            if c is None:  # a component never assigned (emulator.undefined)
                c = (undefined.fresh(p.dt, g.n), None)
            if c[0].dtype != p.dt:
                c = convert(c, p.dt, g.ctx.track)
            g.ctx.mem.store(g, p.add(i), c, m, node, g.ctx.track)
        return val

    def half2_call(self, name, args, node):
        """A cuda_fp16.h half2 operation or conversion; None when `name` is none."""
        from . import intrinsics as K
        if name not in HALF2_OPS and name not in HALF2_MOVES:
            return None
        fns = [self.ex(a) for a in args]
        pos = self.pos

        def vec(v, fr):
            if not isinstance(v, VecVal) or len(v) != 2:
                raise EmulatorError(f"{name}: a half2 argument expected", fr.g.ctx.path, *pos(node))
            return v

        if name in HALF2_OPS:
            kind, what = HALF2_OPS[name]

            def op(fr, m):
                vs = [vec(fn(fr, m), fr) for fn in fns]
                return VecVal(K.c_library(kind, what, F16, [v[i] for v in vs], fr.g.ctx.track) for i in range(2))
            return op
        picks, dt = HALF2_MOVES[name]

        def move(fr, m):
            vals = [fn(fr, m) for fn in fns]
            out = []
            for a, c in picks:
                x = vals[a] if c is None else vec(vals[a], fr)[c]
                if isinstance(x, VecVal):
                    raise EmulatorError(f"{name}: a scalar argument expected", fr.g.ctx.path, *pos(node))
                out.append(x if x[0].dtype == dt else convert(x, dt, fr.g.ctx.track))
            return out[0] if len(out) == 1 else VecVal(out)
        return move

    def make_vector(self, name, args, node):
        """make_float2(a, b) (CUDA, HIP), float2(a, b) and float2(s) (Metal, C++: one scalar fills
        every component): a vector value of that type; None when `name` constructs no vector type."""
        ctor = name.startswith(VECTOR_CTOR)
        tn = name[len(VECTOR_CTOR):] if ctor else name[len("make_"):] if name.startswith("make_") else name
        t = self.c.tr.named(tn) if tn in self.c.tr.typedefs else None
        row = vector_row(t) if t is not None else None
        single = row is not None and ctor and len(args) == 1
        zeros = 0  # CUDA's `float4(a, b)`: an aggregate, the members left out 0 (C++20), where Metal/HIP broadcast one
        if row is not None and ctor and self.c.be.vector_casts_are_aggregates and 0 < len(args) < row[1]:
            zeros, args = row[1] - len(args), args + [c_ast.Constant("int", "0")] * (row[1] - len(args))
        elif single:
            args = args * row[1]
        if row is None or len(args) != row[1]:
            return None
        dt = row[0]
        fns = [self.ex(a) for a in args]

        def f(fr, m):
            out = []
            for k, fn in enumerate(fns):
                c = fn(fr, m)
                if (single or zeros == row[1] - 1 and k == 0) and (isinstance(c, VecVal) or isinstance(c[0], Pointer)
                                                                    and not c[0].dims):
                    # Metal's `float4(v)` of a vector (or the row v[i] of a vector buffer): a copy, converted
                    return vector_value(c, dt, row[1], fr.g, m, node, self.pos)
                if isinstance(c, VecVal) or isinstance(c[0], Pointer):
                    raise EmulatorError(f"{name}: arguments must be scalars", fr.g.ctx.path, *self.pos(node))
                out.append(c if c[0].dtype == dt else convert(c, dt, fr.g.ctx.track))
            return VecVal(out)
        return f
