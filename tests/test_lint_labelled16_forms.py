"""Lint behaviours designed on tests/labelled16 (hipDF, AMD's HIP port of cuDF, before its wave-64
commits), each with a case it must handle and look-alikes it must not:

- a full-mask warp operation run by part of a wave through an included header's wrapper (hipDF's
  `shuffle_xor(var, delta)` in block_utils.cuh passes `(uint64_t) LANE_MASK_ALL` itself): WS012
  followed only the file's own functions and the intrinsics' mask arguments, so `if (t < 32) {
  ... shuffle_xor(v, 16); }` went unreported.  A header's shuffle wrapper now keeps the text of the
  mask it passes itself (kernelport/shufflewrappers.py), and a call of one whose mask names every
  lane (all ones, a cast of it, or a constant every definition of which is one:
  masksources.full_constant) is a full-mask operation (kernelport/lint/divergence.py).  Silent: a
  wrapper whose mask is its caller's (a parameter), or a constant naming some lanes.
- the same after an early return under a thread-dependent condition (`if (t > (count | 0x1f))
  return;` then the shuffles, hipDF's PackLiteralsShuffle): the lanes that returned have exited,
  which NVIDIA's mask allows, but on a 64-lane wave the mask names absent lanes.  Silent: an early
  return under a block-uniform condition, at a bound that is a multiple of 64 (whole waves), or
  after the warp operation.
- `t <= (n | 0x1f)` rounds to the last lane of a 32-lane warp: whole warps on NVIDIA, so WS012 says
  so (AMD-only) instead of "undefined everywhere"; and every WS012 names the condition's line as a
  related location (the line the commits change).
- WS007 read any mask warpflow calls full as CUDA's 32-bit all ones; a mask that is all ones in 64
  bits (`(uint64_t) ~0`, hipDF's `constexpr bitmask_type LANE_MASK_ALL = ~0;` with a 64-bit
  `bitmask_type`) names every lane of the wave and is what HIP's `_sync` intrinsics take.  Still
  reported: `(uint64_t) 0xffffffff` (lanes 0-31 only) and a 32-bit constant `~0u`.
- bytes to a pointer's 32-byte alignment (`0x20 - (0x1f & reinterpret_cast<uintptr_t>(p))`,
  hipDF's unsnap prefetcher) were read as the warp width (WS017): the low bits of an address are
  no lane (kernelport/warpsites.py is_address).  Still reported: `t & 0x1f` of a thread index.

tests/local_labelled16.py lints the set's files, run by hand after `python
scripts/labelled_sources.py tests/labelled16`.  Lint's figure before any change made for the set is
bench/lint_recall_labelled16_before.txt."""
from __future__ import annotations

import json
from pathlib import Path

from kernelport.lint import lint_text
from labelled_support import assert_sourced_without_code
from trust_support import kp_inproc

HEADER = """\
#pragma once
#include <cstdint>
using bitmask_type = uint64_t;
constexpr bitmask_type LANE_MASK_ALL = ~0;
constexpr bitmask_type LANE_MASK_LOW = 0xff;
template <typename T>
inline __device__ T shuffle_xor(T var, uint32_t delta)
{
  return __shfl_xor_sync((uint64_t) LANE_MASK_ALL, var, delta);
}
template <typename T>
inline __device__ T shuffle_xor_in(uint64_t mask, T var, uint32_t delta)
{
  return __shfl_xor_sync(mask, var, delta);
}
template <typename T>
inline __device__ T shuffle_xor_low(T var, uint32_t delta)
{
  return __shfl_xor_sync(LANE_MASK_LOW, var, delta);
}
"""

PARTIAL = """\
#include "block_utils.cuh"
__device__ unsigned long long merge(unsigned long long v) { return v | shuffle_xor(v, 1); }
__global__ void tree(unsigned long long* x) {
  unsigned t = threadIdx.x;
  unsigned long long v = x[t];
  __syncthreads();
  if (t < 32) {
    v = merge(v);
    v = v + shuffle_xor(v, 16);
    if (t == 0) x[0] = v;
  }
}
__global__ void pack(unsigned* x, int count) {
  int t = threadIdx.x;
  unsigned v = x[t];
  if (t > (count | 0x1f)) { return; }
  v = v | shuffle_xor(v, 1);
  x[t] = v;
}
"""

