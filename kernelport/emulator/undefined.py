"""Values never written: a local read on a path that never assigned it, an element of a local
array or of a struct's array field (llm.c's `x128 packed_dlogits`) no store reached.

C gives such a read an indeterminate value and a GPU gives whatever its register held, so the
emulator must not pretend to know it (it holds 0, a GPU held 4.7e-05).  An `Undef` array marks
its lanes (`undef`); numpy's arithmetic on it marks the result's lanes from its operands'
(`__array_ufunc__`), a merge (`np.where`) picks the marks with the values.  Memory keeps a mark
per element (`Buffer.undef`): a store of a marked lane marks the element, a defined store clears
it, a load of a marked element gives a marked value.  An element of an output stored from a
marked value is left out of every comparison and counted at the store's position
(RunResult.undefined, .undefined_at); a marked value that decides a branch, a loop or an address
stops the run with a located error ("not run"): what follows it is no GPU's behaviour.

Shared memory has its own rule (emulator.errors.UninitRead: a read no thread wrote is a race
finding), so its arrays start defined, as before.  An unmarked array never pays for this: values
become `Undef` only where one of these sources is read.
"""
from __future__ import annotations

import numpy as np

from .errors import EmulatorError

NOTE = "element(s) stored from values never written: not compared"


class Undef(np.ndarray):
    """Lane values of which those marked in `undef` (a bool array of the same shape) were never written."""

    undef: np.ndarray | None = None

    def __array_finalize__(self, obj):
        u = getattr(obj, "undef", None)
        if u is None or u.shape == self.shape:
            self.undef = u
        else:  # (another shape: which element came from which is not known here, so all are marked)
            self.undef = np.full(self.shape, bool(u.any()))

    def __getitem__(self, k):
        return mark(np.ndarray.__getitem__(self.view(np.ndarray), k), self.undef[k])

    def __setitem__(self, k, v):
        np.ndarray.__setitem__(self.view(np.ndarray), k, plain(v))
        u = self.undef if self.undef.flags.writeable else self.undef.copy()
        u[k] = marks(v, np.shape(v)) if isinstance(v, Undef) else False
        self.undef = u

    def take(self, idx, *args, **kw):
        return mark(plain(self).take(idx, *args, **kw), self.undef.take(idx, *args, **kw))

    def reshape(self, *shape, **kw):
        return mark(plain(self).reshape(*shape, **kw), self.undef.reshape(*shape, **kw))

    def __array_ufunc__(self, ufunc, method, *inputs, **kw):
        us = [x.undef for x in inputs if isinstance(x, Undef)]
        out = kw.get("out")
        if out is not None:
            kw["out"] = tuple(plain(o) for o in out)
        r = getattr(ufunc, method)(*(plain(x) for x in inputs), **kw)
        if method == "at":  # (in place on an unmarked array: nothing to return)
            return r
        if method == "__call__":
            u = us[0]
            for x in us[1:]:
                u = u | x
        elif method == "reduce" and len(inputs) == 1:
            u = np.logical_or.reduce(us[0], axis=kw.get("axis", 0), keepdims=kw.get("keepdims", False))
        else:
            u = np.bool_(any(x.any() for x in us))
        if out is not None:  # (in place: the marks of the output follow)
            for o in out:
                if isinstance(o, Undef):
                    o.undef = np.array(np.broadcast_to(u, o.shape))
            return out[0] if len(out) == 1 else out
        if isinstance(r, tuple):
            return tuple(mark(x, u) for x in r)
        return mark(r, u)

    def __array_function__(self, func, types, args, kwargs):
        if func is np.where and len(args) == 3 and not kwargs:
            c, a, b = args
            pc = plain(c)
            r = np.where(pc, plain(a), plain(b))
            u = np.where(pc, _own(a), _own(b))
            return mark(r, u | c.undef if isinstance(c, Undef) else u)
        if func in (np.stack, np.concatenate, np.column_stack):
            seq = args[0]
            r = func([plain(x) for x in seq], *args[1:], **kwargs)
            u = func([marks(x, np.shape(x)) for x in seq], *args[1:], **kwargs)
            return mark(r, u)
        if func is np.take and isinstance(args[0], Undef):
            return args[0].take(*args[1:], **kwargs)
        if func is np.repeat and isinstance(args[0], Undef):
            return mark(np.repeat(plain(args[0]), *args[1:], **kwargs), np.repeat(args[0].undef, *args[1:], **kwargs))
        if func is np.broadcast_to:
            return mark(np.broadcast_to(plain(args[0]), *args[1:], **kwargs),
                        np.broadcast_to(args[0].undef, *args[1:], **kwargs))
        return super().__array_function__(func, types, args, kwargs)


