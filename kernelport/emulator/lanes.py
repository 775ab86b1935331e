"""The emulator's lane state: the lanes one generator runs (`Group`, and `SubGroup`, the few lanes
of a sparsely taken branch) and one activation of a function over them (`Frame`, its control
masks, and `merge`, an assignment under a mask).  The compiler's closures and the schedules share it.
"""
from __future__ import annotations

import numpy as np

from .ctype import conv
from .errors import EmulatorError
from . import nulls
from .memory import Pointer
from .selection import Rows, take
from .vectors import VecVal, merge_vectors
from .structs import StructVal, merge_structs


class Frame:
    """One activation of a function for all lanes of a group.

    ret / brk / cont: lanes that returned, broke out of, or continued the innermost loop (None:
    none).  A statement runs for `m & ~(ret | brk | cont)`."""
    __slots__ = ("env", "g", "ret", "brk", "cont", "retval", "tmp")

    def __init__(self, g, nslots: int):
        self.env = [None] * nslots
        self.g = g
        self.ret = self.brk = self.cont = None
        self.retval = None
        self.tmp = {}


def live(fr: Frame, m):
    off = fr.ret
    if fr.brk is not None:
        off = fr.brk if off is None else off | fr.brk
    if fr.cont is not None:
        off = fr.cont if off is None else off | fr.cont
    if off is None:
        return m
    r = m & ~off
    return r if r.any() else None


def merge(g, old, new, m):
    """Assign `new` to the lanes of mask m, keeping `old` elsewhere."""
    if old is None or m is g.full:
        return new
    if isinstance(new, VecVal):
        return merge_vectors(merge, g, old, new, m)
    if isinstance(new, StructVal):
        return merge_structs(merge, g, old, new, m)
    vo, eo = old
    vn, en = new
    if isinstance(vn, Pointer) or isinstance(vo, Pointer):
        if m.all():
            return new
        if not isinstance(vn, Pointer) or not isinstance(vo, Pointer):
            return nulls.merge(g, old, new, m)  # NULL in some lanes (`p = 0;` in one branch)
        if vo.buf is not vn.buf or vo.dt != vn.dt:
            # Lanes that are no thread (a block smaller than the wave) hold no pointer of their own.
            if not (g.valid & ~m).any():
                return new
            got = nulls.merge(g, old, new, m) if vo.dt == vn.dt else None
            if got is None:
                raise EmulatorError("a pointer assigned under divergent control flow points into different buffers "
                                    "(not supported by the emulator)", g.ctx.path)
            return got
        off = np.where(m, vn.off, vo.off)
        base = vn.base if isinstance(vn.base, int) else np.where(m, vn.base, vo.base)
        return Pointer(vn.buf, vn.dt, base, off, vn.size, vn.dims, vn.st), None
    if m.all():
        return new
    if vo.dtype != vn.dtype:
        vo = conv(vo, vn.dtype)
    v = np.where(m, vn, vo)
    if en is None and eo is None:
        return v, None
    return v, np.where(m, 0.0 if en is None else en, 0.0 if eo is None else eo)


# ---------------------------------------------------------------------------------------------
# Groups: the lanes of a schedule's generator
# ---------------------------------------------------------------------------------------------
_LAYOUTS: dict[tuple, dict] = {}
_LAYOUT_LANES = 1 << 22  # lanes of cached layouts kept at most (memory stays bounded for large grids)


