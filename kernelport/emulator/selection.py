"""Which lanes of a group a compacted branch runs on: an index array, or `Rows`, the same run of
lanes in every block (`if (tid < k)` in a block tree reduction), gathered and scattered by strided
slices, several times cheaper than indexing with an array of lane numbers."""
from __future__ import annotations

import numpy as np


class Rows:
    """Lanes lo..hi-1 of each of `rows` consecutive runs of `per` lanes (a group's blocks)."""
    __slots__ = ("rows", "per", "lo", "hi", "shape", "_idx")

    def __init__(self, rows: int, per: int, lo: int, hi: int):
        self.rows, self.per, self.lo, self.hi = rows, per, lo, hi
        self.shape = (rows * (hi - lo),)
        self._idx = None

    @property
    def idx(self) -> np.ndarray:
        """The lane numbers (for the few users that need an index array)."""
        if self._idx is None:
            self._idx = (np.arange(self.rows, dtype=np.int64)[:, None] * self.per
                         + np.arange(self.lo, self.hi, dtype=np.int64)).reshape(-1)
        return self._idx


def find_rows(t: np.ndarray, k: int, rows: int):
    """`Rows` if the k set lanes of mask t are one run of lanes repeated in each of `rows` equal
    parts of t, else None.  Work in proportion to k, not to t: the first part locates the run and
    the run's columns of every part must all be set (k of them: then no other lane is)."""
    n = t.shape[0]
    if rows < 2 or n % rows or k % rows:
        return None
    per, c = n // rows, k // rows
    lo = int(np.argmax(t[:per]))
    hi = lo + c
    if hi > per or not t[lo] or not t.reshape(rows, per)[:, lo:hi].all():
        return None
    return Rows(rows, per, lo, hi)


def take(v, sel):
    """v's values at the lanes sel (v unchanged where it is one value for all lanes)."""
    if not (isinstance(v, np.ndarray) and v.ndim):
        return v
    if isinstance(sel, Rows):
        r = v.reshape(sel.rows, sel.per)[:, sel.lo:sel.hi]
        return r.reshape(-1) if sel.hi - sel.lo < sel.per else r.copy().reshape(-1)  # (a copy, as v[idx])
    return v[sel]


def put(out: np.ndarray, sel, x) -> None:
    """out[sel] = x (x: one value per selected lane, or one value for all)."""
    if isinstance(sel, Rows):
        if isinstance(x, np.ndarray) and x.ndim:
            x = x.reshape(sel.rows, sel.hi - sel.lo)
        out.reshape(sel.rows, sel.per)[:, sel.lo:sel.hi] = x
    else:
        out[sel] = x
