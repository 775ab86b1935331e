"""Groups of lanes and the three schedules.

A *group* is a set of lanes that execute the kernel body together, in lockstep, vectorised over
blocks of a batch:

- "block":  one group holding every thread of every block of the batch;
- "warp":   one group per warp index w (warp w of every block), interleaved between barriers in a
            seeded order;
- "thread": one group per thread index t (thread t of every block), one at a time between
            barriers and warp collectives, in seeded orders.  Warp collectives gather the lanes
            of a warp from their groups (every lane must arrive first).

Each group runs the kernel as a generator that yields at barriers (and, in the thread schedule,
at warp collectives); the scheduler checks barriers for divergence and resumes groups.
"""
from __future__ import annotations

import numpy as np

from . import intrinsics as K
from .compiler import Frame
from .ctype import I32
from .errors import EmulatorError
from .memory import Pointer


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
        self.steps = 0
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

    def race_rec(self, line: int, dt=np.dtype(np.int64)):
        """The race detector's record of an access at `line` by each lane: (line << 20) | thread,
        of type dt (int32 while line < 2048)."""
        lay = self._lay
        recs = lay.get("recs")
        if recs is None:
            recs = lay["recs"] = {}
        v = recs.get((line, dt))
        if v is None:
            if len(recs) >= 8:
                recs.clear()
            lt = lay["ltid"]
            v = (dt.type(line) << dt.type(20)) | (dt.type(lt) if lay["uniform_t"] else lt.astype(dt))
            if isinstance(v, np.ndarray):
                v.flags.writeable = False
            recs[(line, dt)] = v  # cached with the layout: read-only, shared by runs of the same geometry
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


def kernel_gen(g: Group, cf, bindings: dict[int, object]):
    fr = Frame(g, cf.nslots)
    g.root = fr
    for s, v in bindings.items():
        fr.env[s] = v
    for s, (key, comp) in cf.param_builtins.items():
        fr.env[s] = None
    yield from cf.body(fr, g.valid)


# ---------------------------------------------------------------------------------------------
# Barrier checks
# ---------------------------------------------------------------------------------------------
def _barrier_phase(ctx, groups, reqs: dict[int, tuple]):
    """All groups are at a barrier or finished: check divergence, compute reductions."""
    nb = ctx.batch_blocks
    if len(reqs) == len(groups):
        # fast path: every group waits at one barrier with exactly its live lanes (no divergence
        # possible) and nothing to reduce
        first = next(iter(reqs.values()))
        ok = True
        for i, req in reqs.items():
            if req[1] is not first[1] or req[4] is not None or req[5] is not None:
                ok = False
                break
            m, a = req[2], groups[i].alive()
            if not (m is a or (isinstance(m, np.ndarray) and m.shape == a.shape and np.array_equal(m, a))):
                ok = False
                break
        if ok:
            ctx.epoch += 1
            return {i: None for i in reqs}
    alive = np.zeros(nb, np.int64)
    for g in groups:
        a = g.alive()
        alive += np.bincount(g.blk[a], minlength=nb)
    site_counts: dict[int, np.ndarray] = {}
    site_node = {}
    for i, req in reqs.items():
        g = groups[i]
        _, node, m, fr, pred, red = req
        key = id(node)
        site_node[key] = node
        c = np.bincount(g.blk[m], minlength=nb)
        site_counts[key] = site_counts.get(key, 0) + c
    total = sum(site_counts.values()) if site_counts else np.zeros(nb, np.int64)
    nsites = sum((c > 0).astype(np.int64) for c in site_counts.values()) if site_counts else np.zeros(nb, np.int64)
    multi = np.flatnonzero(nsites > 1)
    if multi.size:
        b = int(multi[0])
        lines = sorted(ctx.pos(site_node[k])[0] for k, c in site_counts.items() if c[b] > 0)
        node = site_node[next(k for k, c in site_counts.items() if c[b] > 0)]
        raise EmulatorError(f"barrier divergence: threads of block {_block_txt(ctx, b)} wait at different barriers "
                            f"(lines {', '.join(map(str, lines))})", ctx.path, *ctx.pos(node))
    bad = np.flatnonzero((total > 0) & (total < alive))
    if bad.size:
        b = int(bad[0])
        key = next(k for k, c in site_counts.items() if c[b] > 0)
        node = site_node[key]
        arrived, missing = [], []
        for i, g in enumerate(groups):
            inb = g.blk == b
            a = g.alive() & inb
            req = reqs.get(i)
            m = req[2] if req is not None and id(req[1]) == key else np.zeros(g.n, bool)
            arrived += [g.thread_of(int(k))[0] for k in np.flatnonzero(a & m)]
            missing += [g.thread_of(int(k))[0] for k in np.flatnonzero(a & ~m)]
        raise _divergence(ctx, node, b, arrived, missing)
    # barrier reductions (__syncthreads_count / _and / _or) and results
    results = {}
    red_sum = None
    if any(r[4] is not None for r in reqs.values()):
        red_sum = np.zeros(nb, np.int64)
        for i, req in reqs.items():
            g = groups[i]
            m, pred = req[2], req[4]
            if pred is not None:
                pv = np.broadcast_to(pred, (g.n,)) & m
                red_sum += np.bincount(g.blk[pv], minlength=nb)
    for i, req in reqs.items():
        g = groups[i]
        red = req[5]
        if red is None:
            results[i] = None
            continue
        per_block = red_sum[g.blk]
        if red == "count":
            results[i] = (per_block.astype(I32), None)
        elif red == "or":
            results[i] = ((per_block > 0).astype(I32), None)
        else:
            results[i] = ((per_block == total[g.blk]).astype(I32), None)
    ctx.epoch += 1
    return results


