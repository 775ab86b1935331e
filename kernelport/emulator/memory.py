"""Memory: buffers (global, shared, local), pointers as (buffer, offset array), bounds checks,
ordered atomics, and the shared-memory race detector.

A pointer is a buffer plus, per lane, a region base and an offset in scalars.  Global buffers
have base 0 and one region (the whole argument array); shared buffers hold one region per block
of the batch (base = block slot * region size); local arrays one region per lane.  Bounds are
checked on the offset against the region size, for active lanes only.
"""
from __future__ import annotations

import numpy as np

from . import bfloat16, bitbounds, counting, flips, lane_writes, order as schedule_order, undefined
from .ctype import F64, FLOATS, UNIT_ROUNDOFF, conv
from .errors import EmulatorError, KernelFault, Race, UninitRead
from .race_table import LINE_IDS as _LINE_IDS
from .strided import MIN_RUN, RowSlices, arange as _arange, find_row_slices, get_at as _get, put_at as _put


class Buffer:
    __slots__ = ("name", "data", "_err", "track", "kind", "region", "views", "race", "decl_line", "layout",
                 "shadow", "undef", "cleared", "lanes", "heap")

    def __init__(self, name: str, data: np.ndarray, kind: str, region: int, track_err: bool, decl_line: int = 0):
        self.name = name
        self.data = data
        self.kind = kind  # global | shared | local | const
        self.region = region  # scalars per region (per block for shared, per lane for local)
        # error bounds: allocated at the first inexact store (inputs are exact); float32 for
        # float/half buffers (half the memory traffic), float64 for doubles
        self.track = track_err and (data.dtype in FLOATS or data.dtype == bfloat16.BF16)
        self._err = None
        self.views = {data.dtype: data}
        self.race = None
        self.decl_line = decl_line
        self.shadow = None  # integer memory given float bits: their bounds per byte (bitbounds)
        self.layout = None  # an array of structs' numpy dtype (its C layout): what its bytes hold
        # elements no store reached yet where that is known, whether a store cleared some since, and the per-lane
        # region starts of a local buffer (emulator.undefined)
        self.undef, self.cleared, self.lanes = None, False, None
        self.heap = None  # a device malloc's blocks (emulator.heap): which are freed

    @property
    def err(self):
        return self._err

    def err_for_store(self):
        if self._err is None and self.track:
            self._err = np.zeros(self.data.shape[0], F64 if self.data.dtype == F64 else np.float32)
        return self._err

    def view(self, dt: np.dtype) -> np.ndarray:
        v = self.views.get(dt)
        if v is None:
            raw = self.data.view(np.uint8)
            usable = (raw.shape[0] // dt.itemsize) * dt.itemsize
            v = raw[:usable].view(dt)
            self.views[dt] = v
        return v


class Pointer:
    """A pointer value for all lanes: buffer, element dtype, per-lane base and offset (scalars)."""
    __slots__ = ("buf", "dt", "data", "base", "off", "size", "dims", "_addr", "st")

    def __init__(self, buf: Buffer, dt: np.dtype, base, off, size: int, dims: tuple = (), st=None):
        self.buf = buf
        self.dt = dt
        self.data = buf.view(dt)
        self.base = base  # int or int64 array: first scalar of the lane's region
        self.off = off  # int64 scalar or array: offset in scalars from base
        self.size = size  # region size in scalars of dt
        self.dims = dims  # the pointee is an array of these dims (multi-dimensional arrays)
        self._addr = None
        # a struct in memory (kernelport.emulator.layout): the StructT whose bytes dt=uint8 points
        # at; dims (sizeof,) for a pointer to structs, () for one struct object (`p[i]`)
        self.st = st

    @property
    def stride(self) -> int:
        s = 1
        for d in self.dims:
            s *= d
        return s

    def add(self, k):
        if self.dims:
            k = k * self.stride
        off = self.off
        if not isinstance(off, np.ndarray) and off == 0:
            return Pointer(self.buf, self.dt, self.base, k, self.size, self.dims, self.st)
        return Pointer(self.buf, self.dt, self.base, off + k, self.size, self.dims, self.st)

    def index(self, k):
        """&p[k] when the pointee is an array: the row pointer."""
        off = self.off
        k = k * self.stride
        if not isinstance(off, np.ndarray) and off == 0:
            return Pointer(self.buf, self.dt, self.base, k, self.size, self.dims[1:], self.st)
        return Pointer(self.buf, self.dt, self.base, off + k, self.size, self.dims[1:], self.st)

    def cast(self, dt: np.dtype, dims: tuple = ()):
        if dt == self.dt:
            return Pointer(self.buf, dt, self.base, self.off, self.size, dims)
        a, b = self.dt.itemsize, dt.itemsize
        base = self.base * a // b if not isinstance(self.base, int) or self.base else 0
        return Pointer(self.buf, dt, base, self.off * a // b, self.size * a // b, dims)

    def addr(self):
        a = self._addr
        if a is None:  # (a pointer never changes: a load and a store through it share this)
            a = self._addr = self.off if (isinstance(self.base, int) and self.base == 0) else self.base + self.off
        return a

    def _same_scalars(self) -> bool:
        # the buffer's own type, or a same-size view of it (a float's bits as uint: Metal's
        # atomic CAS loops), whose scalars are the buffer's scalars one for one
        bt = self.buf.data.dtype
        return self.dt == bt or (self.dt.itemsize == bt.itemsize and bt.kind == "f")

    @property
    def err(self):
        e = self.buf._err
        return e if (e is not None and self._same_scalars()) else None

    def err_for_store(self):
        if not self._same_scalars():
            return None
        return self.buf.err_for_store()


def _first_bad(bad: np.ndarray):
    return int(np.flatnonzero(bad)[0])


class Memory:
    """Per-batch memory context: the bounds checker, race detector and atomics of one run."""

    def __init__(self, ctx):
        self.ctx = ctx
        self._ramp = None
        self._rows = [None, None]  # (addresses, RowSlices or None): row_slices' last two answers
        self._checked = None  # (offsets, mask, size) the last bounds check passed
        self._line_ids: dict[int, int] = {}  # source line -> its id in race-table entries
        self._lines: list[int] = []  # id -> line

    # ------------------------------------------------------------------ bounds
    def check(self, g, p: Pointer, m, node, what: str):
        if p.buf.heap is not None:  # a device malloc's block: not freed
            p.buf.heap.check(g, p, m, node, what)
        off = p.off
        if type(off) is undefined.Undef:  # (a located error where a marked lane runs)
            off = undefined.settle_address(p, m, g, node, what)
        if isinstance(off, np.ndarray):
            c = self._checked
            if c is not None and c[0] is off and c[1] is m and c[2] == p.size:
                return  # (the same offsets and lanes just passed: a[i] then b[i], or a store after its load)
            if (m is g.full or off.ndim == 0) and off.size:
                c = self._ramp
                if c is not None and c[0] is off and c[1] is not None:
                    lo, hi = c[1], c[1] + off.shape[0] - 1
                else:
                    lo, hi = off.min(), off.max()
                if lo >= 0 and hi < p.size:
                    self._checked = (off, m, p.size)
                    return
            bad = (off < 0) | (off >= p.size)
            if m is not g.full:
                bad &= m
            if bad.any():
                lane = _first_bad(bad)
                self._oob(g, p, int(off[lane]), lane, node, what)
            self._checked = (off, m, p.size)
        else:
            if (off < 0 or off >= p.size) and m.any():
                lane = _first_bad(m)
                self._oob(g, p, int(off), lane, node, what)

    def _oob(self, g, p, idx, lane, node, what):
        kind = "device-heap" if p.buf.heap else {"global": "global", "shared": "shared", "local": "local",
                                                 "const": "constant"}[p.buf.kind]
        t, b = g.thread_of(lane)
        from .nulls import null_fault
        e = KernelFault(null_fault(idx, what, t, b) or
            f"out-of-bounds {what} of {kind} memory {p.buf.name}[{idx}]: valid indices are 0..{p.size - 1} "
            f"(size {p.size}); thread {t} of block {b}", self.ctx.path, *self.ctx.pos(node))
        e.space = kind
        if kind == "global":
            e.buffer, e.index, e.size = p.buf.name, idx, p.size
        raise e

    # ------------------------------------------------------------------ load / store
    def ramp(self, a):
        """First element if the index array a is contiguous (a[k] = a[0] + k), else None."""
        c = self._ramp
        if c is not None and c[0] is a:
            return c[1]
        n = a.shape[0]
        r = None
        if n > 64:
            s0 = int(a[0])
            if int(a[-1]) - s0 == n - 1:
                ar = _arange(n, a.dtype)
                if np.array_equal(a, ar + a.dtype.type(s0)) if s0 else np.array_equal(a, ar):
                    r = s0
        self._ramp = (a, r)
        return r

    def row_slices(self, g, a, size: int):
        """strided.RowSlices of the addresses a (not contiguous) where g's lanes are the same
        threads of each block, else None.  Cached: the race check after an access asks again, and
        `s[tid] += s[tid + k]` stores through the addresses of its first load."""
        if g.rows < 2 or a.shape[0] < MIN_RUN * g.rows:
            return None  # (one thread of each block, the thread schedule: no runs to find)
        r = self._cached_rows(a)
        if r is False:
            r = find_row_slices(a, g.rows, size)
            self._rows = [(a, r), self._rows[0]]
        return r if r is not None and r.end <= size else None  # (a[i] then b[i]: b may be shorter)

    def _cached_rows(self, a):
        """row_slices' answer for the address array a, or False if it has none."""
        for c in self._rows:
            if c is not None and c[0] is a:
                return c[1]
        return False

    def load(self, g, p: Pointer, m, node, track: bool):
        self.check(g, p, m, node, "read")
        if counting.ACTIVE is not None:
            counting.ACTIVE.access(p, m, m is g.full, g.n, write=False)
        if schedule_order.WATCH is not None:
            schedule_order.WATCH.access(g, p, m, write=False)
        addr = p.addr()
        if self.ctx.writes is not None and p.buf.kind == "global":  # (global_races: read-write races)
            self.ctx.writes.reads.load(g, p, addr, m, node)
        data = p.data
        e = None
        err = p.err if track else None
        if isinstance(addr, np.ndarray):
            s0 = self.ramp(addr)
            if s0 is not None and s0 >= 0 and s0 + addr.shape[0] <= data.shape[0]:
                n = addr.shape[0]
                # a read-only buffer (a const input) is never written: a view is a snapshot
                v = data[s0: s0 + n] if not data.flags.writeable else data[s0: s0 + n].copy()
                if err is not None:
                    e = err[s0: s0 + n].copy()
            elif s0 is None and g.rows and (rs := self.row_slices(g, addr, data.shape[0])) is not None:
                v = rs.get(data)  # (every lane's address is inside the buffer: read them all)
                if err is not None:
                    e = rs.get(err)
            else:
                full = m is g.full
                v = data.take(addr) if full else data.take(addr, mode="clip")
                if err is not None:
                    e = err.take(addr) if full else err.take(addr, mode="clip")
        else:
            v = data[addr]
            if g.n > 1 and p.buf.kind == "local":
                v = np.full(g.n, v)
            if err is not None:
                e = err[addr]
        if track and e is None and (p.buf.shadow is not None or (p.buf._err is not None and not p._same_scalars())):
            e = bitbounds.load(g, p, addr, node)  # (a float buffer read as integers: its bits' bounds)
        if p.buf.race is not None:
            self.race_access(g, p, addr, m, node, write=False)
        if p.dt == bfloat16.BF16:  # its bytes -> the float32 it holds (a bfloat16: bfloat16.held)
            v = bfloat16.held(bfloat16.to_float(v))
        if p.buf.undef is not None:
            v = undefined.loaded(p, addr, v, m, g)
        return v, e

    def store(self, g, p: Pointer, val, m, node, track: bool):
        v, e = val
        if self.ctx.flip_any:  # (a lane a comparison within its operands' bounds decided: emulator.flips)
            v, e = flips.stored(g, v, e, m, p.dt, track)
        self.check(g, p, m, node, "write")
        und = None  # the marks of values never written this store clears beside the data (emulator.undefined)
        if type(v) is undefined.Undef or p.buf.undef is not None:
            v, und = undefined.stored(self.ctx, g, p, p.addr(), v, m, node)
        if track and (e is not None or p.buf._err is not None or p.buf.shadow is not None) and \
                (not p.buf.track or not p._same_scalars()):
            bitbounds.store(g, p, p.addr(), np.asarray(v), e, m, node)  # (bits into another type's memory)
        if counting.ACTIVE is not None:
            counting.ACTIVE.access(p, m, m is g.full, g.n, write=True)
        if schedule_order.WATCH is not None:
            schedule_order.WATCH.access(g, p, m, write=True)
        addr = p.addr()
        data = p.data
        if p.dt == bfloat16.BF16:  # rounded to nearest even into its two bytes (the rounding: the store's error)
            v, e = bfloat16.store(v, e, track and p.err_for_store() is not None)
        else:
            v = conv(v, p.dt)
        if self.ctx.writes is not None and p.buf.kind == "global":  # (global_races: before the store)
            self.ctx.writes.store(g, p, addr, v, m, node)
        if p.buf.race is not None:  # (before the store: lane_writes compares a lane's value with memory's)
            self.race_access(g, p, addr, m, node, write=True, v=v)
        err = p.err_for_store() if (track and (e is not None or p.err is not None)) else None
        full = m is g.full or m.all()
        if full:
            if isinstance(addr, np.ndarray):
                s0 = self.ramp(addr)
                if s0 is not None:
                    n = addr.shape[0]
                    data[s0: s0 + n] = v
                    if err is not None:
                        err[s0: s0 + n] = 0.0 if e is None else e
                    if und is not None:
                        und[s0: s0 + n] = False
                elif g.rows and (rs := self.row_slices(g, addr, data.shape[0])) is not None:
                    rs.put(data, v)
                    if err is not None:
                        rs.put(err, 0.0 if e is None else e)
                    if und is not None:
                        rs.put(und, False)
                else:
                    data[addr] = v
                    if und is not None:
                        und[addr] = False
                    if err is not None:
                        err[addr] = 0.0 if e is None else e
            else:
                data[addr] = v[-1] if isinstance(v, np.ndarray) and v.ndim else v
                if und is not None:
                    und[addr] = False
                if err is not None:
                    err[addr] = (e[-1] if isinstance(e, np.ndarray) and e.ndim else e) if e is not None else 0.0
        else:
            sel = np.flatnonzero(m)
            a = addr[sel] if isinstance(addr, np.ndarray) else addr
            arr_v = isinstance(v, np.ndarray) and v.ndim
            if isinstance(a, np.ndarray):
                data[a] = v[sel] if arr_v else v
            else:
                data[a] = v[sel[-1]] if arr_v else v
            if und is not None:
                und[a] = False
            if err is not None:
                if e is None:
                    err[a] = 0.0
                elif isinstance(e, np.ndarray) and e.ndim:
                    err[a] = e[sel] if isinstance(a, np.ndarray) else e[sel[-1]]
                else:
                    err[a] = e

    # ------------------------------------------------------------------ race detector
    def race_access(self, g, p: Pointer, addr, m, node, write: bool, v=None):
        """Check one access against the last write (and, for a write, the last read) of each
        location in this barrier epoch, then record it.  An entry is -1 or
        (stamp << rt.shift) | (line id << rt.tbits) | thread (RaceTable); an entry whose stamp is
        not the table's current one was made in an earlier epoch and races with nothing (no table
        is cleared at a barrier).  A write is checked before it lands, v its value (lane_writes)."""
        rt = p.buf.race
        ctx = self.ctx
        if rt.epoch != ctx.epoch:
            rt.next_epoch(ctx.epoch)
        n = g.n
        sel = None if (m is g.full or m.all()) else np.flatnonzero(m)
        line = ctx.pos(node)[0]
        lid = self._line_ids.get(line)
        if lid is None:  # (the 1024th and later lines of a run share the last id)
            lid = self._line_ids[line] = min(len(self._lines), _LINE_IDS - 1)
            if len(self._lines) < _LINE_IDS:
                self._lines.append(line)
        tb, tm = rt.tbits, rt.tmask
        rec = g.race_rec((rt.stamp << rt.shift) | (lid << tb))  # per lane (one value where uniform)
        if not isinstance(addr, np.ndarray):
            a = np.full(n if sel is None else sel.shape[0], addr, np.int64)
        else:
            a = addr if sel is None else addr[sel]
        if sel is not None and isinstance(rec, np.ndarray):
            rec = rec[sel]
        if p.dt != p.buf.data.dtype:
            scale = p.dt.itemsize / p.buf.data.dtype.itemsize
            a = (a * scale).astype(np.int64) if scale != 1 else a
            if a.shape[0] and (a.min() < 0 or a.max() >= rt.size):
                a = np.clip(a, 0, rt.size - 1)
        # (same type: the bounds check has put every active lane's address inside the buffer)
        # Contiguous addresses (the load or store just found them: a[k] = a[0] + k) are a slice of
        # each table, read as a view and written in place, and never hold one location twice.
        s0 = self.ramp(a)
        at = a if s0 is None else slice(s0, s0 + a.shape[0])
        # addresses in equal runs a stride apart (a compacted branch's s[tid + k]): strided views
        if s0 is None and (rs := self.row_slices(g, a, rt.size)) is not None:
            at = rs
        W = g.W
        now = rt.stamp << rt.shift  # the least entry of this epoch (a Python int: no widening)
        # warp-sync counts matter only once some warp of the batch has synchronised (until then
        # every count is 0, in the table and now)
        use_ws = ctx.wsync_used
        ws = None
        if use_ws:
            wsi = g.wsync_idx
            if sel is not None:
                wsi = wsi[sel]
            ws = ctx.wsync[wsi]

        def conflicts(tbl, ws_arr):
            ent = _get(tbl, at)
            c = ent != rec  # (the same thread at the same line this epoch: no conflict, the usual case)
            if not c.any():
                return c, ent
            c &= ent >= now  # an access this epoch ...
            c &= ((ent ^ rec) & tm) != 0  # ... by another thread
            if use_ws and c.any():
                same_warp = ((ent & tm) // W) == ((rec & tm) // W)
                c &= ~(same_warp & (_get(ws_arr, at) != ws))
            return c, ent

        def thread(k):
            return int(np.broadcast_to(rec, a.shape)[k]) & tm

        # (a table nothing was recorded in this epoch holds no conflicts)
        ent = None
        same = p.dt == p.buf.data.dtype  # (a lane's value is comparable with memory's)
        vals = (lambda: np.broadcast_to(v, (n,))[slice(None) if sel is None else sel]) if write and same else None
        if rt.w_dirty:
            c, ent = conflicts(rt.w, rt.w_ws)
            if vals is not None and g.mode == "thread" and c.any():  # a warp's store, lane by lane
                c &= ~lane_writes.own_warp_same_value(ent, rec, tm, W, (_LINE_IDS - 1) << tb, _get(p.data, at), vals())
            if c.any():
                k = _first_bad(c)
                e = int(ent[k])
                self._race(g, p, rt, "write-after-write" if write else "read-after-write", int(a[k]),
                           thread(k), e & tm, line, self._line_of(rt, e), sel, k)
        if write:
            rt.w_dirty = True
            c, ent = conflicts(rt.r, rt.r_ws) if rt.r_dirty else (None, None)
            if c is not None and c.any():
                k = _first_bad(c)
                e = int(ent[k])
                self._race(g, p, rt, "write-after-read", int(a[k]), thread(k), e & tm, line,
                           self._line_of(rt, e), sel, k)
            _put(rt.w, at, rec)
            if use_ws:
                _put(rt.w_ws, at, ws)
            if at is a and a.shape[0] > 1 and not (a[1:] > a[:-1]).all() and (rt.w[a] != rec).any():
                # lanes of this store on one location: the last lane's write is kept (lane_writes: the policy)
                warps = (np.broadcast_to(rec, a.shape) & tm) // W
                for kind, (k, j) in lane_writes.clashes(a, vals and vals(), warps, False).items():
                    self._race(g, p, rt, kind, int(a[k]), thread(k), thread(j), line, line, sel, k)
        else:
            if not rt.cleared and len(rt.unwritten) < 64:  # (never written: -1 until the stamps run out)
                unwritten = (_get(rt.w, at) if ent is None else ent) == -1  # (the write table read above)
                if unwritten.any():  # settled when the batch ends: a write later in this epoch is a race
                    k = _first_bad(unwritten)
                    lane = int(sel[k]) if sel is not None else k
                    rt.unwritten.append((int(a[k]), thread(k), line, g.thread_of(lane)[1]))
            rt.r_dirty = True
            _put(rt.r, at, rec)
            if use_ws:
                _put(rt.r_ws, at, ws)

    def settle_unwritten(self, buf: Buffer) -> None:
        """At a batch's end: each read of a location no thread had written when it ran, whose location no
        thread wrote afterwards either (a later write in the read's epoch is a race, reported as one)."""
        rt = buf.race
        for addr, t, line, b in rt.unwritten:
            if not rt.cleared and rt.w[addr] == -1:
                self._race_at(buf, "read-before-write", addr, t, t, line, line, b)
        rt.unwritten.clear()

    def _line_of(self, rt, entry: int) -> int:
        return self._lines[(entry >> rt.tbits) & (_LINE_IDS - 1)]

    def _race(self, g, p, rt, kind, addr, t, ot, line, oline, sel, k):
        ctx = self.ctx
        key = (p.buf.name, line, oline, kind)
        if key in ctx.race_keys or len(ctx.races) >= 50:
            return
        lane = int(sel[k]) if sel is not None else k
        _, b = g.thread_of(lane)
        self._race_at(p.buf, kind, addr, t, ot, line, oline, b)

    def _race_at(self, buf, kind, addr, t, ot, line, oline, b):
        ctx = self.ctx
        key = (buf.name, line, oline, kind)
        if key in ctx.race_keys or len(ctx.races) >= 50:
            return
        ctx.race_keys.add(key)
        ctx.races.append((UninitRead if kind == "read-before-write" else Race)(
            ctx.path, line, oline, kind, buf.name, addr % max(buf.region, 1), t, ot, b))

    # ------------------------------------------------------------------ atomics
    def atomic(self, g, op: str, p: Pointer, val, m, node, track: bool, compare=None):
        """Atomic read-modify-write in lane order (deterministic); returns the old values.

        op "load" is an atomic load (no write)."""
        self.check(g, p, m, node, "atomic access")
        val, compare = (undefined.atomic_operand(x, m, g, node) for x in (val, compare))
        if counting.ACTIVE is not None:
            counting.ACTIVE.access(p, m, m is g.full, g.n, write=op != "load", atomic=op != "load")
        if schedule_order.WATCH is not None:
            schedule_order.WATCH.access(g, p, m, write=op != "load")
        w = self.ctx.writes  # (global_races: an exchange watched as a store, every atomic a sync)
        if w is not None:
            w.atomics.before(g, op, p, conv(val[0], p.dt) if op == "exch" else None, m, node)
        if op == "load":
            addr = p.addr()
            full = m is g.full
            if isinstance(addr, np.ndarray):
                v = p.data.take(addr) if full else p.data.take(addr, mode="clip")
            else:
                v = p.data[addr]
            err = p.err if track else None
            e = None
            if err is not None:
                e = err.take(addr) if (full or not isinstance(addr, np.ndarray)) else err.take(addr, mode="clip")
            return v, e
        v, e = val
        v = conv(v, p.dt)
        data = p.data
        addr = np.broadcast_to(p.addr(), (g.n,))
        sel = np.flatnonzero(m) if not (m is g.full) else None
        a = addr if sel is None else addr[sel]
        vv = np.broadcast_to(v, (g.n,)) if not isinstance(v, np.ndarray) or v.ndim == 0 else v
        vv = vv if sel is None else vv[sel]
        cc = None
        if compare is not None:
            cv = conv(compare[0], p.dt)
            cc = np.broadcast_to(cv, (g.n,)) if not isinstance(cv, np.ndarray) or cv.ndim == 0 else cv
            cc = cc if sel is None else cc[sel]
        ee = None
        err = p.err_for_store() if track else None
        if err is not None and e is not None:
            ee = np.broadcast_to(np.asarray(e, F64), (g.n,))
            ee = ee if sel is None else ee[sel]
        k = a.shape[0]
        old = np.empty(k, p.dt)
        if k == 0:
            return np.zeros(g.n, p.dt), None
        # the error bounds of the old values (compare-and-swap loops carry them on)
        olde = np.zeros(k, F64) if (err is not None and op in ("cas", "exch")) else None
        order = np.argsort(a, kind="stable")
        sa = a[order]
        first = np.empty(k, bool)
        first[0] = True
        np.not_equal(sa[1:], sa[:-1], out=first[1:])
        starts = np.flatnonzero(first)
        u = UNIT_ROUNDOFF.get(p.dt, 0.0)
        if starts.shape[0] == k:  # no conflicts: one vectorised round
            self._round(op, data, a, vv, cc, old, slice(None), err, ee, u, olde)
        elif op in ("add", "sub", "min", "max", "and", "or", "xor") and starts.shape[0] * 4 < k:
            # few addresses, long chains: accumulate each address's chain in lane order
            ufunc = {"add": np.add, "sub": np.add, "min": np.minimum, "max": np.maximum, "and": np.bitwise_and,
                     "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
            ends = np.r_[starts[1:], k]
            for s0, s1 in zip(starts.tolist(), ends.tolist()):
                idx = order[s0:s1]
                ad = int(sa[s0])
                seq = np.empty(s1 - s0 + 1, p.dt)
                seq[0] = data[ad]
                seq[1:] = -vv[idx] if op == "sub" else vv[idx]
                acc = ufunc.accumulate(seq, dtype=p.dt)
                old[idx] = acc[:-1]
                data[ad] = acc[-1]
                if err is not None and op in ("add", "sub"):
                    err[ad] += (ee[idx].sum() if ee is not None else 0.0) + u * float(np.abs(acc[1:]).sum(dtype=F64))
        else:
            rank_sorted = np.arange(k) - np.repeat(starts, np.diff(np.r_[starts, k]))
            rank = np.empty(k, np.int64)
            rank[order] = rank_sorted
            for r in range(int(rank_sorted.max()) + 1):
                s = np.flatnonzero(rank == r)
                self._round(op, data, a[s], vv[s], None if cc is None else cc[s], old, s, err,
                            None if ee is None else ee[s], u, olde)
        if w is not None and op == "cas":
            w.atomics.cas(g, p, a, sel, cc, vv, old, node)
        if sel is None:
            res, rese = old, olde
        else:
            res = np.zeros(g.n, p.dt)
            res[sel] = old
            rese = None
            if olde is not None:
                rese = np.zeros(g.n, F64)
                rese[sel] = olde
        return res, rese

    @staticmethod
    def _round(op, data, a, v, c, old, where, err, ee, u, olde=None):
        cur = data[a]
        old[where] = cur
        if olde is not None:
            olde[where] = err[a]
        if op == "add":
            new = cur + v
        elif op == "sub":
            new = cur - v
        elif op == "min":
            new = np.minimum(cur, v)
        elif op == "max":
            new = np.maximum(cur, v)
        elif op == "and":
            new = cur & v
        elif op == "or":
            new = cur | v
        elif op == "xor":
            new = cur ^ v
        elif op == "exch":
            new = v
        elif op == "cas":
            hit = cur == c
            new = np.where(hit, v, cur)
        elif op == "inc":
            new = np.where(cur >= v, 0, cur + 1).astype(data.dtype)
        elif op == "dec":
            new = np.where((cur == 0) | (cur > v), v, cur - 1).astype(data.dtype)
        else:
            raise ValueError(op)
        data[a] = new
        if err is not None:
            if op in ("add", "sub"):
                err[a] = err[a] + (0.0 if ee is None else ee) + u * np.abs(new.astype(F64))
            elif op in ("exch",):
                err[a] = 0.0 if ee is None else ee
            elif op == "cas":
                err[a] = np.where(hit, 0.0 if ee is None else ee, err[a])