def plain(x):
    """x without marks (the values a run computed for them)."""
    return x.view(np.ndarray) if isinstance(x, Undef) else x


def _own(x):
    """x's marks, or False (unmarked)."""
    return x.undef if isinstance(x, Undef) else False


def marks(x, shape):
    """x's marks broadcast to `shape` (all False for an unmarked value)."""
    if isinstance(x, Undef):
        return np.broadcast_to(x.undef, shape)
    return np.zeros(shape, bool)


def mark(v, u):
    """v marked where u is: an Undef, or v itself where nothing is marked."""
    u = np.asarray(u, dtype=bool)
    if not u.any():
        return v
    a = np.asarray(v)
    r = a.view(Undef)
    r.undef = np.array(np.broadcast_to(u, a.shape)) if u.shape != a.shape else u
    return r


def as_type(v, dt):
    """np.asarray(v, dt) keeping v's marks."""
    return mark(np.asarray(plain(v), dt), v.undef) if isinstance(v, Undef) else np.asarray(v, dt)


def view_as(v, dt):
    """v's bits as dt (of v's size: `__float_as_uint`), keeping its marks."""
    r = np.ascontiguousarray(plain(v)).view(dt)
    return mark(r, v.undef) if isinstance(v, Undef) else r


def warp_marks(args, active, W, ctx, node):
    """The lanes whose warp's collective reads a value never written (per lane, whole warps), or None;
    a marked lane, mask or width is a located error (it decides what the collective reads)."""
    out = None
    for name, (v, _) in args.items():
        if type(v) is not Undef:
            continue
        hit = np.broadcast_to(v.undef, active.shape) & active
        if name not in ("value", "predicate") and hit.any():
            raise _refusal(ctx, node, f"the {name} of this warp collective")
        out = hit if out is None else out | hit
    if out is None or not out.any():
        return None
    return np.repeat(out.reshape(-1, W).any(axis=1), W)


def warp_result(r, marked):
    """A collective's result (value, bound) computed from unmarked values, marked on `marked` (per lane)."""
    v, e = r
    own = _own(v)  # (a shuffle's read of an inactive lane: read_inactive)
    v = plain(v)
    if np.shape(v) != marked.shape:
        v = np.broadcast_to(v, marked.shape).copy()
    return mark(v, marked | own), e


def read_inactive(ctx, node, v, lanes):
    """A shuffle's result v, marked on `lanes`, those that read a lane not active: NVIDIA gives an undefined
    value there, AMD another, so it is no value (an element of an output stored from it is not judged, a
    branch or an address it decides stops the run); the site is kept (RunResult.unjudged)."""
    line, col = ctx.pos(node)
    key = f"{_file(ctx, node)}:{line}:{col}: a shuffle read lanes not active"
    if key not in ctx.unjudged:
        ctx.unjudged.append(key)
    return mark(v, lanes | _own(v))


def fresh(dt, n: int):
    """A value of type dt no lane has written: zeros, every lane marked."""
    r = np.zeros(n, dt).view(Undef)
    r.undef = np.ones(n, bool)
    return r