def _block_txt(ctx, slot):
    gx, gy, _ = ctx.grid
    lin = slot + ctx.batch_start
    return f"({lin % gx}, {(lin // gx) % gy}, {lin // (gx * gy)})"


def _threads_txt(ts, limit=8):
    ts = sorted(ts)
    if all(t[1:] == (0, 0) for t in ts):
        xs = [t[0] for t in ts]
        return K._lanes_txt(xs) if len(xs) > limit else ", ".join(map(str, xs))
    return ", ".join(str(t) for t in ts[:limit]) + (" ..." if len(ts) > limit else "")


def _divergence(ctx, node, b, arrived, missing):
    return EmulatorError(
        f"barrier divergence: __syncthreads() reached by {len(arrived)} of {len(arrived) + len(missing)} threads of "
        f"block {_block_txt(ctx, b)} (arrived: threads {_threads_txt(arrived)}; missing: threads "
        f"{_threads_txt(missing)}) — a barrier must be reached by every thread of the block",
        ctx.path, *ctx.pos(node))


# ---------------------------------------------------------------------------------------------
# Schedules
# ---------------------------------------------------------------------------------------------
def run_block(ctx, cf, bindings):
    g = Group(ctx, "block", 0)
    gen = kernel_gen(g, cf, bindings)
    send = None
    try:
        while True:
            try:
                req = gen.send(send)
            except StopIteration:
                break
            if req[0] != "bar":
                raise EmulatorError("internal: unexpected request in the block schedule", ctx.path)
            res = _barrier_phase(ctx, [g], {0: req})
            send = res.get(0)
    finally:
        g.root = None  # (group <-> frame cycle: free the lanes' values now)


