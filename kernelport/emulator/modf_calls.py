"""Calls that write results through arguments.  C's `frexp(x, exp)` (the exponent written as an int).
C's `modf(x, iptr)` / `modff` and MSL's `modf(x, intval)`:
the fractional part returned, the integral part written through the second argument (a pointer in C, a
`thread` reference in MSL).  C's `sincosf(x, sptr, cptr)` (CUDA's float `sincos`, its fast `__sincosf`)
and MSL's `sincos(x, cosval)`: sin(x) and cos(x) written through the pointers, or the sine returned and the
cosine written to the reference.

Both parts are exact in IEEE arithmetic: the integral part is trunc(x) and x - trunc(x) is
representable, so each keeps x's sign (C11 7.12.6.12; OpenCL C's modf "behaves as though
implemented by" `*iptr = trunc(x); return copysign(isinf(x) ? 0 : x - *iptr, x)`).  A bound on x passes
to the fractional part unchanged; the integral part's is trunc's (intrinsics.math1).
"""
from __future__ import annotations

import numpy as np
from pycparser import c_ast

from . import intrinsics as K
from .ctype import conv
from .errors import EmulatorError
from .memory import Pointer


def parts(x, dt, track: bool):
    """((fraction, bound), (integral, bound)) of the value x = (array, bound) in float type dt."""
    v, e = x
    t = dt if dt != K.OVERLOADED else K.overload_type([x])
    xv = conv(v, t)
    whole = K.math1("trunc", (xv, e), track, t)
    with np.errstate(all="ignore"):
        frac = np.copysign(np.where(np.isinf(xv), t.type(0), xv - whole[0]), xv).astype(t)
    return (frac, e if track else None), whole


class ModfCalls:
    """FnCompiler's modf and sincos (a mixin)."""

    def _out_writer(self, name, out, node):
        """A function (fr, m, value) that writes value where `out` says: `&local`, MSL's reference to a float
        local, or a pointer's target."""
        local = isinstance(out, c_ast.UnaryOp) and out.op == "&" and isinstance(out.expr, c_ast.ID) and \
            (ent := self.scope.lookup(out.expr.name)) is not None and ent[0] == "local" and not hasattr(ent, "array")
        reference = isinstance(out, c_ast.ID) and (ent := self.scope.lookup(out.name)) is not None and \
            ent[0] == "local" and isinstance(ent[2], np.dtype)  # MSL's `modf(x, i)` of a float local `i`
        if local or reference:
            return self._store(self.lvalue(out.expr if local else out), node)
        pf = self.ex(out)

        def write(fr, m, value):
            g = fr.g
            p = pf(fr, m)[0]
            if not isinstance(p, Pointer):
                raise EmulatorError(f"{name} writes through neither a pointer nor a variable", g.ctx.path,
                                    *self.pos(node))
            g.ctx.mem.store(g, p, value if p.dt == value[0].dtype else (value[0].astype(p.dt), value[1]), m, node,
                            g.ctx.track)
        return write

    def modf_call(self, name, args, node, dt):
        if len(args) != 2:
            raise self.err(node, f"{name} takes (x, integral part), not {len(args)} arguments")
        write, xf = self._out_writer(name, args[1], node), self.ex(args[0])

        def f(fr, m):
            frac, whole = parts(xf(fr, m), dt, fr.g.ctx.track)
            write(fr, m, whole)
            return frac
        return f

    def frexp_call(self, name, args, node, dt):
        """C's frexp(x, exp): x = mantissa * 2**exp with |mantissa| in [0.5, 1) (exact); the exponent written
        as an int, the mantissa returned (a bound on x scaled as the mantissa is)."""
        if len(args) != 2:
            raise self.err(node, f"{name} takes (x, exponent), not {len(args)} arguments")
        write, xf = self._out_writer(name, args[1], node), self.ex(args[0])

        def f(fr, m):
            v, e = xf(fr, m)
            t = dt if dt != K.OVERLOADED else K.overload_type([(v, e)])
            mant, exp = np.frexp(conv(v, t))
            write(fr, m, (exp.astype(np.int32), None))
            return mant.astype(t), (None if e is None or not fr.g.ctx.track else e * np.ldexp(1.0, -exp))
        return f

    def sincos_call(self, name, args, node, dt, fast: bool):
        if len(args) not in (2, 3):
            raise self.err(node, f"{name} takes (x, sine, cosine) or MSL's (x, cosine), not {len(args)} arguments")
        writes, xf = [self._out_writer(name, a, node) for a in args[1:]], self.ex(args[0])

        def f(fr, m):
            x, track = xf(fr, m), fr.g.ctx.track
            t = dt if dt != K.OVERLOADED else K.overload_type([x])
            s, c = (K.math1(fn, x, track, t, fast) for fn in ("sin", "cos"))
            if len(writes) == 1:  # MSL: the sine returned
                writes[0](fr, m, c)
                return s
            writes[0](fr, m, s)
            writes[1](fr, m, c)
            return None, None
        return f
