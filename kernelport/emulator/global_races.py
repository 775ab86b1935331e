"""Write-write races on global memory: two threads of one launch that store different values to
one location with nothing ordering the two stores.  CUDA orders no two blocks of a launch (the
emulator has no grid-wide sync), a barrier orders the threads of one block, and a warp's own
statements run in its program order; so a race here is a store by a thread of another block, or
of another warp of the same block in the same barrier epoch, or by another lane of the same
store (CUDA: "the order in which they occur is undefined"), where the value stored differs from
the one there.  Equal values (`*found = 1` from many threads) are benign: whichever thread wins,
memory holds the same bytes.

What the launch leaves in such a location depends on the order the threads ran in, which no two
GPUs (or wave widths) need share: the oracle does not compare such a kernel (verify_oracle).
Only plain stores are watched (an atomic is ordered by definition), and only through a pointer of
the buffer's own element type (a reinterpreted store is not told apart: never a false race).  The
"thread" schedule runs one warp's store lane by lane, in the warp's order: two lanes of one store
are told apart by the "block" and "warp" schedules (the oracle's is "block").  A store that an
atomic protocol between blocks orders (a lock) would be reported: no such protocol runs here (a
spin-wait on another block exhausts the emulator's step budget first).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import Race

# elements of one buffer watched at most (two int64 tables and an int32 one of its size); a larger
# buffer is not watched: no race is reported on it, never a false one
MAX_WATCHED = 1 << 23


@dataclass
class GlobalRace(Race):
    """Two stores of different values to one global location by unordered threads (`thread` and
    `other_thread` are linear indices in their blocks `block` and `other_block`)."""
    other_block: tuple[int, int, int] = (0, 0, 0)

    @property
    def message(self) -> str:
        return (f"global-memory race (write-after-write of different values) on {self.buffer}[{self.index}]: "
                f"thread {self.thread} of block {self.block} at line {self.line} and thread {self.other_thread} "
                f"of block {self.other_block} at line {self.other_line}, nothing ordering them")


class GlobalWrites:
    """The last plain store of each watched global location: its thread (block in the grid *
    padded threads + thread in the block), barrier epoch and line."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.tables: dict[int, tuple] = {}  # id(buffer) -> (buffer, who, epoch, line)
        self.races: list[GlobalRace] = []
        self._keys: set = set()

    def _table(self, buf):
        t = self.tables.get(id(buf))
        if t is None or t[0] is not buf:
            n = buf.data.shape[0]
            t = self.tables[id(buf)] = (buf, np.full(n, -1, np.int64), np.zeros(n, np.int64),
                                        np.zeros(n, np.int32)) if n <= MAX_WATCHED else (buf, None, None, None)
        return t

    def store(self, g, p, addr, v, m, node) -> None:
        """Lanes `m` of group `g` store `v` (converted to the pointer's type) at `addr` of `p`'s
        buffer; called before the store, while the buffer holds what the earlier writes left."""
        buf = p.buf
        if len(self.races) >= 20 or p.dt != buf.data.dtype or not buf.data.flags.writeable:
            return
        _, who, when, lines = self._table(buf)
        if who is None:
            return
        ctx, n = self.ctx, g.n
        me = g._cache.get("global_ids")  # each lane's thread, unique in the grid
        if me is None:
            me = g._cache["global_ids"] = np.ascontiguousarray(
                (np.broadcast_to(g.blk, (n,)) + ctx.batch_start) * ctx.padded_threads + np.broadcast_to(g.ltid_arr, (n,)))
        full = m is g.full or bool(np.all(m))
        sel = None if full else np.flatnonzero(m)
        if sel is not None and not sel.shape[0]:
            return
        if isinstance(addr, np.ndarray) and addr.ndim:
            a = addr if sel is None else addr[sel]
        else:
            a = np.full(n if sel is None else sel.shape[0], addr, np.int64)
        if sel is not None:
            me = me[sel]
        s0 = ctx.mem.ramp(a) if a is addr else None  # contiguous (a[k] = a[0] + k): slices, no duplicates
        at = slice(s0, s0 + a.shape[0]) if s0 is not None else a
        line = ctx.pos(node)[0]
        prev = who[at]
        c = (prev >= 0) & (prev != me)  # (the usual case: first stores, or the thread's own again)
        if c.any():
            k = np.flatnonzero(c)
            k = k[self._unordered(prev[k], me[k], when[a[k]])]
            if k.shape[0]:
                vals = np.broadcast_to(v, (n,))
                new = vals[k] if sel is None else vals[sel[k]]
                k = k[_differ(buf.data[a[k]], new)]
                if k.shape[0]:
                    j = int(k[0])
                    self._report(buf, int(a[j]), int(me[j]), int(prev[j]), line, int(lines[a[j]]))
        if s0 is None and a.shape[0] > 1 and not (a[1:] > a[:-1]).all():  # lanes of this store that write one location
            pos = _arange(a.shape[0])
            lines[a] = pos  # (the line table as scratch: each location's last lane; its line is written below)
            last = lines[a]
            dup = np.flatnonzero(last != pos)
            if dup.shape[0]:
                vals = np.broadcast_to(v, (n,))
                lane = dup if sel is None else sel[dup]
                other = last[dup] if sel is None else sel[last[dup]]
                dup = dup[_differ(vals[lane], vals[other])]
                if dup.shape[0]:
                    j = int(dup[0])
                    self._report(buf, int(a[j]), int(me[j]), int(me[last[j]]), line, line)
        who[at], when[at], lines[at] = me, ctx.epoch, line

    def _unordered(self, prev, me, epoch):
        """Whether the earlier store (thread prev, in barrier epoch `epoch`) and this one (me, now)
        are unordered: another block, or another warp of this block in this barrier epoch."""
        pt, ctx = self.ctx.padded_threads, self.ctx
        other_block = prev // pt != me // pt
        other_warp = (prev % pt) // ctx.W != (me % pt) // ctx.W
        return other_block | (other_warp & (epoch == ctx.epoch))

    def _report(self, buf, index, me, prev, line, other_line):
        key = (buf.name, line, other_line)
        if key in self._keys:
            return
        self._keys.add(key)
        pt, ctx = self.ctx.padded_threads, self.ctx
        self.races.append(GlobalRace(ctx.path, line, other_line, "write-after-write", buf.name, index, me % pt,
                                     prev % pt, _block(ctx.grid, me // pt), _block(ctx.grid, prev // pt)))


def _differ(x, y):
    """Element-wise: the two values differ (NaNs of a float type are equal: the same bytes' worth)."""
    d = x != y
    if x.dtype.kind in "fc":
        d &= ~(np.isnan(x) & np.isnan(y))
    return d


def _arange(n: int) -> np.ndarray:
    return np.arange(n, dtype=np.int32)


def _block(grid, linear: int) -> tuple[int, int, int]:
    return linear % grid[0], linear // grid[0] % grid[1], linear // (grid[0] * grid[1])