def _groups_warp(ctx):
    return [Group(ctx, "warp", w) for w in range(ctx.padded_threads // ctx.W)]


def _groups_thread(ctx):
    return [Group(ctx, "thread", t) for t in range(ctx.threads_per_block)]


def run_interleaved(ctx, cf, bindings, mode: str, rng):
    groups = _groups_warp(ctx) if mode == "warp" else _groups_thread(ctx)
    try:
        _interleave(ctx, cf, bindings, groups, rng)
    finally:
        for g in groups:
            g.root = None  # (group <-> frame cycle: free the lanes' values now)


def _interleave(ctx, cf, bindings, groups, rng):
    gens = [kernel_gen(g, cf, bindings) for g in groups]
    finished = [False] * len(groups)
    send: list = [None] * len(groups)
    pending: dict[int, tuple] = {}
    ready = list(range(len(groups)))
    while True:
        if len(ready) > 1:
            rs = set(ready)
            order = [i for i in rng.permutation(len(groups)).tolist() if i in rs]
        else:
            order = ready
        for i in order:
            try:
                req = gens[i].send(send[i])
            except StopIteration:
                finished[i] = True
                continue
            send[i] = None
            pending[i] = req
        ready = []
        if all(finished):
            break
        colls = {i: r for i, r in pending.items() if r[0] == "coll"}
        if colls:
            results = _resolve_collectives(ctx, groups, colls)
            for i, res in results.items():
                send[i] = res
                del pending[i]
                ready.append(i)
            continue
        res = _barrier_phase(ctx, groups, pending)
        for i in list(pending):
            send[i] = res.get(i)
            ready.append(i)
        pending.clear()


def _resolve_collectives(ctx, groups, colls):
    """Thread schedule: run each warp collective once every lane of the warp has stopped."""
    W, nb = ctx.W, ctx.batch_blocks
    by_site: dict[tuple, list[int]] = {}
    for i, req in colls.items():
        g = groups[i]
        w = int(g.ltid_arr[0]) // W
        by_site.setdefault((w, id(req[2]), req[1]), []).append(i)
    results = {}
    for (w, _, key), members in by_site.items():
        node = colls[members[0]][2]
        active = np.zeros((nb, W), bool)
        lane_of = {}
        for i in members:
            g = groups[i]
            lane = int(g.ltid_arr[0]) % W
            lane_of[i] = lane
            active[:, lane] = np.broadcast_to(colls[i][4], (nb,))
        args = {}
        lanes_in_order = [lane_of[i] for i in members] == list(range(W))
        for p in colls[members[0]][3]:
            items = [colls[i][3][p] for i in members]
            u = _uniform_arg(p, items, lane_of, members, W)
            if u is not None:
                args[p] = u
                continue
            v0 = items[0][0]
            dt = np.asarray(v0).dtype
            if lanes_in_order and all(np.asarray(v).dtype == dt for v, _ in items):
                # every lane of the warp, in lane order: one stack instead of W column writes
                vals = np.stack([np.broadcast_to(v, (nb,)) for v, _ in items], axis=1)
                errs = None
                if any(e is not None for _, e in items):
                    errs = np.stack([np.broadcast_to(np.float64(0.0) if e is None else e, (nb,)) for _, e in items],
                                    axis=1).astype(np.float64)
                args[p] = (vals.reshape(-1), None if errs is None else errs.reshape(-1))
                continue
            vals = None
            errs = None
            for i, (v, e) in zip(members, items):
                if vals is None:
                    vals = np.zeros((nb, W), np.asarray(v).dtype)
                vals[:, lane_of[i]] = v
                if e is not None:
                    if errs is None:
                        errs = np.zeros((nb, W))
                    errs[:, lane_of[i]] = e
            args[p] = (vals.reshape(-1), None if errs is None else errs.reshape(-1))  # masks too: per lane
        flat_active = active.reshape(-1)
        if key == "syncwarp":
            if "mask" in args:
                K.collective("activemask", {"mask": args["mask"]}, flat_active, W, ctx, node)
            blocks = np.flatnonzero(active.any(axis=1))
            ctx.wsync[blocks * ctx.nwarps + w] += 1
            ctx.wsync_used = True
            for i in members:
                results[i] = None
            continue
        v, e = K.collective(key, args, flat_active, W, ctx, node)
        v = np.broadcast_to(v, (nb * W,)).reshape(nb, W)
        if e is not None:
            e = np.broadcast_to(e, (nb * W,)).reshape(nb, W)
        for i in members:
            lane = lane_of[i]
            results[i] = (np.ascontiguousarray(v[:, lane]), None if e is None else np.ascontiguousarray(e[:, lane]))
    return results


def _uniform_arg(p, items, lane_of, members, W):
    """A collective's lane/offset/width/mask argument that every arriving lane gives as the same
    exact scalar: that scalar (the collective computes the same as from per-lane copies), else None.
    Values and predicates always go per lane."""
    if p in ("value", "predicate"):
        return None
    v0, e0 = items[0]
    if e0 is not None or isinstance(v0, np.ndarray) and v0.ndim:
        return None
    for v, e in items[1:]:
        if e is not None or (isinstance(v, np.ndarray) and v.ndim) or v != v0 \
                or np.asarray(v).dtype != np.asarray(v0).dtype:
            return None
    if p == "mask" and lane_of[members[0]] != 0 and 0 not in (lane_of[i] for i in members):
        return None  # (a warp's mask is read from its lane 0)
    if p == "width":
        w = int(v0)
        if w <= 0 or w > W or (w & (w - 1)):
            return None
    return (v0, None)


# ---------------------------------------------------------------------------------------------
# Compaction: a branch taken by few lanes runs on those lanes only
# ---------------------------------------------------------------------------------------------
class SubGroup(Group):
    """The lanes `idx` (sorted) of a parent group, gathered: a sparsely taken branch runs on them
    and its results are scattered back (compiler.run_compacted).  Lane order is kept, so atomics,
    first-error reports and the race detector see the lanes in the same order."""

    def __init__(self, parent: Group, idx: np.ndarray):
        self.parent = parent
        self.idx = idx
        self.ctx = parent.ctx
        self.mode = parent.mode
        self.W = parent.W
        self.n = n = idx.shape[0]
        self.per = parent.per
        self._lay = None
        self.bdim = parent.bdim
        self.gdim = parent.gdim
        full = np.ones(n, bool)
        full.flags.writeable = False
        self.full = full
        self.valid = full
        self.steps = parent.steps
        self.root = None
        self._ptrs = {}
        self._cache = {}

    def _from_parent(self, name):
        v = self._cache.get(name)
        if v is None:
            v = _gather_lanes(getattr(self.parent, name), self.idx)
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

    def race_rec(self, line: int, dt=np.dtype(np.int64)):
        return self._lazy(("rec", line, dt), lambda: _gather_lanes(self.parent.race_rec(line, dt), self.idx))

    def region_base(self, region: int):
        return self._lazy(("base", region), lambda: _gather_lanes(self.parent.region_base(region), self.idx))

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
            v = self.got[c] = _gather_lanes(self.src[c], self.idx)
        return v

    def __iter__(self):
        return (self[c] for c in range(3))

    def __len__(self):
        return 3


def _gather_lanes(v, idx):
    if isinstance(v, np.ndarray) and v.ndim:
        return v[idx]
    return v
