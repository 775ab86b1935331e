"""Compaction of sparsely taken branches: a branch taken by few lanes of a group runs on a
`SubGroup` of those lanes, and the variables and control masks it changed are scattered back."""
from __future__ import annotations

import numpy as np

from .ctype import conv
from .errors import EmulatorError
from .lanes import Frame, SubGroup
from .memory import Pointer
from .selection import find_rows, put, take
from .structs import StructVal
from .undefined import Undef, mark, marks
from .vectors import VecVal

COMPACT_FRACTION = 0.5  # run a branch on its lanes only when at most this fraction of lanes take it
_NO_LANES = np.zeros(0, np.int64)


def _gather_val(val, idx):
    if val is None:
        return None
    if isinstance(val, VecVal):  # a vector or struct in registers: component by component
        return VecVal(_gather_val(c, idx) for c in val)
    if isinstance(val, StructVal):
        return StructVal({k: _gather_val(c, idx) for k, c in val.items()})
    v, e = val
    if isinstance(v, Pointer):
        v = Pointer(v.buf, v.dt, take(v.base, idx), take(v.off, idx), v.size, v.dims, v.st)
    else:
        v = take(v, idx)
    return v, take(e, idx)


def _gather_mask(x, idx):
    return None if x is None else take(x, idx)


def _scatter_mask(old, new, idx, n):
    out = np.zeros(n, bool) if old is None else old.copy()
    put(out, idx, new)
    return out


def _spread(x, idx, n, dt, old=None):
    """An array over the parent's n lanes: `old` (or zeros) with x at lanes idx."""
    out = np.zeros(n, dt)
    if old is not None:
        out[...] = old
    put(out, idx, x)
    return out


def _scatter_val(g, old, new, idx, n, unset=True):
    """The parent value of a variable the compacted branch assigned (what merge() would give)."""
    if new is None:
        return None
    if isinstance(new, VecVal):
        olds = old if isinstance(old, VecVal) and len(old) == len(new) else [None] * len(new)
        return VecVal(_scatter_val(g, o, c, idx, n) for o, c in zip(olds, new))
    if isinstance(new, StructVal):
        out = StructVal(old if isinstance(old, StructVal) else {})
        for k, c in new.items():
            out[k] = _scatter_val(g, out.get(k), c, idx, n)
        return out
    vn, en = new
    vo, eo = (None, None) if old is None else old
    if isinstance(vn, Pointer):
        if isinstance(vo, Pointer) and (vo.buf is not vn.buf or vo.dt != vn.dt):
            rest = g.valid.copy()
            put(rest, idx, False)
            if not rest.any():  # every other lane is no thread: nothing to keep
                vo = None
        if isinstance(vo, Pointer) and (vo.buf is not vn.buf or vo.dt != vn.dt):
            raise EmulatorError("a pointer assigned under divergent control flow points into different buffers "
                                "(not supported by the emulator)", g.ctx.path)
        po = vo if isinstance(vo, Pointer) else None
        off = _spread(vn.off, idx, n, np.int64, None if po is None else po.off)
        if isinstance(vn.base, int) and (po is None or (isinstance(po.base, int) and po.base == vn.base)):
            base = vn.base
        else:
            base = _spread(vn.base, idx, n, np.int64, None if po is None else po.base)
        return Pointer(vn.buf, vn.dt, base, off, vn.size, vn.dims, vn.st), None
    dt = vn.dtype
    if isinstance(vo, Pointer):
        vo = None
    v = _spread(vn, idx, n, dt, None if vo is None else conv(vo, dt))
    if (old is None and unset) or type(vn) is Undef or type(vo) is Undef:  # (values never written: undefined.py)
        u = _spread(marks(vn, np.shape(vn)), idx, n, bool, np.ones(n, bool) if old is None else marks(vo, (n,)))
        v = mark(v, u if g.valid is None else u & g.valid)
    if en is None and eo is None:
        return v, None
    edt = np.result_type(*[x for x in (en, eo) if x is not None])
    if edt.kind not in "fc":  # (complex: two packed floats' bounds, emulator.bitbounds)
        edt = np.dtype(np.float64)
    e = _spread(0.0 if en is None else en, idx, n, edt, 0.0 if eo is None else eo)
    return v, e


def compaction(g, t, W, by_warp):
    """The lanes to run a branch on when few lanes take it: an index array, or selection.Rows
    where they are the same threads of each block (None: run on the whole group; an empty array:
    no lane takes it)."""
    n = t.shape[0]
    if n < 256:
        return None if t.any() else _NO_LANES
    if by_warp:
        if n % W:
            return None
        wact = t.reshape(-1, W).any(axis=1)
        nw = int(np.count_nonzero(wact))
        if nw == 0:
            return _NO_LANES
        if nw * W > n * COMPACT_FRACTION:
            return None
        return (np.flatnonzero(wact)[:, None] * W + np.arange(W, dtype=np.int64)).reshape(-1)
    k = int(np.count_nonzero(t))
    if k == 0:
        return _NO_LANES
    if k > n * COMPACT_FRACTION:
        return None
    r = find_rows(t, k, g.rows)
    return np.flatnonzero(t) if r is None else r


def run_compacted(br, fr, t, idx, slots, all_taken, definite=frozenset()):
    """Run the (non-yielding) statement br on the lanes idx of fr's group, then scatter back the
    variables (slots: those the statement references) and control state it changed.  definite: slots of
    locals assigned on every path before a read (emulator.definite), whose other lanes are not marked."""
    g = fr.g
    n = g.n
    sg = SubGroup(g, idx)
    sub = Frame(sg, len(fr.env))
    env, senv = fr.env, sub.env
    gathered = []
    for s in slots:
        v = _gather_val(env[s], idx)
        senv[s] = v
        gathered.append(v)
    sub.ret, sub.brk, sub.cont = (_gather_mask(x, idx) for x in (fr.ret, fr.brk, fr.cont))
    r0, b0, c0 = sub.ret, sub.brk, sub.cont
    rv0 = sub.retval = _gather_val(fr.retval, idx)
    if all_taken:  # idx is exactly the lanes of t
        ms = sg.full
    else:
        mt = take(t, idx)
        ms = sg.full if mt.all() else mt
    if br[1]:
        for _ in br[0](sub, ms):
            raise EmulatorError("internal: a compacted branch yielded", g.ctx.path)
    else:
        br[0](sub, ms)
    for s, a in zip(slots, gathered):
        b = senv[s]
        if a is not b:
            env[s] = _scatter_val(g, env[s], b, idx, n, s not in definite)
    if sub.ret is not r0:
        fr.ret = _scatter_mask(fr.ret, sub.ret, idx, n)
    if sub.brk is not b0:
        fr.brk = None if sub.brk is None else _scatter_mask(fr.brk, sub.brk, idx, n)
    if sub.cont is not c0:
        fr.cont = None if sub.cont is None else _scatter_mask(fr.cont, sub.cont, idx, n)
    if sub.retval is not rv0:
        fr.retval = _scatter_val(g, fr.retval, sub.retval, idx, n)
