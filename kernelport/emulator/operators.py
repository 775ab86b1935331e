"""A file's own operators on whole vector values (frontend/operators.py renames each free
`V operator+(V a, V b)` to `__kp_operator_add`): where `+` (`*`, `+=`, ...) meets a VecVal, the
definition whose parameters take the operands (vector or scalar, component count, then component
type) runs, as C++ chooses it; `a += b` calls `operator+=`, whose first (reference) parameter's final
value is stored back into `a`.  Without a definition, a backend whose vector types have the operator
built in (its `vector_operators`: a HIP or Metal port, whose text the translator left without the CUDA
file's definitions) computes it component by component; otherwise it stays a located refusal."""
from __future__ import annotations

import numpy as np
from pycparser import c_ast

from .ctype import common, vector_row
from .errors import EmulatorError
from .expressions import ZERO
from .frontend.operators import operator_function
from .lanes import Frame
from .memory import Pointer
from .ops import arith, convert, fma, neg
from .vectors import VecVal, vector_value


class OperatorCompiler:
    """FnCompiler's operators that meet whole vector values, and a*b + c contracted (a mixin)."""

    def _whole_vectors(self, op, values, g, node) -> None:
        """A located refusal of an operator on whole vector values (a project's `float4` operators)."""
        if any(isinstance(v, tuple) for v in values):  # (a VecVal, or the components a load gives)
            raise EmulatorError(f"`{op}` on whole vector values (a vector type's operators): the emulator "
                                "computes vectors component by component (.x, .y, ...) only", g.ctx.path, *self.pos(node))

    def _contracted(self, xa, xb, xc, node, neg_c, c_first=False, neg_ab=False):
        """a*b + c contracted into one fused multiply-add when all are floats (nvcc's default, which also
        fuses a*b - c (neg_c) and c - a*b (neg_ab): fma(a, b, -c), fma(-a, b, c)); on vector values, the
        file's operator* then operator+ or - (c_first: c + a*b, in that order)."""
        fa, fb, fc = self.ex(xa), self.ex(xb), self.ex(xc)
        sub = neg_c or neg_ab
        user = self.user_contracted(node, sub, c_first)

        def f(fr, m):
            a, b, c = fa(fr, m), fb(fr, m), fc(fr, m)
            va, vb, vc = a[0], b[0], c[0]
            g = fr.g
            if user is not None and any(isinstance(v, VecVal) for v in (a, b, c)):
                return user(fr, m, a, b, c)
            self._whole_vectors("-" if sub else "+", (va, vb, vc), g, node)
            if isinstance(va, Pointer) or isinstance(vb, Pointer) or isinstance(vc, Pointer):
                p = arith("*", a, b, g.ctx.track)
                return self._binop_fn("-" if sub else "+", node)(*((c, p) if c_first else (p, c)), g)
            t = common(common(va.dtype, vb.dtype), vc.dtype)
            if t.kind == "f" and g.ctx.contract:
                return fma(neg(a) if neg_ab else a, b, neg(c) if neg_c else c, g.ctx.track, t, True)
            p = arith("*", a, b, g.ctx.track)
            return arith("-" if sub else "+", *((c, p) if c_first else (p, c)), g.ctx.track)
        return f

    def _accumulated(self, node):
        """`x += a*b` / `x -= a*b` as nvcc contracts it, one fused multiply-add of x's value when all are
        floats: f(fr, m, old) -> the new value; None where the right side is no product (or no contraction)."""
        r = node.rvalue
        if node.op not in ("+=", "-=") or not self.c_contract() or \
                not (isinstance(r, c_ast.BinaryOp) and r.op == "*"):
            return None
        fa, fb = self.ex(r.left), self.ex(r.right)
        sub = node.op == "-="
        mul, acc = self._binop_fn("*", node), self._binop_fn(node.op[:-1], node)

        def f(fr, m, old):
            a, b = fa(fr, m), fb(fr, m)
            g = fr.g
            vals = (a[0], b[0], old[0])
            if g.ctx.contract and all(isinstance(v, (np.generic, np.ndarray)) for v in vals):
                t = common(common(vals[0].dtype, vals[1].dtype), vals[2].dtype)
                if t.kind == "f":
                    return fma(neg(a) if sub else a, b, old, g.ctx.track, t, True)
            return acc(old, mul(a, b, g), g)
        return f

    def user_operator(self, op: str, node):
        """`call(fr, m, operands)` of the file's definitions of `operator op` (the chosen one's result,
        and for a compound assignment its first parameter's final value), or None where it has none."""
        name = operator_function(op)
        low = self.c.low
        names = [name] if name in low.functions else list(low.overloads.get(name, ())) if name else []
        if not names:
            return self._builtin_operator(op, node)
        # compiled at the first call (an operator's own body uses the operator on scalars)
        cands: list = []
        convs: dict[str, list] = {}
        chosen: dict[tuple, object] = {}

        def candidates(g):
            if not cands:
                for cf in map(self.c.function, names):
                    if len(cf.params) == 2:
                        cands.append(cf)
                        convs[cf.name] = [self._param_converter(t, node) for _, t, _ in cf.params]
                if not cands:
                    raise EmulatorError(f"no definition of operator{op} takes two operands", g.ctx.path,
                                        *self.pos(node))
            return cands

        def shape(v):  # (components, type); a row `in[i]` of a vector buffer: (-1, its element type)
            return (len(v), v[0][0].dtype) if isinstance(v, VecVal) else (-1, v[0].dt) \
                if isinstance(v[0], Pointer) else (0, None)

        def score(cf, shapes):
            total = 0
            for (_, t, _), (n, dt) in zip(cf.params, shapes):
                row = vector_row(t)
                if (row is not None) != (n != 0) or (row is not None and n > 0 and row[1] != n):
                    return -1
                total += row is not None and row[0] == dt
            return total

        def call(fr, m, vals):
            shapes = tuple(map(shape, vals))
            cf = chosen.get(shapes)
            if cf is None:
                scored = [(score(c, shapes), k) for k, c in enumerate(candidates(fr.g))]
                top = max(s for s, _ in scored)
                if top < 0:
                    raise EmulatorError(f"no definition of operator{op} takes these operands", fr.g.ctx.path,
                                        *self.pos(node))
                cf = chosen[shapes] = cands[next(k for s, k in scored if s == top)]
                if cf.yields or cf.warp_ops:  # (its warp's lanes would not be kept together)
                    raise EmulatorError(f"operator{op} of the file synchronises or uses warp operations: not "
                                        "supported by the emulator", fr.g.ctx.path, *self.pos(node))
            g = fr.g
            callee = Frame(g, cf.nslots)
            for (_, _, s), v, cv in zip(cf.params, vals, convs[cf.name]):
                callee.env[s] = cv(v, g, m)
            for _ in cf.body(callee, m):
                raise EmulatorError("internal: a non-synchronising function yielded", g.ctx.path)
            if op.endswith("=") and op not in ("==", "!=", "<=", ">="):
                return callee.env[cf.params[0][2]]
            return callee.retval if callee.retval is not None else ZERO
        return call

    def _builtin_operator(self, op: str, node):
        """A target whose vector types have the operator built in (the backend's `vector_operators`:
        HIP's HIP_vector_type, Metal's vectors; a port's text without the CUDA file's definitions): component
        by component in the vector's element type (a scalar operand converted to it first), else None."""
        bop = op[:-1] if op.endswith("=") and op not in ("==", "!=", "<=", ">=") else op
        if bop not in self.c.be.vector_operators:
            return None

        def call(fr, m, vals):
            g = fr.g
            vecs = [v for v in vals if isinstance(v, VecVal)]
            n, dt = len(vecs[0]), vecs[0][0][0].dtype
            if any(len(v) != n for v in vecs):
                raise EmulatorError(f"`{op}` on vectors of {len(vecs[0])} and {len(vecs[1])} components",
                                    g.ctx.path, *self.pos(node))
            # a row `in[i]` of a vector buffer: its n components
            comps = [list(v) if isinstance(v, VecVal) else list(vector_value(v, v[0].dt, n, g, m, node, self.pos))
                     if isinstance(v[0], Pointer) else [v] * n for v in vals]
            one = [convert(c, dt, g.ctx.track) if c[0].dtype != dt else c for c in comps[1]]
            return VecVal(convert(r, dt, g.ctx.track) if r[0].dtype != dt else r
                          for r in (arith(bop, x if x[0].dtype == dt else convert(x, dt, g.ctx.track), y,
                                          g.ctx.track) for x, y in zip(comps[0], one)))
        return call

    def user_compound(self, node, lv, cur, rhs, st, binop, fused=None):
        """`v op= x` for a vector variable v through the file's `operator op=`, None where it has none;
        on a scalar, as without one (fused: `x += a*b` contracted, _accumulated, as the original's is)."""
        user = self.user_operator(node.op, node)
        if user is None or lv.kind == "mem":
            return None

        def compound(fr, m):
            old = cur(fr, m)
            if isinstance(old, VecVal):
                return st(fr, m, user(fr, m, (old, rhs(fr, m))))
            if fused is not None and not isinstance(old[0], Pointer):
                return st(fr, m, fused(fr, m, old))
            return st(fr, m, binop(old, rhs(fr, m), fr.g))
        return compound

    def user_contracted(self, node, neg_c, c_first):
        """`a*b + c` (c_first: `c + a*b`) on vector values: the file's operator* then operator+ (never
        fused: each is a call), None where the file defines either not."""
        mul, add = self.user_operator("*", node), self.user_operator("-" if neg_c else "+", node)
        if mul is None or add is None:
            return None

        def f(fr, m, a, b, c):
            p = mul(fr, m, (a, b)) if isinstance(a, VecVal) or isinstance(b, VecVal) else \
                arith("*", a, b, fr.g.ctx.track)
            return add(fr, m, (c, p) if c_first else (p, c))
        return f