def assigned(g, fr, slot, val, m):
    """The first assignment of a local declared without a value (its slot empty), to the lanes of
    mask m: the other lanes that declared it hold a value never written."""
    if m is g.full:
        return val
    declared = fr.tmp.get(("declared", slot))
    if declared is m:
        return val
    if declared is not None and np.shape(declared) != np.shape(m):
        declared = None  # (declared in another group's lanes)
    from .vectors import VecVal
    if isinstance(val, VecVal):
        return VecVal(assigned(g, fr, slot, c, m) for c in val)
    if not isinstance(val[0], (np.ndarray, np.generic)):
        return val  # (a pointer: its lanes outside m are refused where they differ, lanes.merge)
    rest = ~m if declared is None else declared & ~m
    if g.valid is not None:
        rest &= g.valid
    v, e = val
    if not isinstance(v, np.ndarray) or v.ndim == 0:
        v = np.full(g.n, v)
    return mark(v, rest | v.undef if isinstance(v, Undef) else rest), e


def decide(v, m, g, node, what: str):
    """v (a condition or an address) where it is marked on lanes of m: a located error."""
    if isinstance(v, Undef):
        sel = v.undef if m is g.full or v.undef.shape != np.shape(m) else v.undef & m
        if sel.any():
            raise _refusal(g.ctx, node, what)
        return plain(v)
    return v


def _refusal(ctx, node, what: str) -> EmulatorError:
    line, col = ctx.pos(node)
    return EmulatorError(f"a value never written (a local read before any assignment on this path, or an element no "
                         f"store reached) decides {what}: what a GPU does here depends on what its register held; "
                         "not run", ctx.path, line, col)


def settle_address(p, m, g, node, what: str):
    """p's offsets, unmarked, where no lane of m has a marked one (else a located error)."""
    p.off, p._addr = decide(p.off, m, g, node, f"the address of this {what}"), None
    return p.off


def atomic_operand(x, m, g, node):
    """An atomic operation's operand (value, bound), unmarked, or None: its result is memory any thread
    may read next, where a value never written is not followed (a located error)."""
    if x is None or type(x[0]) is not Undef:
        return x
    return decide(x[0], m, g, node, "an atomic operation's operand"), x[1]


