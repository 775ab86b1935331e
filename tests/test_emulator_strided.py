"""Compacted branches whose lanes are the same threads of every block (selection.Rows) and accesses
whose addresses are equal runs a stride apart (strided.RowSlices): what they are found for, the
look-alikes they are not, and that races, bounds and results stay as without them."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel
from kernelport.emulator.selection import Rows, find_rows, put, take
from kernelport.emulator.strided import MIN_RUN, find_row_slices


def prefix_mask(rows, per, lo, hi):
    t = np.zeros((rows, per), bool)
    t[:, lo:hi] = True
    return t.reshape(-1)


def test_find_rows_finds_the_same_run_of_threads_in_every_block():
    t = prefix_mask(8, 64, 3, 20)
    r = find_rows(t, int(t.sum()), 8)
    assert isinstance(r, Rows) and (r.lo, r.hi, r.per) == (3, 20, 64)
    assert np.array_equal(r.idx, np.flatnonzero(t))
    v = np.arange(t.shape[0]) * 3
    assert np.array_equal(take(v, r), v[t])
    out = np.zeros_like(v)
    put(out, r, take(v, r))
    assert np.array_equal(out, np.where(t, v, 0))


def test_find_rows_refuses_look_alikes():
    t = prefix_mask(8, 64, 0, 16)
    t[5 * 64 + 3] = False  # one block lacks a thread ...
    t[5 * 64 + 40] = True  # ... and has another: the same count, not the same threads
    assert find_rows(t, int(t.sum()), 8) is None
    gap = prefix_mask(8, 64, 0, 16)
    gap[::64] = False
    gap[16::64] = True  # threads 1..16 of every block: a run need not start at thread 0
    assert isinstance(find_rows(gap, int(gap.sum()), 8), Rows)
    holes = prefix_mask(8, 64, 0, 16)
    holes[2::64] = False
    holes[20::64] = True  # threads 0,1,3..15,20 in every block: not one run
    assert find_rows(holes, int(holes.sum()), 8) is None
    assert find_rows(prefix_mask(8, 64, 0, 16), 128, 1) is None  # one block: nothing to gain


def test_find_row_slices_finds_strided_runs_and_refuses_look_alikes():
    rows, c, stride = 16, MIN_RUN * 2, 256
    a = (np.arange(rows)[:, None] * stride + np.arange(c) + c).reshape(-1)
    rs = find_row_slices(a, rows, rows * stride)
    assert rs is not None
    data = np.arange(rows * stride, dtype=np.float32)
    assert np.array_equal(rs.get(data), data[a])
    rs.put(data, -1.0)
    assert (data[a] == -1).all() and (np.delete(data, a) >= 0).all()
    swapped = a.copy()
    swapped[[5, 6]] = swapped[[6, 5]]  # the same addresses, not in lane order
    assert find_row_slices(swapped, rows, rows * stride) is None
    bent = a.copy()
    bent[c * 3:c * 4] += 1  # one run a scalar later: the stride is not constant
    assert find_row_slices(bent, rows, rows * stride) is None
    assert find_row_slices(a, rows, rows * stride - stride) is None  # past the buffer's end
    short = (np.arange(64)[:, None] * stride + np.arange(MIN_RUN // 2)).reshape(-1)
    assert find_row_slices(short, 64, 64 * stride) is None  # short runs: indexing is cheaper
    dense = np.arange(rows * c)  # runs that touch: a plain contiguous range, not this
    assert find_row_slices(dense, rows, rows * c) is None


TREE = r"""
#define BLOCK 256
__global__ void block_sum(const float* x, float* out, int n) {
    __shared__ float s[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();
    PRELUDE
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (tid < k) s[tid] += s[tid + k];
        BARRIER
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp"])
@pytest.mark.parametrize("prelude", ["", "__syncwarp();"])  # (after a warp sync the tables keep sync counts)
def test_a_block_tree_reduction_on_strided_runs_sums_and_still_races_without_its_barrier(schedule, prelude):
    nb = 8
    x = np.arange(256 * nb, dtype=np.float32) % 17
    args = dict(x=x, out=np.zeros(nb, np.float32), n=x.shape[0])
    tree = TREE.replace("PRELUDE", prelude)
    ok = run_kernel(tree.replace("BARRIER", "__syncthreads();"), "block_sum", args=args, grid=(nb, 1, 1),
                    block=(256, 1, 1), schedule=schedule)
    assert ok.races == []
    assert np.array_equal(ok.outputs["out"], x.reshape(nb, 256).sum(1))
    src = tree.replace("BARRIER", "")
    bad = run_kernel(src, "block_sum", args=args, grid=(nb, 1, 1), block=(256, 1, 1), schedule=schedule)
    line = next(k for k, ln in enumerate(src.split("\n"), 1) if "s[tid] += s[tid + k]" in ln)
    assert bad.races and {(r.line, r.buffer) for r in bad.races} == {(line, "s")}
    # k = 64 reads s[64..127], which threads 64..127 wrote at k = 128: runs of 64 a block apart
    assert any(r.kind == "read-after-write" and 64 <= r.index < 128 and r.thread != r.other_thread
               for r in bad.races)


STRIDED_WRITE = r"""
__global__ void k(float* out, int off) {
    __shared__ float s[256];
    int tid = threadIdx.x;
    s[tid] = 0.0f;
    __syncthreads();
    if (tid < 64) s[tid + off] = 1.0f;
    __syncthreads();
    out[blockIdx.x * 256 + tid] = s[tid];
}
"""


def test_a_strided_run_is_still_bounds_checked_and_written_where_it_points():
    out = np.zeros(256 * 8, np.float32)
    r = run_kernel(STRIDED_WRITE, "k", args=dict(out=out, off=100), grid=(8, 1, 1), block=(256, 1, 1))
    want = np.zeros((8, 256), np.float32)
    want[:, 100:164] = 1.0
    assert np.array_equal(r.outputs["out"].reshape(8, 256), want)
    with pytest.raises(EmulatorError, match=r"out-of-bounds write of shared memory s\[256\].*thread \(56, 0, 0\) "
                                            r"of block \(0, 0, 0\)"):
        run_kernel(STRIDED_WRITE, "k", args=dict(out=out, off=200), grid=(8, 1, 1), block=(256, 1, 1))


BY_BLOCK = r"""
__global__ void k(float* out) {
    __shared__ float s[256];
    int tid = threadIdx.x;
    s[tid] = 1.0f;
    __syncthreads();
    if (tid < 8 * blockIdx.x) s[tid] += s[tid + 128];
    __syncthreads();
    out[blockIdx.x * 256 + tid] = s[tid];
}
"""


def test_a_branch_taken_by_different_threads_in_each_block_is_still_run_on_exactly_those():
    out = np.zeros(256 * 8, np.float32)
    r = run_kernel(BY_BLOCK, "k", args=dict(out=out), grid=(8, 1, 1), block=(256, 1, 1))
    want = np.ones((8, 256), np.float32)
    for b in range(8):
        want[b, :8 * b] = 2.0
    assert np.array_equal(r.outputs["out"].reshape(8, 256), want)
    assert r.races == []


TWO_BUFFERS = r"""
__global__ void k(const float* a, const float* b, float* out) {
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    if (tid < 64) {
        float v = a[i];
        if (blockIdx.x < 7) v += b[i];
        out[i] = v;
    }
}
"""


def test_runs_found_in_one_buffer_are_not_used_past_the_end_of_a_shorter_one():
    # a[i] finds runs inside a (8 blocks); b[i], through the same addresses, holds 7 blocks and
    # the lanes of block 8 are masked off: no access past b's end, and the sums are right
    a = np.arange(256 * 8, dtype=np.float32)
    b = np.full(256 * 7, 1000.0, np.float32)
    r = run_kernel(TWO_BUFFERS, "k", args=dict(a=a, b=b, out=np.zeros_like(a)), grid=(8, 1, 1), block=(256, 1, 1))
    want = np.zeros((8, 256), np.float32)
    want[:, :64] = a.reshape(8, 256)[:, :64]
    want[:7, :64] += 1000.0
    assert np.array_equal(r.outputs["out"].reshape(8, 256), want)
