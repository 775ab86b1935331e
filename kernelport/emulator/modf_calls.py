"""C's `modf(x, iptr)` / `modff` and MSL's `modf(x, intval)`: the fractional part returned, the integral
part written through the second argument (a pointer in C, a `thread` reference in MSL).

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
    """FnCompiler's modf (a mixin)."""

    def modf_call(self, name, args, node, dt):
        if len(args) != 2:
            raise self.err(node, f"{name} takes (x, integral part), not {len(args)} arguments")
        out = args[1]
        local = isinstance(out, c_ast.UnaryOp) and out.op == "&" and isinstance(out.expr, c_ast.ID) and \
            (ent := self.scope.lookup(out.expr.name)) is not None and ent[0] == "local" and not hasattr(ent, "array")
        reference = isinstance(out, c_ast.ID) and (ent := self.scope.lookup(out.name)) is not None and \
            ent[0] == "local" and isinstance(ent[2], np.dtype)  # MSL's `modf(x, i)` of a float local `i`
        st = self._store(self.lvalue(out.expr if local else out), node) if local or reference else None
        xf, pf = self.ex(args[0]), (None if st is not None else self.ex(out))

        def f(fr, m):
            g = fr.g
            frac, whole = parts(xf(fr, m), dt, g.ctx.track)
            if st is not None:
                st(fr, m, whole)
                return frac
            p = pf(fr, m)[0]
            if not isinstance(p, Pointer):
                raise EmulatorError(f"{name}'s integral part is written through neither a pointer nor a variable",
                                    g.ctx.path, *self.pos(node))
            g.ctx.mem.store(g, p, whole if p.dt == whole[0].dtype else (whole[0].astype(p.dt), whole[1]), m, node,
                            g.ctx.track)
            return frac
        return f
