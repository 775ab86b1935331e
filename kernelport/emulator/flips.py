"""Comparisons that may go the other way: `if (x > t)` where |x - t| is within the operands' error bounds.

The emulator's x is within its bound of the exact value, and so is a GPU's; where |x - t| <= ea + eb the exact
comparison, or a correct port's, may take the other side, and what depends on it is no rounding away from the
emulator's: compared with the normal bound a right port could fail, a wrong one pass.  Such a comparison's
result carries a marker as its bound: NaN on the lanes where it may flip, 0 elsewhere (None where none may).
The marker follows `!`, `&&`, `||` and conversions (an integer with a NaN bound is unknown, bitbounds.py).

Where a marked lane decides a branch, a loop, a `?:` or a switch, the lane is tainted for the rest of the run
(`Group.flipped`, kept on the root group through compacted `SubGroup`s): each value it stores (global, shared
or local memory, atomics included) is unknown (a float's bound NaN, an integer marked as a value never written,
emulator.undefined), and a warp collective with a tainted lane taints its warp.  A store the lane would have
made on the side it did not take cannot be marked: where a construct decided so holds a store through memory,
a call or a jump (`return`, `break`, `continue`) the run's outputs are all unknown (`RunCtx.flip_all`).  The
comparison's position is recorded (RunCtx.bounds_lost, RunCtx.unjudged): verify's row is a skip that says so.
"""
from __future__ import annotations

import numpy as np
from pycparser import c_ast

_NAN = float("nan")
WHY = "a comparison within its operands' error bounds decides {what} in {n} lane(s): a GPU may go the other way"


def straddle(x, ea, y, eb):
    """The marker of a float comparison of x (bound ea) and y (bound eb): NaN where |x - y| < ea + eb, or where a
    bound is unknown; None where no lane may flip."""
    b = eb if ea is None else ea if eb is None else ea + eb
    d = np.subtract(x, y)  # (in their common type, as the bounds are kept; a run is under errstate(all="ignore"))
    d = np.abs(d, out=d) if isinstance(d, np.ndarray) else np.abs(d)
    apart = np.greater_equal(d, b)  # (|x - y| >= b; a bound unknown, NaN, compares false: may flip)
    if apart.all():
        return None
    return np.where(apart, 0.0, _NAN)


def compared(x, ea, y, eb):
    """The marker of a comparison of x and y (flips.straddle); of integers (holding a float's bits or a marked
    comparison's result) only where a bound is unknown (NaN)."""
    if np.iscomplexobj(ea) or np.iscomplexobj(eb):
        return None
    if x.dtype.kind == "f":  # (x and y of one type: ops.arith converted them)
        return straddle(x, ea, y, eb)
    nan = np.isnan(0.0 if ea is None else ea) | np.isnan(0.0 if eb is None else eb)
    return np.where(nan, _NAN, 0.0) if np.any(nan) else None


def either(a, b):
    """The marker of a value computed from two marked ones (`&&`, `||`)."""
    if a is None or not np.isnan(a).any():
        return b if b is None or np.isnan(b).any() else None
    if b is None or not np.isnan(b).any():
        return a
    return np.where(np.isnan(a) | np.isnan(b), _NAN, 0.0)


def within(e, m):
    """The marker e on the lanes of mask m only (an operand `&&` or `||` evaluated there)."""
    if e is None or not np.ndim(m):
        return e
    return np.where(m, e, 0.0)


def lanes(e, m):
    """The lanes of mask m on which the marker e says the condition may flip, or None."""
    if e is None or np.iscomplexobj(e):
        return None
    nan = np.isnan(e)
    if not nan.any():
        return None
    f = np.broadcast_to(nan, np.shape(m)) & m if np.ndim(m) else np.asarray(nan)
    if not np.ndim(f):
        f = np.broadcast_to(f, np.shape(m)) & m if np.ndim(m) else f
    return f if np.any(f) else None


def decided(g, node, pair, m, what: str, effects: bool = False):
    """Where the condition (value, marker) `pair` may flip on lanes of m: those lanes tainted, the site recorded;
    effects: the construct it decides holds a store, a call or a jump a lane may have skipped (all outputs
    unknown)."""
    f = lanes(pair[1], m if np.ndim(m) else np.ones(g.n, bool))
    if f is None:
        return
    if not np.ndim(f):
        f = np.ones(g.n, bool)
    ctx = g.ctx
    line, col = ctx.pos(node)
    site = f"{ctx.path}:{line}:{col}"
    text = f"{site}: " + WHY.format(what=what, n=int(np.count_nonzero(f)))
    if not any(k.startswith(site + ":") for k in ctx.bounds_lost):
        ctx.bounds_lost.append(text)
        ctx.unjudged.append(text)
    if effects and ctx.flip_all is None:
        ctx.flip_all = text
    taint(g, f)


def taint(g, f):
    """Lanes f (of group g) tainted for the rest of the run, on the root group's lanes."""
    while getattr(g, "parent", None) is not None:
        up = np.zeros(g.parent.n, bool)
        up[_index(g.idx)[f]] = True
        g, f = g.parent, up
    cur = getattr(g, "flipped", None)
    g.flipped = f.copy() if cur is None else cur | f
    g.ctx.flip_any = True


