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
and watching stops.  Conservative: a kernel with a warp collective anywhere is dependent, and so is
an access through a pointer of another type than its buffer's elements.
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

    def access(self, g, p, m, write: bool) -> None:
        """Lanes `m` of group `g` read (or write) through pointer `p` (an atomic: a write)."""
        buf = p.buf
        if self.dependent or buf.kind not in ("global", "shared") or not buf.data.flags.writeable:
            return  # (a const input or local memory: nothing another thread can write or see)
        if p.dt != buf.data.dtype or g.mode != "block":
            self.dependent = True  # (reinterpreted elements: not told apart here)
            return
        ctx = g.ctx
        if (ctx.batch_start, ctx.epoch) != self.interval:
            if self.interval is None or self.interval[0] != ctx.batch_start:  # a new batch: new shared buffers
                self.tables = {k: t for k, t in self.tables.items() if t[0].kind != "shared"}
            self.interval, self.base = (ctx.batch_start, ctx.epoch), self.base + (1 << 32)
        t = self.tables.get(id(buf))
        if t is None or t[0] is not buf:
            size = buf.data.shape[0]
            if size > MAX_WATCHED:
                self.dependent = True
                return
            t = self.tables[id(buf)] = (buf, np.zeros(size, np.int64), np.zeros(size, np.int64))
        gid = g._cache.get("order_ids")  # each lane's thread, unique in the batch (a compacted branch's too)
        if gid is None:
            gid = g._cache["order_ids"] = (np.broadcast_to(g.blk, (g.n,)) * ctx.padded_threads
                                           + np.broadcast_to(g.ltid_arr, (g.n,))).astype(np.int64)
        if not (m is g.full or isinstance(m, np.ndarray) and m.ndim):
            m = g.full if m else np.zeros(g.n, bool)
        addr = p.addr()
        sel = None if m is g.full else np.flatnonzero(m)
        ids = gid if sel is None else gid[sel]
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