PARTIAL_QUIET = """\
#include "block_utils.cuh"
__global__ void callers_mask(unsigned long long* x) {
  unsigned t = threadIdx.x;
  unsigned long long v = x[t];
  uint64_t m = __ballot_sync(LANE_MASK_ALL, t < 32);
  if (t < 32) v = v + shuffle_xor_in(m, v, 1);
  if (t < 8) v = v + shuffle_xor_low(v, 1);
  x[t] = v;
}
__global__ void uniform_exit(unsigned* x, int count) {
  int t = threadIdx.x;
  if (blockIdx.x >= count) { return; }
  unsigned v = x[t];
  v = v | shuffle_xor(v, 1);
  x[t] = v;
}
__global__ void whole_waves_exit(unsigned* x) {
  int t = threadIdx.x;
  if (t >= 128) { return; }
  unsigned v = x[t];
  v = v | shuffle_xor(v, 1);
  x[t] = v;
}
__global__ void exit_after(unsigned* x, int count) {
  int t = threadIdx.x;
  unsigned v = x[t];
  v = v | shuffle_xor(v, 1);
  if (t > (count | 0x1f)) { return; }
  x[t] = v;
}
"""


def _lint(tmp_path: Path, text: str, code: str) -> list[dict]:
    (tmp_path / "block_utils.cuh").write_text(HEADER)
    k = tmp_path / "main.cu"
    k.write_text(text)
    rc, out, err = kp_inproc("lint", "--format", "json", "-I", str(tmp_path), str(k))
    assert rc in (0, 1), err
    return [f for f in json.loads(out) if f["code"] == code]


def test_a_header_wrappers_full_mask_run_by_part_of_the_wave_is_reported_at_the_condition(tmp_path: Path):
    got = _lint(tmp_path, PARTIAL, "WS012")
    assert sorted(f["line"] for f in got) == [8, 9, 17], got
    assert {r["line"] for f in got[:2] for r in f["related"]} == {7}, got  # `if (t < 32) {`
    exit_ = next(f for f in got if f["line"] == 17)
    assert [r["line"] for r in exit_["related"]] == [16] and "early return" in exit_["message"], exit_
    assert all(f["severity"] == "error" for f in got) and "whole warps on NVIDIA" in got[0]["message"], got


def test_a_callers_mask_a_partial_constant_a_uniform_exit_and_an_exit_after_the_shuffle_stay_quiet(
        tmp_path: Path):
    assert _lint(tmp_path, PARTIAL_QUIET, "WS012") == []


def test_rounding_to_a_32_lane_warp_reads_as_whole_warps_on_nvidia():
    text = HEADER.replace("#pragma once\n", "") + """\
__global__ void store(unsigned* x, int n) {
  int t = threadIdx.x;
  unsigned v = x[t];
  if (t <= (n | 0x1f)) { v = v | shuffle_xor(v, 1); }
  x[t] = v;
}
"""
    got = [f for f in lint_text(text, "t.cu") if f.code == "WS012"]
    assert len(got) == 1 and "whole warps on NVIDIA" in got[0].message, got


WIDE_MASKS = """\
#include <cstdint>
using bitmask_type = uint64_t;
constexpr bitmask_type LANE_MASK_ALL = ~0;
constexpr unsigned NARROW_ALL = ~0u;
__global__ void k(int* x) {
  int p = x[threadIdx.x];
  if (__all_sync(LANE_MASK_ALL, p == 0)) x[0] = 1;
  if (__all_sync((uint64_t) LANE_MASK_ALL, p == 1)) x[0] = 2;
  if (__all_sync((uint64_t) ~0, p == 2)) x[0] = 3;
  if (__all_sync(NARROW_ALL, p == 3)) x[0] = 4;
  if (__all_sync((uint64_t) 0xffffffff, p == 4)) x[0] = 5;
}
"""


def test_a_mask_all_ones_in_64_bits_is_no_32_bit_full_mask_but_a_32_bit_one_is():
    got = [f.line for f in lint_text(WIDE_MASKS, "t.cu") if f.code == "WS007"]
    assert got == [10, 11], got


ALIGNMENT = """\
#include <cstdint>
__device__ void prefetch(const unsigned char* base, unsigned* out, unsigned end, unsigned t) {
  unsigned align_bytes = (unsigned)(0x20 - (0x1f & reinterpret_cast<uintptr_t>(base)));
  unsigned pos = min(align_bytes, end);
  if (t < pos) out[t] = base[t];
  pos = __shfl_sync(0xffffffff, pos, 0);
  if (t == 0) out[0] = pos;
}
__global__ void k(const unsigned char* base, unsigned* out, unsigned end) {
  unsigned t = threadIdx.x & 0x1f;
  prefetch(base, out, end, t);
}
"""


def test_bytes_to_a_pointers_alignment_are_no_warp_width_but_a_lane_from_0x1f_is():
    got = [(f.code, f.line) for f in lint_text(ALIGNMENT, "t.cu") if f.code in ("WS002", "WS017")]
    assert got == [("WS002", 10)], got


def test_the_set_commits_no_project_code():
    assert_sourced_without_code(Path(__file__).resolve().parent / "labelled16")
