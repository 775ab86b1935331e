"""Lint behaviours designed on tests/labelled15 (ADEPT and CTranslate2 before their HIP commits),
each with a case it must handle and look-alikes it must not:

- a vote stored in a 32-bit local and passed on as a `_sync` shuffle's mask (ADEPT's
  `unsigned mask = __ballot_sync(__activemask(), p);` then `__shfl_sync(mask, v, laneId - 1, 32)`):
  WS008 reported the store, but WS007 skipped every mask that came from a vote, so the shuffles the
  commit changed went unreported.  HIP's `_sync` intrinsics reject the 32-bit type whatever it holds
  (the rule tests/labelled14 gave a 32-bit local holding a group's mask), so WS007 now reports each
  use, with the declaration as the related location (kernelport/lint/rules/ws_fullmask.py).
  Silent: the vote in a 64-bit or `auto` local, a vote passed straight in (`__shfl_sync(__activemask(),
  ...)`), a mask-less shuffle, and the same code under a branch only the CUDA build takes.
- a kernel whose own shuffles are a logical 32-lane group (ADEPT's Smith-Waterman kernels:
  `laneId = threadIdx.x % 32`, `warpId = threadIdx.x / 32`, `__shfl_sync(mask, v, laneId - 1, 32)`,
  a spill slot per 32 lanes written at `laneId == 31`) and which calls a block reduction that
  computes its own lanes: the call made the kernel warp-level, and its lane math was read as the
  hardware wave's (WS002, WS003, WS006, WS011 on eight look-alikes).  A function warp-level only
  through callees, whose own warp calls all take a literal width of at most 32 (or are votes that
  only mask them), and which passes those callees no local declared from `threadIdx`, is now its
  own logical group (kernelport/warpshapes.py `logical_callers`).  Still reported: the same kernel
  passing its `% 32` lane to the helper, and one whose own shuffle has no width.

The set's own check that needs none of its projects' files is here too; tests/local_labelled15.py
lints them, run by hand after `python scripts/labelled_sources.py tests/labelled15`.  Lint's figure
before any change made for the set is bench/lint_recall_labelled15_before.txt."""
from __future__ import annotations

from pathlib import Path

from kernelport.lint import lint_text
from labelled_support import assert_sourced_without_code

VOTE_IN_32_BIT_LOCAL = """\
__device__ short step(short e, short h, int laneId, bool valid) {
    unsigned mask = __ballot_sync(__activemask(), valid);
    short a = __shfl_sync(mask, e, laneId - 1, 32);
    short b = __shfl_down_sync(mask, h, 1);
    return a + b;
}
"""

VOTE_QUIET = """\
__device__ short wide(short e, int laneId, bool valid) {
    unsigned long long mask = __ballot_sync(__activemask(), valid);
    return __shfl_sync(mask, e, laneId - 1, 32);
}
__device__ short automatic(short e, int laneId, bool valid) {
    auto mask = __ballot_sync(__activemask(), valid);
    return __shfl_sync(mask, e, laneId - 1, 32);
}
__device__ short direct(short e, int laneId) {
    return __shfl_sync(__activemask(), e, laneId - 1, 32);
}
__device__ short maskless(short e, int laneId, bool valid) {
    unsigned mask = __ballot(valid);
    return __shfl(e, laneId - 1, 32) + (short)mask;
}
#ifndef __HIP_PLATFORM_AMD__
__device__ short cuda_only(short e, int laneId, bool valid) {
    unsigned mask = __ballot_sync(__activemask(), valid);
    return __shfl_sync(mask, e, laneId - 1, 32);
}
#endif
"""


LOGICAL_CALLER = """\
__device__ short block_max(short v) {
    __shared__ short part[32];
    int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
    for (int o = warpSize / 2; o > 0; o /= 2) v = max(v, __shfl_down(v, o));
    if (lane == 0) part[wid] = v;
    __syncthreads();
    return part[0];
}
__global__ void align(short* out, const short* in, int n) {
    short laneId = threadIdx.x % 32;
    short warpId = threadIdx.x / 32;
    __shared__ short spill[32];
    short e = in[threadIdx.x], best = 0;
    for (int i = 0; i < n; ++i) {
        if (laneId == 31) spill[warpId] = e;
        __syncthreads();
        unsigned long long mask = __ballot_sync(__activemask(), e > 0);
        short left = __shfl_sync(mask, e, laneId - 1, 32);
        e = (warpId != 0 && laneId == 0) ? spill[warpId - 1] : left;
        best = max(best, e);
    }
    out[blockIdx.x] = block_max(best);
}
"""


def _lane_rules(text: str) -> list:
    return [(f.code, f.line) for f in lint_text(text, "t.cu") if f.code in ("WS002", "WS003", "WS006", "WS011")]


def test_a_kernel_whose_own_shuffles_are_a_logical_32_lane_group_keeps_its_lane_math():
    found = _lane_rules(LOGICAL_CALLER)
    assert [x for x in found if x[1] >= 10] == [], found  # the kernel's lines; block_max uses warpSize


def test_a_kernel_that_passes_its_lane_on_or_shuffles_the_whole_wave_is_still_reported():
    passes_lane = LOGICAL_CALLER.replace("short block_max(short v)", "short block_max(short v, short l)").replace(
        "block_max(best)", "block_max(best, laneId)")
    assert ("WS002", 10) in _lane_rules(passes_lane), _lane_rules(passes_lane)
    whole_wave = LOGICAL_CALLER.replace("laneId - 1, 32)", "laneId - 1)")
    assert ("WS002", 10) in _lane_rules(whole_wave), _lane_rules(whole_wave)


def _ws007(text: str) -> list:
    return [f for f in lint_text(text, "t.cu") if f.code == "WS007"]


def test_a_vote_in_a_32_bit_local_is_reported_at_each_shuffle_it_feeds():
    found = _ws007(VOTE_IN_32_BIT_LOCAL)
    assert [f.line for f in found] == [3, 4], found
    assert all("32-bit local" in f.message for f in found)


def test_a_wide_or_auto_local_a_direct_vote_a_maskless_shuffle_and_a_cuda_only_branch_stay_quiet():
    assert _ws007(VOTE_QUIET) == [], _ws007(VOTE_QUIET)


def test_the_set_commits_no_project_code():
    assert_sourced_without_code(Path(__file__).resolve().parent / "labelled15")