# ---------------------------------------------------------------------------------------------
# Memory: a mark per element of a buffer's own type
# ---------------------------------------------------------------------------------------------
def _elements(p, a):
    """The buffer elements the scalars at addresses a (of p's type) cover: an array (k, r), r per scalar."""
    isz, bsz = p.dt.itemsize, p.buf.data.dtype.itemsize
    a = np.asarray(a, dtype=np.int64)
    if isz == bsz:
        return a[..., None]
    if isz > bsz:
        r = isz // bsz
        return a[..., None] * r + np.arange(r)
    return (a * isz // bsz)[..., None]


def loaded(p, addr, v, m, g):
    """A load's value marked where the elements it read are."""
    if p.buf.cleared:
        _recount(p.buf)
        if p.buf.undef is None:
            return v
    u = p.buf.undef
    if p.base is p.buf.lanes and np.ndim(p.off) == 0 and p.dt.itemsize == p.buf.data.dtype.itemsize:
        hit = u.reshape(-1, p.buf.region)[:, int(p.off)]  # (`t[k]` of a local array, as undefined.stored)
    else:
        hit = u[np.clip(_elements(p, addr), 0, u.shape[0] - 1)].any(axis=-1)
    if m is not g.full and hit.shape == np.shape(m):
        hit = hit & m
    if not hit.any():
        return v
    if not isinstance(v, np.ndarray) or v.ndim == 0:
        v = np.full(hit.shape, v) if hit.ndim else np.asarray(v)
    return mark(v, hit)


def stored(ctx, g, p, addr, v, m, node):
    """(v unmarked, the marks memory.store clears where it writes the data, or None) of a store: its
    elements' marks are set from a marked value and cleared by a defined one (a narrower defined store
    into a wider element clears nothing: the rest of it may be unwritten)."""
    buf = p.buf
    u = v.undef if isinstance(v, Undef) else None
    if u is None:
        if buf.undef is None:
            return v, None
        if p.dt.itemsize == buf.data.dtype.itemsize:  # (the common store: memory clears what it writes)
            buf.cleared = True  # (the next load looks whether any mark is left: undefined.loaded)
            if p.base is buf.lanes and np.ndim(p.off) == 0 and m is g.full:  # (`t[k]` of a local array: element
                buf.undef.reshape(-1, buf.region)[:, int(p.off)] = False  # k of every lane's region, a strided view)
                return v, None
            return v, buf.undef
    if buf.undef is None:
        buf.undef = np.zeros(buf.data.shape[0], bool)
    lanes = u if u is not None else np.bool_(False)
    a = addr
    if np.ndim(addr):
        a = np.asarray(addr)
        lanes = np.broadcast_to(lanes, a.shape)
        if m is not g.full:
            sel = np.flatnonzero(m)
            a, lanes = a[sel], lanes[sel]
    elif np.ndim(lanes):  # (one address for all lanes: the last active lane's value lands, as memory.store)
        active = np.flatnonzero(m) if m is not g.full else None
        lanes = lanes[-1] if active is None else lanes[active[-1]] if active.size else np.bool_(False)
    el = _elements(p, a)
    bad = np.broadcast_to(np.asarray(lanes)[..., None], el.shape)
    if p.dt.itemsize < buf.data.dtype.itemsize:
        buf.undef[el[bad]] = True
    else:
        buf.undef[el] = bad
    n = int(np.count_nonzero(lanes))
    if n and buf.kind == "global":
        line, col = ctx.pos(node)
        key = f"{_file(ctx, node)}:{line}:{col}"
        ctx.undefined_at[key] = ctx.undefined_at.get(key, 0) + n
    _recount(buf)
    return plain(v), None


def unwritten(buf, lanes=None):
    """buf with no element written yet (a local array, a struct's array field, a temporary); lanes: its
    pointers' base, the start of each lane's region in lane order (lane_idx * region), returned."""
    buf.undef, buf.lanes = np.ones(buf.data.shape[0], bool), lanes
    return lanes


def _recount(buf):
    """No marks at all once none is left (a buffer every element of which is written loads as memory does)."""
    buf.cleared = False
    if not buf.undef.any():
        buf.undef = None


def _file(ctx, node) -> str:
    """The file of node's line: a header's, where the front end inlined one between line markers."""
    f = getattr(getattr(node, "coord", None), "file", None)
    return f if f and not f.startswith("<") else ctx.path


def copy(dst, di, src, si):
    """Marks of elements copied between buffers of one type (a struct's array field by value)."""
    if src.undef is None and dst.undef is None:
        return
    if dst.undef is None:
        dst.undef = np.zeros(dst.data.shape[0], bool)
    dst.undef[di] = False if src.undef is None else src.undef[si]
    _recount(dst)


def outputs(buffers, names) -> dict:
    """name -> marks of each output element (per struct for an array of structs), where any is marked."""
    out = {}
    for n, b in buffers.items():
        if b.undef is not None and b.undef.any():
            u = b.undef
            if b.layout is not None:
                u = u[: u.shape[0] // b.layout.itemsize * b.layout.itemsize].reshape(-1, b.layout.itemsize).any(axis=1)
            out[names.get(n, n)] = u.copy()
    return out


def note(count: int, sites, per_buffer=None) -> str:
    """'N element(s) (of out 6) stored from values never written: not compared (stored at file:line:col)'."""
    at = ", ".join(list(sites)[:3])
    of = f" (of {', '.join(f'{b} {n}' for b, n in per_buffer.items())})" if per_buffer else ""
    return f"{count} element(s){of}{NOTE[len('element(s)'):]}" + (f" (stored at {at})" if at else "")


def never_written(v, t, g, name, node):
    """A local's value read where no assignment reached it (v None), or a vector's components no
    assignment reached (None): marked values of its type; of a pointer or a struct, a located error."""
    from .ctype import vector_row
    from .vectors import VecVal
    if isinstance(t, np.dtype):
        return fresh(t, g.n), None
    row = vector_row(t)
    if row is not None:
        return VecVal(c if c is not None else (fresh(row[0], g.n), None) for c in (v or [None] * row[1]))
    raise EmulatorError(f"`{name}` is read before it is assigned", g.ctx.path, *g.ctx.pos(node))
