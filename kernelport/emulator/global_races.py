"""Races on global memory: two accesses of one location by threads of one launch that nothing
orders, where the order decides what memory holds or what a thread reads.  CUDA orders no two
blocks of a launch (the emulator has no grid-wide sync), a barrier orders the threads of one block,
and a warp's own statements run in its program order (the lockstep a GPU keeps for a converged
warp: lanes of one warp are ordered across statements); so a race here is an access by a thread
of another block, or of another warp of the same block in the same barrier epoch, or (stores
only) by another lane of the same store (emulator.lane_writes: lanes of one warp storing different
values are a "lane-choice", of different warps a write-after-write).

- write-after-write: a store of a value that differs from the one there (equal values, `*found = 1`
  from many threads, are benign: whichever thread wins, memory holds the same bytes);
- read-write (emulator.global_reads): a read of a value an unordered thread's store changed, or a
  store that changes a value an unordered thread read before it (either order is a GPU's);
- order-dependent atomics (emulator.atomic_order): exchanges of different values, CAS claims lost
  to an unordered winner and never retried.

What the launch leaves in such a location depends on the order the threads ran in, which no two
GPUs (or wave widths) need share: the oracle does not compare such a kernel (verify_oracle).
Only plain accesses (and exchanges) are watched, and only through a pointer of the buffer's own
element type (a reinterpreted access is not told apart: never a false race).  The "thread"
schedule runs one warp's store lane by lane, in the warp's order: two lanes of one store are told
apart by the "block" and "warp" schedules (the oracle's is "block").

Fences and flags cannot be proven to order anything here, so the watch errs the other way: a
conflict is not reported where the earlier thread's block executed a fence or an atomic (a
release) and the later thread did before its access, itself or through a barrier (an acquire): a
spin lock's CAS and releasing exchange, a threadfence reduction's ticket, a flag spun on with an
atomic or a fence after the spin.  A flag spun on with plain reads and no fence is reported.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import branch_sides, lane_writes
from .errors import Race

# elements of one buffer watched at most (two int64 tables and an int32 one of its size; a buffer
# that is also read: as many again); a larger buffer is not watched: no race is reported on it
MAX_WATCHED = 1 << 23

# what each kind of race says (GlobalRace.kind)
KINDS = {"write-after-write": "write-after-write of different values",
         "lane-choice": lane_writes.WORDING["lane-choice"],
         "read-after-write": "a read of a value an unordered thread's store changed",
         "write-after-read": "a store that changes a value an unordered thread read",
         "exchange": "atomic exchanges of different values: the last one's stays",
         "lost-claim": "a compare-and-swap that lost to another's and never retried"}


@dataclass
class GlobalRace(Race):
    """Two accesses of one global location by unordered threads whose order decides the outcome
    (`thread` and `other_thread` are linear indices in their blocks `block` and `other_block`;
    `line` is the later access in the emulator's order)."""
    other_block: tuple[int, int, int] = (0, 0, 0)

    @property
    def message(self) -> str:
        return (f"global-memory race ({KINDS.get(self.kind, self.kind)}) on {self.buffer}[{self.index}]: "
                f"thread {self.thread} of block {self.block} at line {self.line} and thread {self.other_thread} "
                f"of block {self.other_block} at line {self.other_line}, nothing ordering them")


class GlobalWrites:
    """The last plain store of each watched global location: its thread (block in the grid *
    padded threads + thread in the block), barrier epoch and line; the blocks that executed a
    fence or an atomic (`synced`); the read-write and atomic-order watches it drives."""

    def __init__(self, ctx):
        from .atomic_order import AtomicOrder
        from .global_reads import GlobalReads
        self.ctx = ctx
        self.tables: dict[int, tuple] = {}  # id(buffer) -> (buffer, who, epoch, line)
        self.races: list[GlobalRace] = []
        self._keys: set = set()
        blocks = int(np.prod(ctx.grid))
        self.synced = np.zeros(blocks, bool)  # per block of the grid: it fenced or ran an atomic
        self.acquired = np.zeros(blocks * ctx.padded_threads, bool)  # per thread: it did, itself
        self.first_sync = np.full(blocks, np.iinfo(np.int64).max, np.int64)  # per block: the epoch it first did
        self.reads = GlobalReads(self)
        self.atomics = AtomicOrder(self)
        # the sides of divergent if/else a group's lanes run in (branch_sides): CUDA orders neither side
        # of a divergent branch before the other, so one warp's stores on its two sides are unordered
        self.sides = branch_sides.Sides()

    def _table(self, buf):
        t = self.tables.get(id(buf))
        if t is None or t[0] is not buf:
            n = buf.data.shape[0]
            t = self.tables[id(buf)] = (buf, np.full(n, -1, np.int64), np.zeros(n, np.int64),
                                        np.zeros(n, np.int32)) if n <= MAX_WATCHED else (buf, None, None, None)
        return t

    def watched(self, p) -> bool:
        """Whether accesses through p are watched: a writable buffer of its own element type, and
        fewer races found than worth reporting."""
        return len(self.races) < 20 and p.dt == p.buf.data.dtype and p.buf.data.flags.writeable

    def ids(self, g) -> np.ndarray:
        """Each lane's thread, unique in the grid."""
        me = g._cache.get("global_ids")
        if me is None:
            ctx, n = self.ctx, g.n
            me = g._cache["global_ids"] = np.ascontiguousarray(
                (np.broadcast_to(g.blk, (n,)) + ctx.batch_start) * ctx.padded_threads + np.broadcast_to(g.ltid_arr, (n,)))
        return me

    def lanes(self, g, addr, m):
        """(the active lanes or None for all, their addresses, their threads); None if none is active."""
        n = g.n
        full = m is g.full or bool(np.all(m))
        sel = None if full else np.flatnonzero(m)
        if sel is not None and not sel.shape[0]:
            return None
        if isinstance(addr, np.ndarray) and addr.ndim:
            a = addr if sel is None else addr[sel]
        else:
            a = np.full(n if sel is None else sel.shape[0], addr, np.int64)
        me = self.ids(g)
        return sel, a, me if sel is None else me[sel]

    def sync(self, g, m) -> None:
        """Lanes m executed a fence or an atomic (see `unordered`)."""
        me = self.ids(g)
        me = me if m is g.full else me[np.broadcast_to(np.asarray(m, bool), me.shape)]
        b = me // self.ctx.padded_threads
        self.synced[b] = self.acquired[me] = True
        self.first_sync[b] = np.minimum(self.first_sync[b], self.ctx.epoch)

    def store(self, g, p, addr, v, m, node, kind: str = "write-after-write") -> None:
        """Lanes `m` of group `g` store `v` (converted to the pointer's type) at `addr` of `p`'s
        buffer; called before the store, while the buffer holds what the earlier writes left."""
        buf = p.buf
        if not self.watched(p):
            return
        _, who, when, lines = self._table(buf)
        if who is None:
            return
        got = self.lanes(g, addr, m)
        if got is None:
            return
        sel, a, me = got
        ctx, n = self.ctx, g.n
        s0 = ctx.mem.ramp(a) if a is addr else None  # contiguous (a[k] = a[0] + k): slices, no duplicates
        at = slice(s0, s0 + a.shape[0]) if s0 is not None else a
        line = ctx.pos(node)[0]
        vals = np.broadcast_to(v, (n,))
        new = vals if sel is None else vals[sel]
        prev = who[at]
        c = (prev >= 0) & (prev != me)  # (the usual case: first stores, or the thread's own again)
        side = self.sides.tag(g)
        sides = self.sides.table(buf)
        if c.any():
            k = np.flatnonzero(c)
            k = k[self.unordered(prev[k], me[k], when[a[k]]) | self.sides.apart(sides[a[k]], side, prev[k], me[k],
                                                                                  when[a[k]], ctx)]
            if k.shape[0]:
                k = k[lane_writes.differ(buf.data[a[k]], new[k])]
                if k.shape[0]:
                    j = int(k[0])
                    self.report(kind, buf, int(a[j]), int(me[j]), int(prev[j]), line, int(lines[a[j]]))
        if s0 is None and a.shape[0] > 1 and not (a[1:] > a[:-1]).all():  # lanes of this store that write one location
            pos = _arange(a.shape[0])
            lines[a] = pos  # (the line table as scratch: each location's last lane; its line is written below)
            if (lines[a] != pos).any():  # (lane_writes: one warp's lanes, one warp's or several's: the policy)
                for kd, (k, j) in lane_writes.clashes(a, new, me // ctx.W, True).items():
                    self.report(kd if kind == lane_writes.WRITE_WRITE else kind, buf, int(a[k]), int(me[k]),
                                int(me[j]), line, line)
        self.reads.written(buf, a, at, me, new, line)
        who[at], when[at], lines[at], sides[at] = me, ctx.epoch, line, side

    def apart(self, prev, me, epoch):
        """Whether nothing orders the earlier access (thread prev, in barrier epoch `epoch`) before
        this one (me, now): another block, or another warp of this block in this barrier epoch."""
        pt, ctx = self.ctx.padded_threads, self.ctx
        other_block = prev // pt != me // pt
        other_warp = (prev % pt) // ctx.W != (me % pt) // ctx.W
        return other_block | (other_warp & (epoch == ctx.epoch))

    def unordered(self, prev, me, epoch):
        """apart, unless a protocol the emulator cannot see may order them (the module's note): the
        earlier thread's block fenced or ran an atomic (a release, before or after its access), and
        this thread did before its access, or a thread of its block did before a barrier it passed
        (an acquire: a lock's CAS, a ticket's atomicInc read after __syncthreads)."""
        pt = self.ctx.padded_threads
        acquired = self.acquired[me] | (self.first_sync[me // pt] < self.ctx.epoch)
        return self.apart(prev, me, epoch) & ~(self.synced[prev // pt] & acquired)

    def report(self, kind, buf, index, me, prev, line, other_line):
        """One race: the first of its kind, buffer and lines."""
        key = (kind, buf.name, line, other_line)
        pt, ctx = self.ctx.padded_threads, self.ctx
        if key in self._keys or len(self.races) >= 20:
            return
        self._keys.add(key)
        self.races.append(GlobalRace(ctx.path, line, other_line, kind, buf.name, index, me % pt,
                                     prev % pt, _block(ctx.grid, me // pt), _block(ctx.grid, prev // pt)))

    def finish(self) -> list[GlobalRace]:
        """The launch ended: the races found (CAS claims lost and never retried are settled now)."""
        self.atomics.finish()
        return self.races


def _arange(n: int) -> np.ndarray:
    return np.arange(n, dtype=np.int32)


def _block(grid, linear: int) -> tuple[int, int, int]:
    return linear % grid[0], linear // grid[0] % grid[1], linear // (grid[0] * grid[1])
