"""Lint behaviours designed on tests/labelled19 (pixeltrack-standalone's HIP program, before its
"[hip] Generalize warp size" commit), each with a case it must report and look-alikes it must not:

- WS007 in code only the AMD build compiles (`#ifdef __HIPCC__`): a 32-bit `_sync` mask there is
  hipcc's to reject (HIP's `_sync` intrinsics take a 64-bit mask), so the guard that keeps the NVIDIA
  branch of `#ifdef USE_ROCM` quiet does not keep it quiet.  Silent: the same code in the NVIDIA
  branch (`#ifndef __HIPCC__`), and 64-bit masks in AMD-only code.  (Code under a test of the AMD
  architecture stays as it was: judged by its own width.)
- WS007 at each `_sync` shuffle fed by a 32-bit mask parameter even when its callers pass it a vote
  (`warpPrefixScan(..., uint32_t mask)` called with `__ballot_sync(...)`'s result): HIP rejects the
  parameter's type whatever it holds, as for a vote held in a 32-bit local (tests/labelled15).
  WS008 still reports the parameter.  Silent: a 64-bit parameter fed by the same vote (`unsigned
  long` included: 64-bit on the LP64 hosts hipcc builds for).
- WS007 leaves a 64-bit variable holding `0xffffffff` in AMD-only code alone: hipcc compiles it and
  HIP's `_sync` acts on no bit of it beyond a debug check (tests/labelled4's ROCm/gsplat judged it
  consistent); a 32-bit literal there is still reported.

tests/local_labelled19.py lints the set's files, run by hand after `python
scripts/labelled_sources.py tests/labelled19`.  Lint's figure before any change made for the set is
bench/lint_recall_labelled19_before.txt."""
from __future__ import annotations

from pathlib import Path

from kernelport.lint import lint_text
from labelled_support import assert_sourced_without_code

SCAN = """\
#include <cstdint>
#include "hip/hip_runtime.h"
GUARD
template <typename T>
__device__ void scan(T* c, uint32_t i, MASK_T mask) {
  auto x = c[i];
  for (int d = 1; d < warpSize; d <<= 1) {
    auto y = __shfl_up_sync(mask, x, d);
    if ((int)(threadIdx.x % warpSize) >= d) x += y;
  }
  c[i] = x;
}
template <typename T>
__device__ void block_scan(T* c, uint32_t size) {
  uint32_t first = threadIdx.x;
  auto mask = __ballot_sync(FULL, first < size);
  for (auto i = first; i < size; i += blockDim.x) {
    scan(c, i, mask);
    mask = __ballot_sync(mask, i + blockDim.x < size);
  }
}
#endif
"""


def _ws007(guard: str = "#ifdef __HIPCC__", mask_t: str = "uint32_t", full: str = "0xffffffff") -> list[int]:
    text = SCAN.replace("GUARD", guard).replace("MASK_T", mask_t).replace("FULL", full)
    return sorted(f.line for f in lint_text(text, "scan.h") if f.code == "WS007")


def test_a_32_bit_sync_mask_in_code_only_the_amd_build_compiles_is_reported():
    assert _ws007() == [8, 16]  # the shuffle of the 32-bit parameter, the ballot's 32-bit literal
    # the parameter given the full literal by its caller (pixeltrack's `warpPrefixScan(ws, threadIdx.x,
    # 0xffffffff)`): still its 32-bit type at the shuffle
    text = SCAN.replace("GUARD", "#ifdef __HIPCC__").replace("MASK_T", "uint32_t").replace("FULL", "0xffffffff")
    text = text.replace("scan(c, i, mask);", "scan(c, i, 0xffffffff);")
    assert 8 in [f.line for f in lint_text(text, "scan.h") if f.code == "WS007"]


def test_the_nvidia_branch_or_64_bit_masks_stay_quiet():
    assert _ws007(guard="#ifndef __HIPCC__") == []
    assert _ws007(mask_t="uint64_t", full="0xffffffffffffffffull") == []


def test_a_64_bit_variable_holding_32_lanes_in_amd_only_code_stays_quiet():
    # hipcc takes a 64-bit mask whatever it holds, and HIP's `_sync` acts on no bit of it beyond a
    # debug check (tests/labelled4 judged ROCm/gsplat's `unsigned long warp_mask = 0xFFFFFFFF` so);
    # `unsigned long` is 64-bit on the LP64 hosts hipcc builds for
    for t in ("uint64_t", "unsigned long"):
        local = SCAN.replace("GUARD", "#ifdef __HIPCC__").replace("MASK_T", t).replace(
            "auto mask = __ballot_sync(FULL, first < size);", f"{t} mask = 0xffffffff;")
        assert [f.line for f in lint_text(local, "scan.h") if f.code == "WS007"] == [], t
    # the same value as a 32-bit literal is rejected by hipcc
    assert _ws007(mask_t="uint64_t") == [16]


def test_a_32_bit_mask_parameter_fed_by_a_vote_is_reported_at_its_shuffle():
    plain = SCAN.replace("GUARD", "#if 1").replace("MASK_T", "unsigned int").replace("FULL", "__activemask()")
    found = {(f.line, f.code) for f in lint_text(plain, "scan.cu")}
    assert (8, "WS007") in found and (5, "WS008") in found
    for wide_t in ("unsigned long long", "unsigned long"):
        wide = plain.replace("unsigned int mask", f"{wide_t} mask")
        assert (8, "WS007") not in {(f.line, f.code) for f in lint_text(wide, "scan.cu")}, wide_t


def test_the_set_commits_no_project_code():
    assert_sourced_without_code(Path(__file__).resolve().parent / "labelled19")
