"""Addresses that are one run of c consecutive scalars in each of `rows` rows a fixed stride apart
(`s[tid + k]` on the threads tid < k of every block: a compacted branch of a block tree
reduction).  Such an access reads and writes a buffer and the race tables through a strided
view: several times cheaper than indexing with the address array, and no location twice."""
from __future__ import annotations

import numpy as np

MIN_RUN = 32  # shorter runs: the test costs more than indexing saves (measured on the block tree reduction)


class RowSlices:
    """The addresses w0 + r * stride + j + (0..c-1), r < rows: columns j..j+c-1 of the window
    arr[w0 : end] seen as `rows` rows of `stride` scalars (a reshape and a slice: no as_strided call)."""
    __slots__ = ("w0", "j", "stride", "rows", "c", "end")

    def __init__(self, w0: int, j: int, stride: int, rows: int, c: int):
        self.w0, self.j, self.stride, self.rows, self.c = w0, j, stride, rows, c
        self.end = w0 + rows * stride

    def view(self, arr: np.ndarray) -> np.ndarray:
        """arr's scalars at these addresses, as a (rows, c) view (writes go to arr)."""
        return arr[self.w0:self.end].reshape(self.rows, self.stride)[:, self.j:self.j + self.c]

    def get(self, arr: np.ndarray) -> np.ndarray:
        """A copy of arr at these addresses, in lane order (stride > c: never contiguous)."""
        return self.view(arr).reshape(-1)

    def put(self, arr: np.ndarray, v) -> None:
        if isinstance(v, np.ndarray) and v.ndim:
            v = v.reshape(self.rows, self.c)
        self.view(arr)[...] = v


_RUNS: dict = {}


def find_row_slices(a: np.ndarray, rows: int, size: int):
    """RowSlices if the int64 addresses a (lane order) are `rows` runs of equal length, each run
    consecutive and at least MIN_RUN long, the runs a constant stride apart, wider than a run,
    and a window of rows * stride scalars inside 0..size-1 holds them all; else None.  The cheap
    tests (the first and last address of each run) go first."""
    n = a.shape[0]
    if rows < 2 or n % rows or n // rows < MIN_RUN:
        return None
    c = n // rows
    a2 = a.reshape(rows, c)
    first = a2[:, 0]
    s0 = int(first[0])
    stride = int(first[1]) - s0
    if stride <= c or s0 < 0:
        return None
    j = max(0, s0 + rows * stride - size)  # the window ends inside the buffer
    if j > s0 or j + c > stride:
        return None
    if not (np.diff(first) == stride).all() or not (a2[:, -1] - first == c - 1).all():
        return None
    run = _RUNS.get(c)
    if run is None:
        if len(_RUNS) > 32:
            _RUNS.clear()
        run = _RUNS[c] = np.arange(c, dtype=np.int64)
    if not ((a2 - first[:, None]) == run).all():
        return None
    return RowSlices(s0 - j, j, stride, rows, c)


def get_at(arr, at):
    """arr at the addresses `at`: an index array, a slice or a RowSlices."""
    return at.get(arr) if type(at) is RowSlices else arr[at]


def put_at(arr, at, v):
    if type(at) is RowSlices:
        at.put(arr, v)
    else:
        arr[at] = v


_ARANGE: dict = {}


def arange(n, dt):
    """np.arange(n, dtype=dt), cached (read-only: shared by every caller)."""
    k = (n, dt)
    a = _ARANGE.get(k)
    if a is None:
        if len(_ARANGE) > 32 or sum(key[0] for key in _ARANGE) + n > (1 << 22):
            _ARANGE.clear()  # (bounded memory: compacted branches bring many lengths)
        a = np.arange(n, dtype=dt)
        _ARANGE[k] = a
    return a
