"""The shared-memory race detector: barrier epochs (stamped table entries, never cleared at a
barrier), the lines a report names, warp syncs at wave 32 and 64; and the bounds check a
compound assignment's store shares with its load."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.race_table import RaceTable

_MAX_STAMP = RaceTable(1, 1024).max_stamp  # (blocks of up to 1024 threads)


def line_of(src: str, needle: str) -> int:
    return next(k for k, ln in enumerate(src.split("\n"), 1) if needle in ln)


TREE = r"""
#define BLOCK 64
__global__ void block_sum(const float* x, float* out, int n) {
    __shared__ float s[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (tid < k) s[tid] += s[tid + k];
        BARRIER
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
@pytest.mark.parametrize("wave", [32, 64])
def test_a_tree_reduction_without_its_loop_barrier_races_and_with_it_does_not(schedule, wave):
    x = np.arange(256, dtype=np.float32)
    args = dict(x=x, out=np.zeros(4, np.float32), n=256)
    ok = run_kernel(TREE.replace("BARRIER", "__syncthreads();"), "block_sum", args=args, grid=(4, 1, 1),
                    block=(64, 1, 1), wave=wave, schedule=schedule)
    assert ok.races == []
    assert np.array_equal(ok.outputs["out"], x.reshape(4, 64).sum(1))
    src = TREE.replace("BARRIER", "")
    bad = run_kernel(src, "block_sum", args=args, grid=(4, 1, 1), block=(64, 1, 1), wave=wave, schedule=schedule)
    line = line_of(src, "s[tid] += s[tid + k]")
    assert bad.races, "a later iteration reads s[tid + k] that another thread wrote with no barrier between"
    assert {(r.line, r.other_line, r.buffer) for r in bad.races} == {(line, line, "s")}
    assert {r.kind for r in bad.races} <= {"read-after-write", "write-after-read", "write-after-write"}
    assert all(r.thread != r.other_thread for r in bad.races)


TWO_LINES = r"""
__global__ void k(float* out) {
    __shared__ float s[32];
    int t = threadIdx.x;
    float v = s[(t + 1) % 32];
    s[t] = v + 1.0f;
    SYNC
    out[t] = s[(t + 5) % 32];
}
"""


def test_a_report_names_the_line_of_each_access():
    r = run_kernel(TWO_LINES.replace("SYNC", ""), "k", args=dict(out=np.zeros(32, np.float32)), grid=(1, 1, 1),
                   block=(32, 1, 1))
    read, write, late = (line_of(TWO_LINES, s) for s in ("float v = s[", "s[t] = v", "out[t] = s["))
    got = {(x.kind, x.line, x.other_line) for x in r.races}
    # thread t+1 writes s[t+1] after thread t read it; thread t reads s[t+5] that thread t+5 wrote
    assert got == {("write-after-read", write, read), ("read-after-write", late, write)}
    r = run_kernel(TWO_LINES.replace("SYNC", "__syncthreads();"), "k", args=dict(out=np.zeros(32, np.float32)),
                   grid=(1, 1, 1), block=(32, 1, 1))
    assert {(x.kind, x.line, x.other_line) for x in r.races} == {("write-after-read", write, read)}


WARP_HALVES = r"""
__global__ void k(float* out) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = t;
    __syncwarp();
    out[t] = s[(t + 32) % 64];
}
"""


def test_a_syncwarp_orders_one_wave_of_64_but_not_two_warps_of_32():
    for schedule in ("block", "warp", "thread"):
        one = run_kernel(WARP_HALVES, "k", args=dict(out=np.zeros(64, np.float32)), grid=(2, 1, 1), block=(64, 1, 1),
                         wave=64, schedule=schedule)
        assert one.races == [], schedule
        two = run_kernel(WARP_HALVES, "k", args=dict(out=np.zeros(64, np.float32)), grid=(2, 1, 1), block=(64, 1, 1),
                         wave=32, schedule=schedule)
        read, write = line_of(WARP_HALVES, "out[t] ="), line_of(WARP_HALVES, "s[t] = t")
        # (the warp schedule may run warp 1 first: its reads, then warp 0's writes)
        assert two.races and {(x.kind, x.line, x.other_line) for x in two.races} <= {
            ("read-after-write", read, write), ("write-after-read", write, read)}, schedule


MANY_BARRIERS = r"""
__global__ void k(float* out, int iters) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = t;
    float v = 0.0f;
    for (int j = 0; j < iters; j++) {
        __syncthreads();
        s[32 + t] = v;
        v += s[(t + 1) % 32];
        __syncthreads();
    }
    s[t] = v;
    out[t] = s[(t + 3) % 32];
}
"""


def test_stamps_that_run_out_clear_the_tables_and_races_are_still_found():
    iters = _MAX_STAMP + 40  # more epochs that record an access than stamps: the tables are cleared once
    r = run_kernel(MANY_BARRIERS, "k", args=dict(out=np.zeros(32, np.float32), iters=iters), grid=(1, 1, 1),
                   block=(32, 1, 1))
    # (an entry left from before the clear, s[t] of the first epoch, would read as current when
    # its stamp comes round again: a race in the loop)
    assert {(x.kind, x.line, x.other_line) for x in r.races} == {
        ("read-after-write", line_of(MANY_BARRIERS, "out[t] ="), line_of(MANY_BARRIERS, "s[t] = v;"))}
    t = np.arange(32)
    assert np.array_equal(r.outputs["out"], (iters * ((t + 4) % 32)).astype(np.float32))  # lockstep: writes first


def test_a_table_entry_of_an_earlier_stamp_is_not_current_and_the_last_stamp_clears():
    rt = RaceTable(4, 256)
    assert (rt.tbits, rt.shift, rt.max_stamp) == (10, 20, _MAX_STAMP) == (10, 20, 2047)
    rt.w[1] = 7  # thread 7, line id 0, stamp 0
    rt.w_dirty = True
    rt.next_epoch(1)
    assert rt.stamp == 1 and not rt.w_dirty and int(rt.w[1]) == 7  # kept, but of stamp 0 (< 1 << 20)
    rt.next_epoch(2)  # nothing recorded in epoch 1: the stamp need not move
    assert rt.stamp == 1
    rt.stamp = _MAX_STAMP
    rt.r[2] = (_MAX_STAMP << 20) | (5 << 10) | 3
    rt.r_dirty = True
    rt.next_epoch(3)
    assert rt.stamp == 0 and (rt.w == -1).all() and (rt.r == -1).all()


LONG_EPOCH = r"""
__global__ void k(float* out, int iters) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[32 + t] = t;
    for (int j = 0; j < iters; j++) s[t] += 1.0f;
    out[t] = s[32 + (t + 1) % 32];
}
"""


def test_a_long_epoch_still_names_the_earlier_line():
    # no barrier: thousands of s[t] += 1 in the epoch of the write of s[32 + t], whose line the race names
    iters = 3000
    r = run_kernel(LONG_EPOCH, "k", args=dict(out=np.zeros(32, np.float32), iters=iters), grid=(1, 1, 1),
                   block=(32, 1, 1))
    assert {(x.kind, x.line, x.other_line) for x in r.races} == {
        ("read-after-write", line_of(LONG_EPOCH, "out[t] ="), line_of(LONG_EPOCH, "s[32 + t] = t"))}
    assert np.array_equal(r.outputs["out"], ((np.arange(32) + 1) % 32).astype(np.float32))


BOUNDS = r"""
__global__ void k(float* a, int lo, int hi) {
    int t = threadIdx.x;
    if (t >= lo) a[t] += 1.0f;
    if (t < hi) a[t + 1] = a[t];
}
"""


def test_a_store_after_a_checked_load_is_still_bounds_checked():
    from kernelport.emulator import EmulatorError
    a = np.zeros(32, np.float32)
    # the compound assignment's store reuses its load's check (same offsets, same lanes) ...
    r = run_kernel(BOUNDS, "k", args=dict(a=a, lo=0, hi=31), grid=(1, 1, 1), block=(32, 1, 1))
    assert r.outputs["a"][0] == 1.0 and r.outputs["a"][31] == 1.0
    # ... but a store through other offsets (t + 1 at thread 31) is checked on its own
    with pytest.raises(EmulatorError, match=r"out-of-bounds write of global memory a\[32\]"):
        run_kernel(BOUNDS, "k", args=dict(a=a, lo=0, hi=32), grid=(1, 1, 1), block=(32, 1, 1))


def test_a_block_too_large_to_tell_its_threads_apart_is_a_located_error():
    from kernelport.emulator import EmulatorError
    src = "__global__ void k(float* a) {\n    __shared__ float s[4];\n    s[0] = a[0];\n}\n"
    with pytest.raises(EmulatorError, match=r"2\^20 threads") as ei:
        run_kernel(src, "k", args=dict(a=np.zeros(1, np.float32)), grid=(1, 1, 1), block=((1 << 20) + 1, 1, 1))
    assert ei.value.line == 1
    # without race detection the same launch runs
    r = run_kernel(src, "k", args=dict(a=np.ones(1, np.float32)), grid=(1, 1, 1), block=((1 << 20) + 1, 1, 1),
                   check_races=False)
    assert r.races == [] and r.outputs["a"][0] == 1.0


THREADS = r"""
__global__ void k(float* out) {
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = 0.0f;
    __syncthreads();
    if (t == 9) out[0] = s[40];
    if (t == 5) s[40] = 1.0f;
    if (t == 12) out[1] = s[40];
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp"])
def test_a_report_names_the_thread_of_each_access(schedule):
    """After a barrier, on a line that is not the first to touch s: thread 5 writes s[40] after thread 9
    read it, and thread 12 reads it after thread 5's write (threads in lockstep, statement by
    statement); each report names both threads."""
    r = run_kernel(THREADS, "k", args=dict(out=np.zeros(2, np.float32)), grid=(1, 1, 1), block=(64, 1, 1),
                   schedule=schedule)
    got = {(x.kind, x.thread, x.other_thread) for x in r.races}
    assert got == {("write-after-read", 5, 9), ("read-after-write", 12, 5)}


ORDERS = r"""
__global__ void k(float* out) {
    __shared__ float s[64];
    unsigned t = threadIdx.x, at = INDEX;  // one store, its lanes in the order INDEX gives
    s[at] = t;
    __syncthreads();
    out[t] = s[t];
}
"""


@pytest.mark.parametrize("index, clash", [("63 - t", None), ("(t * 7) % 64", None), ("t / 2", {0, 1})])
def test_one_store_to_distinct_locations_in_any_order_is_no_race_and_two_lanes_on_one_location_are(index, clash):
    """Lanes storing in descending or permuted order each own their location; two lanes of one
    store on one location (t / 2) storing different values race.  Re-pinned (h/verify50): they are
    lanes of one warp, so the race is a "lane-choice" (emulator.lane_writes: which lane's value lands
    is the hardware's pick), no longer a write-after-write."""
    src = ORDERS.replace("INDEX", index)
    r = run_kernel(src, "k", args=dict(out=np.zeros(64, np.float32)), grid=(1, 1, 1), block=(64, 1, 1))
    if clash is None:
        assert r.races == []
        return
    first = next(x for x in r.races if x.index == 0)
    assert (first.kind, {first.thread, first.other_thread}) == ("lane-choice", clash)


ONE_LOCATION = r"""
__global__ void k(float* out, const int* zero) {
    int t = threadIdx.x;
    if (COND) out[ADDRESS] = t * 0.5f;
}
"""


@pytest.mark.parametrize("cond, last", [("t % 3 == 1", 37), ("t >= 0", 39)])  # of 40 threads
@pytest.mark.parametrize("address", ["0", "zero[t]"])
def test_lanes_storing_to_one_global_location_leave_the_last_lane_s_value(address, cond, last):
    """Lanes of one store on one location (a race the GPU resolves in no stated order; the warp and
    thread schedules pick seeded orders): in lockstep the emulator keeps the last active lane's
    value, whether the address is one value for every lane (out[0]) or a value per lane that
    happens to be equal (out[zero[t]])."""
    n = 40
    src = ONE_LOCATION.replace("ADDRESS", address).replace("COND", cond)
    r = run_kernel(src, "k", args=dict(out=np.zeros(1, np.float32), zero=np.zeros(n, np.int32)), grid=(1, 1, 1),
                   block=(n, 1, 1))
    assert r.outputs["out"][0] == last * 0.5


def _many_lines(sync: str) -> str:
    """A kernel whose shared accesses stand on 1100 lines (more than a race table's 1024 line ids),
    each thread on its own location; then SYNC and a read of a neighbour's location."""
    body = "".join(f"    s[t] += {k}.0f;\n" for k in range(1100))
    return ("__global__ void k(float* out) {\n    __shared__ float s[32];\n    int t = threadIdx.x;\n"
            f"    s[t] = 0.0f;\n{body}    {sync}\n    out[t] = s[(t + 1) % 32];\n}}\n")


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_a_race_with_a_line_past_the_last_line_id_names_one_of_the_lines_sharing_it(schedule):
    """The 1024th and later lines with a shared access share the last line id: a race with the last
    write (the 1101st such line) names one of those lines as the other access, never an early line
    (an id past the table's 10-bit field would wrap to the first line).  With the barrier: no race."""
    args = dict(out=np.zeros(32, np.float32))
    ok = run_kernel(_many_lines("__syncthreads();"), "k", args=args, grid=(1,), block=(32,), schedule=schedule)
    assert ok.races == []
    assert np.all(ok.outputs["out"] == sum(range(1100)))
    src = _many_lines("")
    bad = run_kernel(src, "k", args=args, grid=(1,), block=(32,), schedule=schedule)
    read, first = line_of(src, "out[t] = s["), line_of(src, "s[t] = 0.0f")
    raw = [x for x in bad.races if x.kind == "read-after-write"]
    assert raw and {x.line for x in raw} == {read}
    assert all(x.other_line >= first + 1023 for x in raw), [x.other_line for x in raw]
