"""The three schedules, and the barrier checks between them.

A *group* (`lanes.Group`) is a set of lanes that execute the kernel body together, in lockstep,
vectorised over blocks of a batch:

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
from .ctype import I32
from .errors import EmulatorError
from .lanes import Frame, Group


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
            # the bounds in the type the block schedule's lanes hold them in (a lane without one: 0)
            bounded = [e for _, e in items if e is not None]
            edt = np.result_type(*bounded) if bounded else None
            if lanes_in_order and all(np.asarray(v).dtype == dt for v, _ in items):
                # every lane of the warp, in lane order: one stack instead of W column writes
                vals = np.stack([np.broadcast_to(v, (nb,)) for v, _ in items], axis=1)
                errs = None
                if bounded:
                    zero = np.zeros((), edt)
                    errs = np.stack([np.broadcast_to(zero if e is None else e, (nb,)) for _, e in items], axis=1)
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
                        errs = np.zeros((nb, W), edt)
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
