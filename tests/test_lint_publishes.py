"""One warp's value published through memory and read back by every other warp is the block's one value
(kernelport/lint/publishes.py): lechebs-nbody's barnes_hut.cu (heldout100) sizes its traversal loops so, and every
barrier in them was a false SY001.  The look-alikes keep it: a read back at a per-thread address, no barrier
between, a per-thread value published, a reader branch whose bound is not named for the warp count, a writer
branch that tests a ballot (several warps) rather than a warp index, a slot of the thread's own array."""
from __future__ import annotations

import pytest

from test_lint_lanebroadcasts import _findings

KERNEL = """\
__constant__ int NUM_WARPS;
__global__ void k(const int* in, int* out, int m) {{
    __shared__ int s[4];
    int *p = &s[1]; int loc[1] = {{0}};
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32, n = 0, v = in[threadIdx.x];
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    if ({wcond}) {{ n = {value}; if (lane == 0) {slot} = n; }}
    {between}
    if ({rcond}) n = {read};
    for (int i = 0; i < n; ++i) {{
        __syncthreads();
        out[i] += 1;
    }}
}}
"""
BARRIER = 11
BASE = dict(wcond="warp == NUM_WARPS - 1", value="__shfl_sync(0xffffffffu, v, 31)", slot="s[0]",
            between="__syncthreads();", rcond="warp < NUM_WARPS - 1", read="s[0]")

PUBLISHED = {
    "the last warp to the others": {},
    "one warp to every other": dict(wcond="warp == 2", rcond="warp != 2"),
    "the first warp to the rest": dict(wcond="0 == warp", rcond="warp > 0"),
    "through a pointer": dict(slot="*p", read="*p"),
    "a ballot's count": dict(value="__popc(b)"),
}
KEPT = {
    "read back per thread": dict(read="s[lane]"),
    "no barrier between": dict(between=""),
    "a per-thread value": dict(value="v"),
    "a bound not named for the warps": dict(wcond="warp == m - 1", rcond="warp < m - 1"),
    "a ballot selects the writers": dict(wcond="b == 0u", rcond="b != 0u"),
    "a thread's own array": dict(slot="loc[0]", read="loc[0]"),
    # review66e: a K that differs by thread selects lanes of several warps, each keeping its own n
    "the lane as K": dict(wcond="warp == lane", rcond="warp != lane"),
    "a per-thread K": dict(wcond="warp == (v & 1)", rcond="warp != (v & 1)"),
}


def _sy001(tmp_path, **kw) -> bool:
    return (BARRIER, "SY001") in _findings(tmp_path, KERNEL.format(**{**BASE, **kw}))


@pytest.mark.parametrize("kw", PUBLISHED.values(), ids=PUBLISHED.keys())
def test_published_value_bounds_a_uniform_loop(tmp_path, kw):
    assert not _sy001(tmp_path, **kw)


@pytest.mark.parametrize("kw", KEPT.values(), ids=KEPT.keys())
def test_look_alikes_keep_sy001(tmp_path, kw):
    assert _sy001(tmp_path, **kw)


COUNTS = {
    "counted by another width": ("#define NUM_WARPS (256 / WAVE)", "threadIdx.x / 32", True),
    "a const counted by a shift of another width": ("constexpr int NUM_WARPS = 256 >> 6;", "threadIdx.x / 32", True),
    "counted by the index's width": ("#define NUM_WARPS (256 / 32)", "threadIdx.x / 32", False),
    "a shift counted by the same width": ("#define NUM_WARPS (256 / 32)", "threadIdx.x >> 5", False),
}


@pytest.mark.parametrize("define, index, kept", COUNTS.values(), ids=COUNTS.keys())
def test_warp_count_defined_with_another_width_is_not_trusted(tmp_path, define, index, kept):
    """review66e: a NUM_WARPS the file counts with another width than the warp index's names no last warp: with
    WAVE 64 and `warp = threadIdx.x / 32`, warps 4-7 of 256 threads neither write nor read back and keep their own
    `n` (the loop's barrier SY001, was quiet).  The look-alikes, the same width (`/ 32`, `>> 5`), stay quiet."""
    text = KERNEL.format(**BASE).replace("__constant__ int NUM_WARPS;", define).replace("threadIdx.x / 32", index)
    assert ((BARRIER, "SY001") in _findings(tmp_path, text)) == kept


STORES = {
    "under a per-thread test": "if (v > 0) s[0] = n;",
    "under the leader and a uniform test": "if (lane == 0 && m > 0) s[0] = n;",
}


@pytest.mark.parametrize("store", STORES.values(), ids=STORES.keys())
def test_store_that_may_not_run_keeps_sy001(tmp_path, store):
    """review66e: a store that may run in no lane leaves the slot stale: the readers' n is not the writer warp's, and
    the loop's barrier keeps SY001 (was quiet).  The leader's `if (lane == 0)` (BASE) and `if (0 == lane)` publish."""
    text = KERNEL.format(**BASE)
    assert (BARRIER, "SY001") in _findings(tmp_path, text.replace("if (lane == 0) s[0] = n;", store))
    assert (BARRIER, "SY001") not in _findings(tmp_path, text.replace("if (lane == 0) s[0]", "if (0 == lane) s[0]"))
