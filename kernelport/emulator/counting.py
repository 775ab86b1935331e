"""Opt-in counters of what a run does: memory traffic per buffer and floating-point operations.

    with counting.Counting() as c:
        run_kernel(...)
    c.buffers["x"].read_bytes, c.flops

Off by default: the hooks in memory.py and ops.py test one module global and return.  Memory
counts are exact per active lane (every load, store and atomic, with the distinct elements each
buffer had touched: a run's compulsory traffic).  Floating-point operations are counted per lane
the emulator evaluates them on: in the "thread" schedule every lane is one thread of one block
(branches are taken or not per thread), so the count is exact there up to lanes masked off by a
branch that diverges between blocks; values uniform over the lanes (a scalar computed from
constants) count once per group.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

ACTIVE: "Counting | None" = None


@dataclass
class BufferCount:
    """The bytes one buffer's accesses read and write in an emulated run."""
    name: str
    kind: str  # global | shared | local | const
    itemsize: int
    read_bytes: int = 0
    write_bytes: int = 0
    atomic_ops: int = 0
    read_touched: np.ndarray | None = field(default=None, repr=False)
    write_touched: np.ndarray | None = field(default=None, repr=False)

    def distinct(self, write: bool) -> int:
        """Distinct elements read (or written) at least once: the compulsory traffic in elements."""
        t = self.write_touched if write else self.read_touched
        return 0 if t is None else int(np.count_nonzero(t))


class Counting:
    """Counts what runs inside the `with` block do (one active counter at a time)."""

    def __init__(self):
        self.buffers: dict[tuple[str, str], BufferCount] = {}
        self.flops: dict[str, int] = {}  # numpy float type name -> operations (an FMA counts 2)
        self.special = 0  # transcendental math calls (exp, log, sin, sqrt, ...): special-function units

    def __enter__(self):
        global ACTIVE
        self._prev = ACTIVE
        ACTIVE = self
        return self

    def __exit__(self, *exc):
        global ACTIVE
        ACTIVE = self._prev
        return False

    # -- hooks (memory.py, ops.py) --------------------------------------------------------------
    def access(self, p, m, full, n: int, write: bool, atomic: bool = False):
        buf = p.buf
        key = (buf.kind, buf.name)
        c = self.buffers.get(key)
        if c is None:
            c = self.buffers[key] = BufferCount(buf.name, buf.kind, buf.data.dtype.itemsize)
        addr = p.addr()
        if full or not isinstance(m, np.ndarray) or m.ndim == 0:
            lanes = n if (full or bool(m)) else 0
            sel = addr
        else:
            lanes = int(np.count_nonzero(m))
            sel = addr[m] if isinstance(addr, np.ndarray) and addr.shape == m.shape else addr
        if lanes == 0:
            return
        nbytes = lanes * p.dt.itemsize
        if atomic:
            c.atomic_ops += lanes
            c.read_bytes += nbytes
            c.write_bytes += nbytes
        elif write:
            c.write_bytes += nbytes
        else:
            c.read_bytes += nbytes
        if buf.kind != "global":
            return  # distinct elements matter for device memory only
        size = buf.data.shape[0]
        scale = p.dt.itemsize / buf.data.dtype.itemsize
        idx = np.asarray(sel, np.int64)
        if scale != 1:
            idx = (idx * scale).astype(np.int64)
        idx = idx[(idx >= 0) & (idx < size)] if idx.ndim else (idx if 0 <= idx < size else None)
        if idx is None:
            return
        for w in ((True, False) if atomic else (write,)):
            attr = "write_touched" if w else "read_touched"
            t = getattr(c, attr)
            if t is None:
                t = np.zeros(size, bool)
                setattr(c, attr, t)
            t[idx] = True

    def flop(self, result, ops: int = 1):
        dt = getattr(result, "dtype", None)
        if dt is None or dt.kind != "f":
            return
        k = dt.name
        self.flops[k] = self.flops.get(k, 0) + ops * (result.size if isinstance(result, np.ndarray) else 1)

    def math(self, fn: str, result):
        """A math-library call: min/max/divide 1 flop, exact rounding functions none, the rest
        (exp, log, sin, pow, sqrt, ...) one special-function operation each (fma is counted by
        ops.fma, which it calls)."""
        if fn == "fma":
            return
        if fn in ("fmin", "fmax", "divide"):
            self.flop(result)
        elif fn not in ("fabs", "floor", "ceil", "trunc", "round", "saturate"):
            dt = getattr(result, "dtype", None)
            if dt is not None and dt.kind == "f":
                self.special += result.size if isinstance(result, np.ndarray) else 1

    # -- results --------------------------------------------------------------------------------
    def of_kind(self, kind: str) -> list[BufferCount]:
        return [c for (k, _), c in self.buffers.items() if k == kind]
