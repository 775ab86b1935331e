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
are told apart by the "block" and "warp" schedules (the oracle's is "block").
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
        ctx = self.ctx
        n = g.n
        m = np.broadcast_to(m, (n,))
        sel = np.flatnonzero(m)
        if not sel.shape[0]:
            return
        a = np.broadcast_to(addr, (n,))[sel].astype(np.int64)
        new = np.broadcast_to(v, (n,))[sel]
        me = (np.broadcast_to(g.blk, (n,))[sel] + ctx.batch_start) * ctx.padded_threads + \
            np.broadcast_to(g.ltid_arr, (n,))[sel]
        line = ctx.pos(node)[0]
        prev = who[a]
        c = (prev >= 0) & (prev != me) & self._unordered(prev, me, when[a])
        if c.any():
            c &= _differ(buf.data[a], new)
            if c.any():
                k = int(np.flatnonzero(c)[0])
                self._report(buf, int(a[k]), int(me[k]), int(prev[k]), line, int(lines[a[k]]))
        if a.shape[0] > 1 and not (a[1:] > a[:-1]).all():  # lanes of this store that write one location
            o = np.argsort(a, kind="stable")
            sa, sv = a[o], new[o]
            dup = (sa[1:] == sa[:-1]) & _differ(sv[1:], sv[:-1])
            if dup.any():
                k = int(np.flatnonzero(dup)[0])
                self._report(buf, int(sa[k]), int(me[o[k + 1]]), int(me[o[k]]), line, line)
        who[a], when[a], lines[a] = me, ctx.epoch, line

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


def _block(grid, linear: int) -> tuple[int, int, int]:
    return linear % grid[0], linear // grid[0] % grid[1], linear // (grid[0] * grid[1])