def _layout(ctx, mode: str, index: int) -> dict:
    """Lane arrays of one group (cached: read-only, shared by runs of the same geometry)."""
    key = (mode, index, ctx.grid, ctx.block, ctx.W, ctx.batch_start, ctx.batch_blocks)
    lay = _LAYOUTS.get(key)
    if lay is not None:
        return lay
    if len(_LAYOUTS) > 64 or sum(v["n"] * (1 + len(v.get("recs", ()))) for v in _LAYOUTS.values()) \
            > _LAYOUT_LANES:
        _LAYOUTS.clear()
    nb, W = ctx.batch_blocks, ctx.W
    bx, by, bz = ctx.block
    gx, gy, gz = ctx.grid
    T, tpb = ctx.threads_per_block, ctx.padded_threads
    blocks = np.arange(ctx.batch_start, ctx.batch_start + nb, dtype=np.int64)
    if mode == "block":
        per, n = tpb, nb * tpb
        lt_block = np.arange(tpb, dtype=np.int64)
        ltid = np.tile(lt_block, nb) if nb > 1 else lt_block
        valid = None if T == tpb else np.tile(lt_block < T, nb)
    elif mode == "warp":
        per, n = W, nb * W
        lt_block = index * W + np.arange(W, dtype=np.int64)
        ltid = np.tile(lt_block, nb) if nb > 1 else lt_block
        valid = None if (index + 1) * W <= T else np.tile(lt_block < T, nb)
    else:
        per, n = 1, nb
        lt_block = index
        ltid = index
        valid = None
    uniform_t = mode == "thread"

    def tid_comp(c):
        if uniform_t:
            return np.uint32((ltid % bx, (ltid // bx) % by, ltid // (bx * by))[c])
        if c == 0 and by == 1 and bz == 1 and T == tpb and mode == "block":
            return np.tile(np.arange(bx, dtype=np.uint32), nb)
        if c == 1 and by == 1:
            return np.uint32(0)
        if c == 2 and bz == 1:
            return np.uint32(0)
        v = (ltid % bx, (ltid // bx) % by, ltid // (bx * by))[c]
        return v.astype(np.uint32)

    def bid_comp(c):
        if c == 0:
            v = blocks % gx
        elif c == 1:
            if gy == 1:
                return np.uint32(0)
            v = (blocks // gx) % gy
        else:
            if gz == 1:
                return np.uint32(0)
            v = blocks // (gx * gy)
        v = v.astype(np.uint32)
        return np.repeat(v, per) if per > 1 else v

    lay = dict(n=n, per=per, ltid=ltid, valid=valid, uniform_t=uniform_t,
               tid=tuple(tid_comp(c) for c in range(3)), bid=tuple(bid_comp(c) for c in range(3)))
    _LAYOUTS[key] = lay
    return lay


class Group:
    """The lanes one generator runs: arrays over lanes (or numpy scalars where uniform)."""

    def __init__(self, ctx, mode: str, index: int):
        lay = _layout(ctx, mode, index)
        self.ctx = ctx
        self.mode = mode
        self.W = ctx.W
        self.n = n = lay["n"]
        self.per = lay["per"]
        nb = ctx.batch_blocks
        # equal runs of lanes, one per block (selection.find_rows, strided.find_row_slices); none
        # where a run is one lane (the thread schedule: the accesses skip the strided tests at once)
        self.rows = nb if n == nb * self.per and self.per > 1 else 0
        self._lay = lay
        self.tid = lay["tid"]
        self.bid = lay["bid"]
        bx, by, bz = ctx.block
        self.bdim = (np.uint32(bx), np.uint32(by), np.uint32(bz))
        self.gdim = tuple(np.uint32(x) for x in ctx.grid)
        full = lay.get("full")
        if full is None:
            full = lay["full"] = np.ones(n, bool)
            full.flags.writeable = False
        self.full = full
        v = lay["valid"]
        self.valid = self.full if v is None else v
        self.root: Frame | None = None
        self._ptrs = {}
        self._cache = {}

    def _lazy(self, name, make):
        v = self._cache.get(name)
        if v is None:
            v = make()
            self._cache[name] = v
        return v

    @property
    def blk(self):
        """Block slot (within the batch) per lane."""
        per, nb = self.per, self.ctx.batch_blocks
        return self._lazy("blk", lambda: np.repeat(np.arange(nb, dtype=np.int64), per) if per > 1
                          else np.arange(nb, dtype=np.int64))

    @property
    def ltid_arr(self):
        return self._lazy("ltid", lambda: np.broadcast_to(np.asarray(self._lay["ltid"], np.int64), (self.n,)))

    @property
    def warp_arr(self):
        return self._lazy("warp", lambda: self.ltid_arr // self.W)

    @property
    def lane_u32(self):
        lt = self._lay["ltid"]
        return self._lazy("lane", lambda: np.uint32(lt % self.W) if self._lay["uniform_t"]
                          else (lt % self.W).astype(np.uint32))

    @property
    def warp_u32(self):
        lt = self._lay["ltid"]
        return self._lazy("wid", lambda: np.uint32(lt // self.W) if self._lay["uniform_t"]
                          else (lt // self.W).astype(np.uint32))

    @property
    def ltid_u32(self):
        lt = self._lay["ltid"]
        return self._lazy("ltid32", lambda: np.uint32(lt) if self._lay["uniform_t"] else lt.astype(np.uint32))

    @property
    def lane_idx(self):
        return self._lazy("lane_idx", lambda: np.arange(self.n, dtype=np.int64))

    def region_base(self, region: int):
        """First scalar of each lane's block region in a per-block buffer of `region` scalars."""
        per, nb = self.per, self.ctx.batch_blocks
        return self._lazy(("base", region), lambda: np.repeat(np.arange(nb, dtype=np.int64) * region, per)
                          if per > 1 else np.arange(nb, dtype=np.int64) * region)

    def shared_ptr(self, key, elem, dims):
        k = (key, elem, dims)
        p = self._ptrs.get(k)
        if p is None:
            buf = self.ctx.shared_bufs[key]
            region = buf.region * buf.data.dtype.itemsize // elem.itemsize
            p = Pointer(buf, elem, self.region_base(region), np.int64(0), region, dims)
            self._ptrs[k] = p
        return p

    def dynamic_ptr(self, elem, dims):
        k = ("<dyn>", elem, dims)
        p = self._ptrs.get(k)
        if p is None:
            buf = self.ctx.dyn_buf
            if buf is None:
                raise EmulatorError("the kernel uses dynamic shared memory (extern __shared__) but shared_bytes "
                                    "is 0", self.ctx.path)
            region = self.ctx.shared_bytes // elem.itemsize
            p = Pointer(buf, elem, self.region_base(region), np.int64(0), region, dims)
            self._ptrs[k] = p
        return p

    @property
    def wsync_idx(self):
        """Index of each lane's warp in ctx.wsync (the warp-sync counters of the batch)."""
        return self._lazy("wsync_idx", lambda: self.blk * self.ctx.nwarps + self.warp_arr)

    @property
    def ltid32(self):
        return self._lazy("ltid32i", lambda: np.ascontiguousarray(self.ltid_arr, dtype=np.int64))

    def race_rec(self, bits: int = 0):
        """The race detector's record of an access by each lane: its thread's linear index in its
        block, int32, | bits (race_table.RaceTable's epoch stamp and line id, above the thread).  The
        last bits' records are kept: the accesses of an epoch at one line share them."""
        c = self._cache.get("srec")
        if c is not None and c[0] == bits:
            return c[1]
        lay = self._lay
        v = lay.get("rec")
        if v is None:  # (cached with the layout: read-only, shared by runs of the same geometry)
            v = lay["rec"] = np.int32(lay["ltid"]) if lay["uniform_t"] else \
                np.ascontiguousarray(np.broadcast_to(lay["ltid"], (self.n,)), dtype=np.int32)
            if isinstance(v, np.ndarray):
                v.flags.writeable = False
        if bits:
            v = v | v.dtype.type(bits)
        self._cache["srec"] = (bits, v)
        return v

    def wsync_now(self):
        return self.ctx.wsync[self.wsync_idx]

    def thread_of(self, lane: int):
        t = tuple(int(np.broadcast_to(c, (self.n,))[lane]) for c in self.tid)
        b = tuple(int(np.broadcast_to(c, (self.n,))[lane]) for c in self.bid)
        return t, b

    def alive(self):
        r = self.root.ret if self.root is not None else None
        return self.valid if r is None else (self.valid & ~r)


# ---------------------------------------------------------------------------------------------
# Compaction: a branch taken by few lanes runs on those lanes only
# ---------------------------------------------------------------------------------------------
class SubGroup(Group):
    """The lanes `idx` (sorted) of a parent group, gathered: a sparsely taken branch runs on them
    and its results are scattered back (compaction.run_compacted).  Lane order is kept, so atomics,
    first-error reports and the race detector see the lanes in the same order."""

    def __init__(self, parent: Group, idx: np.ndarray):
        self.parent = parent
        self.idx = idx
        self.ctx = parent.ctx
        self.mode = parent.mode
        self.W = parent.W
        self.n = n = idx.shape[0]
        self.per = parent.per
        # the lanes of a Rows selection are again the same threads of each block
        self.rows = idx.rows if isinstance(idx, Rows) else 0
        self._lay = None
        self.bdim = parent.bdim
        self.gdim = parent.gdim
        full = np.ones(n, bool)
        full.flags.writeable = False
        self.full = full
        self.valid = full
        self.root = None
        self._ptrs = {}
        self._cache = {}

    def _from_parent(self, name):
        v = self._cache.get(name)
        if v is None:
            v = take(getattr(self.parent, name), self.idx)
            self._cache[name] = v
        return v

    blk = property(lambda self: self._from_parent("blk"))
    tid = property(lambda self: self._lazy("tid", lambda: _LazyComps(self.parent.tid, self.idx)))
    bid = property(lambda self: self._lazy("bid", lambda: _LazyComps(self.parent.bid, self.idx)))
    ltid_arr = property(lambda self: self._from_parent("ltid_arr"))
    warp_arr = property(lambda self: self._from_parent("warp_arr"))
    lane_u32 = property(lambda self: self._from_parent("lane_u32"))
    warp_u32 = property(lambda self: self._from_parent("warp_u32"))
    ltid_u32 = property(lambda self: self._from_parent("ltid_u32"))
    wsync_idx = property(lambda self: self._from_parent("wsync_idx"))
    ltid32 = property(lambda self: self._from_parent("ltid32"))

    @property
    def lane_idx(self):
        return self._lazy("lane_idx", lambda: np.arange(self.n, dtype=np.int64))

    def race_rec(self, bits: int = 0):
        c = self._cache.get("srec")
        if c is not None and c[0] == bits:
            return c[1]
        v = self._lazy("rec", lambda: take(self.parent.race_rec(), self.idx))
        if bits:
            v = v | v.dtype.type(bits)
        self._cache["srec"] = (bits, v)
        return v

    def region_base(self, region: int):
        return self._lazy(("base", region), lambda: take(self.parent.region_base(region), self.idx))

    def alive(self):
        raise EmulatorError("internal: barrier inside a compacted branch", self.ctx.path)


class _LazyComps:
    """The x/y/z components of a parent's index vector, each gathered when first used."""
    __slots__ = ("src", "idx", "got")

    def __init__(self, src, idx):
        self.src, self.idx, self.got = src, idx, [None, None, None]

    def __getitem__(self, c):
        v = self.got[c]
        if v is None:
            v = self.got[c] = take(self.src[c], self.idx)
        return v

    def __iter__(self):
        return (self[c] for c in range(3))

    def __len__(self):
        return 3

