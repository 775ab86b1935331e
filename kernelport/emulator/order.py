"""Whether a run's threads ever depended on one another's order between barriers.

The "warp" and "thread" schedules run the same kernel as the "block" schedule with its threads in
other orders between barriers (warps interleaved; one thread at a time).  Their results can differ
from the block schedule's only through what one thread sees of another within a barrier interval:
a location of shared or global memory one thread writes and another reads or writes (atomics
included: they return the old value, and float sums round in their order), or a warp collective.
Where the block run had none of these, each thread's interval reads only what was there at the
barrier and what it wrote itself, whatever order the threads take, so every schedule takes the same
paths, writes the same values and reaches the same barriers: its result is the block run's.

`Watch` records, during a block run, the thread that wrote and the thread (or threads) that read
each location in the current interval (an interval: a barrier epoch of a batch); the first access
that meets another thread's write, or writes where another thread read, marks the run dependent,
and watching stops.  Conservative: an access through a pointer of another type than its buffer's
elements makes the run dependent.

Warp collectives (`Watch.collective`).  The thread schedule runs each thread to its next barrier or
collective and then resolves the waiting collectives together, each (warp, site) once: a thread's
j-th collective of a barrier interval meets the other threads' j-th ones of that warp at the same
site.  The block (and warp) schedule runs a collective once per lockstep call, with the lanes active
there.  Where every call's lanes of a warp are each at their j-th collective of the interval (one j
per warp) and no two calls at one site take the same (warp, j), both gather the same lanes with the
same values (by induction over the interval, with no memory seen across threads): the results are
equal.  Otherwise (a collective in a loop the lanes of a warp run a different number of times, the
two sides of a branch that meet at one collective afterwards) the run is dependent.  So is a kernel
the thread schedule cannot compile (`run_kernel` compiles it first): its thread run fails as it did.
"""
from __future__ import annotations

import numpy as np

WATCH: "Watch | None" = None  # the watch of the run in progress (hooks in memory.py)
_MANY = 1  # a table entry's low word: 0 none, 1 several threads, thread + 2 one thread
# elements of one buffer watched at most (two int64 tables of its size: 64 MiB); a larger buffer
# makes the run dependent, as if watched and found so: its other schedules run as they always did
MAX_WATCHED = 1 << 22


class Watch:
    def __init__(self):
        self.dependent = False
        self.interval = None  # (batch start, barrier epoch) of the last access
        self.base = 0  # this interval's entries are >= base (interval number << 32)
        self.tables: dict[int, tuple] = {}  # id(buffer) -> (buffer, writer per element, reader per element)
        self.count = None  # per thread of the batch: base + its collectives so far in this interval
        self.sites: dict[int, set] = {}  # id(collective's node) -> the (warp, j) it ran for in this interval

    def _enter(self, ctx) -> None:
        """Start a new interval's entries where the batch or the barrier epoch changed."""
        if (ctx.batch_start, ctx.epoch) != self.interval:
            if self.interval is None or self.interval[0] != ctx.batch_start:  # a new batch: new shared buffers
                self.tables = {k: t for k, t in self.tables.items() if t[0].kind != "shared"}
            self.interval, self.base = (ctx.batch_start, ctx.epoch), self.base + (1 << 32)
            self.sites = {}

    def _ids(self, g, m):
        """(m as a lane mask, the active lanes' indices or None for all, their threads: unique in the
        batch, a compacted branch's too)."""
        gid = g._cache.get("order_ids")
        if gid is None:
            gid = g._cache["order_ids"] = (np.broadcast_to(g.blk, (g.n,)) * g.ctx.padded_threads
                                           + np.broadcast_to(g.ltid_arr, (g.n,))).astype(np.int64)
        if not (m is g.full or isinstance(m, np.ndarray) and m.ndim):
            m = g.full if m else np.zeros(g.n, bool)
        sel = None if m is g.full else np.flatnonzero(m)
        return m, sel, (gid if sel is None else gid[sel])

    def collective(self, g, m, node, args=None) -> None:
        """Lanes `m` of group `g` run the warp collective (or __syncwarp) at `node` together, with
        the arguments {param: (value, bound)}."""
        if self.dependent:
            return
        if g.mode != "block" or not all(_plain_bound(a) for a in (args or {}).values()):
            self.dependent = True
            return
        ctx = g.ctx
        self._enter(ctx)
        _, _, ids = self._ids(g, m)
        if not ids.shape[0]:
            return
        if self.count is None or self.count.shape[0] != ctx.batch_blocks * ctx.padded_threads:
            self.count = np.zeros(ctx.batch_blocks * ctx.padded_threads, np.int64)
        c = self.count[ids]
        j = np.where(c >= self.base, c - self.base, 0)  # this interval's collectives of each thread so far
        self.count[ids] = self.base + j + 1
        keys = np.unique((ids // ctx.W) << 32 | j)  # (warp of the batch, j)
        seen = self.sites.setdefault(id(node), set())
        if np.unique(keys >> 32).shape[0] != keys.shape[0] or not seen.isdisjoint(keys.tolist()):
            self.dependent = True  # (a warp's lanes at different j, or a (warp, j) met here twice)
            return
        seen.update(keys.tolist())

    def access(self, g, p, m, write: bool) -> None:
        """Lanes `m` of group `g` read (or write) through pointer `p` (an atomic: a write)."""
        buf = p.buf
        if self.dependent or buf.kind not in ("global", "shared") or not buf.data.flags.writeable:
            return  # (a const input or local memory: nothing another thread can write or see)
        if p.dt != buf.data.dtype or g.mode != "block":
            self.dependent = True  # (reinterpreted elements: not told apart here)
            return
        ctx = g.ctx
        self._enter(ctx)
        t = self.tables.get(id(buf))
        if t is None or t[0] is not buf:
            size = buf.data.shape[0]
            if size > MAX_WATCHED:
                self.dependent = True
                return
            t = self.tables[id(buf)] = (buf, np.zeros(size, np.int64), np.zeros(size, np.int64))
        m, sel, ids = self._ids(g, m)
        addr = p.addr()
        if isinstance(addr, np.ndarray) and addr.ndim:
            a = addr if sel is None else addr[sel]
        else:
            a = np.full(ids.shape[0], addr, np.int64)
        if not ids.shape[0]:
            return
        base, (_, writer, reader) = self.base, t
        me = ids + (base + 2)
        w = writer[a]
        if ((w >= base) & (w != me)).any():  # another thread wrote it in this interval
            self.dependent = True
        elif write:
            r = reader[a]
            writer[a] = me
            # another thread read it in this interval, or two lanes of this access write it
            self.dependent = bool(((r >= base) & (r != me)).any() or (writer[a] != me).any())
        else:
            r = reader[a]
            many = (r >= base) & (r != me)
            reader[a] = me
            many |= reader[a] != me  # (two lanes of this access read it)
            if many.any():
                reader[a[many]] = base + _MANY


def _plain_bound(a) -> bool:
    """A collective's argument whose value and bound the thread schedule gathers as the block's lanes
    hold them: a (value, bound) pair (not a vector or struct value) whose bound, where the same for
    every lane, is float64 (a shuffle widens such a bound to float64; the thread schedule keeps each
    lane's type)."""
    if type(a) is not tuple or len(a) != 2:
        return False
    e = a[1]
    return e is None or np.ndim(e) != 0 or np.result_type(e) == np.float64