def _index(idx):
    """A SubGroup's lanes as an index array (a selection.Rows holds them as runs)."""
    return idx if isinstance(idx, np.ndarray) else idx.idx


def tainted(g):
    """g's tainted lanes (an array over g's lanes), or None."""
    if getattr(g, "parent", None) is not None:
        up = tainted(g.parent)
        return None if up is None else np.asarray(up)[_index(g.idx)]
    return getattr(g, "flipped", None)


def stored(g, v, e, m, dt, track: bool):
    """A store's (value, bound) with the lanes of m that are tainted made unknown."""
    t = tainted(g)
    if t is None:
        return v, e
    sel = t & m if np.ndim(m) else t
    if not sel.any():
        return v, e
    if dt.kind == "f" or dt.names is not None:
        if not track:
            return v, e
        base = np.zeros(g.n) if e is None else np.broadcast_to(np.asarray(e, np.float64), (g.n,)) \
            if not np.iscomplexobj(e) else e
        if np.iscomplexobj(base):
            return v, np.where(sel, complex(_NAN, _NAN), base)
        return v, np.where(sel, _NAN, base)
    from .undefined import mark, marks
    vv = v if np.ndim(v) else np.full(g.n, v)
    return mark(vv, sel | marks(vv, (g.n,))), e


def collective(g, args, m, W):
    """A warp collective over lanes m of which some are tainted, or whose operand may flip: its warps tainted."""
    t = tainted(g)
    hit = None if t is None else t & m if np.ndim(m) else t
    for v, e in args.values():
        if getattr(v, "dtype", None) is not None and v.dtype == np.bool_:
            f = lanes(e, m if np.ndim(m) else np.ones(g.n, bool))
            if f is not None:
                hit = f if hit is None else hit | f
    if hit is None or not np.any(hit) or g.n % W:
        return
    taint(g, np.repeat(np.asarray(hit).reshape(-1, W).any(axis=1), W))


class Marks(dict):
    """RunResult.undefined of a run in which a comparison within its bounds decided a lane's stores: a marked
    element may hold the value of the side the lane took (unknown), not a value never written, so a port's run
    marked there is not judged (compare.compare), where the original's is defined.  Without it a right port
    whose run's bound straddled a threshold the original's did not failed as `stored from a value never written`."""
    unknown = True


def unknown_outputs(outputs, bounds, und):
    """Every output element unknown (RunCtx.flip_all): a float's bound NaN, an integer's element marked as a
    value never written (a struct's: both)."""
    for name, a in outputs.items():
        if bounds is not None and name in bounds and a.dtype.kind == "f":
            bounds[name] = np.full(np.shape(bounds[name]), _NAN)
        else:
            n = a.shape[0] if a.ndim else 1
            und[name] = np.ones(n, bool)


def selects_compared(node) -> bool:
    """Whether a `?:` selects one of the two values its condition orders (`a > b ? a : b`, `x < m ? m : x`)."""
    from pycparser import c_generator
    c = node.cond
    if not (isinstance(c, c_ast.BinaryOp) and c.op in ("<", ">", "<=", ">=")):
        return False
    text = c_generator.CGenerator().visit
    return sorted((text(c.left), text(c.right))) == sorted((text(node.iftrue), text(node.iffalse)))


class _Effects(c_ast.NodeVisitor):
    def __init__(self):
        self.found = False

    def visit_Assignment(self, n):
        if not isinstance(n.lvalue, c_ast.ID):
            self.found = True
        self.generic_visit(n)

    def visit_UnaryOp(self, n):
        if n.op in ("++", "--", "p++", "p--") and not isinstance(n.expr, c_ast.ID):
            self.found = True
        self.generic_visit(n)

    def visit_FuncCall(self, n):
        if not _pure(n):
            self.found = True
        self.generic_visit(n)

    def visit_Return(self, n):
        self.found = True

    def visit_Break(self, n):
        self.found = True

    def visit_Continue(self, n):
        self.found = True

    def visit_Goto(self, n):
        self.found = True


_PURE = frozenset(("min", "max", "fmin", "fmax", "abs", "fabs", "fdividef", "frcp_rn", "fsqrt_rn", "saturatef",
                   "fmul_rn", "fadd_rn", "fsub_rn", "fdiv_rn", "fma", "fmaf", "hypot", "atan2", "pow", "fmod", "copysign",
                   "isnan", "isinf", "isfinite", "signbit", "erf", "erfc", "lgamma", "tgamma"))


def _pure(call) -> bool:
    """A call of a math function or a conversion intrinsic (no store, no exit)."""
    from .intrinsics import _MATH
    name = call.name.name if isinstance(call.name, c_ast.ID) else ""
    base = name.split("::")[-1].lstrip("_")
    if base.startswith(("float2", "half2", "int2", "uint2", "double2", "bfloat162", "ll2", "ull2")):
        return True
    if base in _MATH or base in _PURE:
        return True
    return base.endswith("f") and (base[:-1] in _MATH or base[:-1] in _PURE)


def has_effects(*nodes) -> bool:
    """Whether any of the statements stores through memory, calls a function or jumps (a store or an exit a lane
    that did not run it would have skipped, which its taint cannot mark)."""
    v = _Effects()
    for n in nodes:
        if n is not None:
            v.visit(n)
    return v.found
