"""Read-write races on global memory (emulator.global_races' second watch): a thread reads a
location whose value an unordered thread's store changed (read-after-write: a GPU may run the read
first and see the old value), or a store changes a value an unordered thread read before it in the
emulator's order (write-after-read: a GPU may run the store first and hand the reader the new
value).  "Unordered" is GlobalWrites.unordered's: another block, or another warp of the block in
the same barrier epoch, while neither block has fenced or run an atomic.  A store that leaves the
value as it was races with no read (`*flag = 1` over a 1).

Per watched buffer, two tables of its size, made when first needed: the last store that changed
each location (thread, epoch, line), and the threads that read it in its last read epoch, as the
lowest and highest thread (the readers of one location all lie between them: if both are in the
writer's warp, so is every reader; if one is not, that one is unordered with it).  Readers of an
older epoch are forgotten when the location is read again (a missed race, never a false one).
"""
from __future__ import annotations

import numpy as np

from .global_races import MAX_WATCHED
from .lane_writes import differ as _differ

_NONE = np.iinfo(np.int64).max


class GlobalReads:
    def __init__(self, writes):
        self.w = writes
        self.changed: dict[int, tuple] = {}  # id(buffer) -> (buffer, who, epoch, line)
        self.readers: dict[int, tuple] = {}  # id(buffer) -> (buffer, lowest, highest, epoch, line)

    @staticmethod
    def _get(tables, buf, make):
        t = tables.get(id(buf))
        if t is None or t[0] is not buf:
            t = tables[id(buf)] = (buf, *make(buf.data.shape[0]))
        return t

    def written(self, buf, a, at, me, new, line) -> None:
        """Lanes (threads me) store `new` at addresses a (`at`: a's slice where contiguous), before the
        store: those that change a value an unordered thread read race; they are the values' last
        changes now."""
        if buf.data.shape[0] > MAX_WATCHED:
            return
        k = np.flatnonzero(_differ(buf.data[at], new))
        if not k.shape[0]:
            return
        every = k.shape[0] == a.shape[0]  # (the usual case: each lane changes its location; `at` indexes them)
        ak, mk = (at, me) if every else (a[k], me[k])
        r = self.readers.get(id(buf))
        if r is not None and r[0] is buf:
            _, lo, hi, when, lines = r
            lw, hw = lo[ak], hi[ak]
            has = np.flatnonzero((lw != -1) & ((lw != mk) | (hw != mk)))  # (read only by the storing thread: ordered)
            if every:
                ak = a
            if has.shape[0]:
                ah, mh = ak[has], mk[has]
                lw, hw, ew = lo[ah], hi[ah], when[ah]
                ul = self.w.unordered(lw, mh, ew)
                hit = np.flatnonzero(ul | self.w.unordered(hw, mh, ew))
                if hit.shape[0]:
                    j = int(hit[0])
                    other = lw[j] if ul[j] else hw[j]
                    self.w.report("write-after-read", buf, int(ah[j]), int(mh[j]), int(other), line, int(lines[ah[j]]))
        _, who, when, lines = self._get(self.changed, buf, _change_table)
        at = at if every else a[k]
        who[at], when[at], lines[at] = mk, self.w.ctx.epoch, line

    def load(self, g, p, addr, m, node) -> None:
        """Lanes m of g read p at addr: a value an unordered thread changed races; record the readers."""
        buf, w = p.buf, self.w
        if not w.watched(p) or buf.data.shape[0] > MAX_WATCHED:
            return
        got = w.lanes(g, addr, m)
        if got is None:
            return
        sel, a, me = got
        ctx = w.ctx
        line, ep = ctx.pos(node)[0], ctx.epoch
        scalar = not (isinstance(addr, np.ndarray) and addr.ndim)
        s0 = ctx.mem.ramp(a) if a is addr else None
        at = slice(s0, s0 + a.shape[0]) if s0 is not None else a
        c = self.changed.get(id(buf))
        if c is not None and c[0] is buf:
            _, who, cwhen, clines = c
            prev = who[at]
            x = np.flatnonzero((prev >= 0) & (prev != me))
            if x.shape[0]:
                x = x[w.unordered(prev[x], me[x], cwhen[a[x]])]
                if x.shape[0]:
                    j = int(x[0])
                    w.report("read-after-write", buf, int(a[j]), int(me[j]), int(prev[j]), line, int(clines[a[j]]))
        _, lo, hi, when, lines = self._get(self.readers, buf, _reader_table)
        if scalar:  # one location, every lane (u[0] read by all)
            i, mn, mx = int(addr), int(me.min()), int(me.max())
            if when[i] != ep or lo[i] == -1:
                lo[i], hi[i], lines[i] = mn, mx, line
            else:
                lo[i], hi[i] = min(int(lo[i]), mn), max(int(hi[i]), mx)
            when[i] = ep
        elif s0 is not None:  # distinct locations, one reader each
            old = when[at] != ep
            lo[at] = np.where(old, me, np.minimum(lo[at], me))
            hi[at] = np.where(old, me, np.maximum(hi[at], me))
            lines[at] = np.where(old, line, lines[at])
            when[at] = ep
        else:
            fresh = a[when[a] != ep]
            lo[fresh], hi[fresh], lines[fresh] = _NONE, -1, line
            when[a] = ep
            np.minimum.at(lo, a, me)
            np.maximum.at(hi, a, me)


def _change_table(n: int):
    return np.full(n, -1, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int32)


def _reader_table(n: int):
    return np.full(n, -1, np.int64), np.full(n, -1, np.int64), np.full(n, -1, np.int64), np.zeros(n, np.int32)
