"""Lint behaviours designed on tests/labelled17 (vLLM's ROCm port, before its wave-64 commits), each
with a case it must handle and look-alikes it must not:

- WS032 at a warp index counted from the wave width (`warp_id = threadIdx.x / WARP_SIZE`) that
  subscripts an array laid out for the block's 32-lane warps (`shared_counts[32][8]` in a kernel
  launched with 1024 threads) where the same array is read at an index counted from neither the
  thread nor the wave (`shared_counts[expert_id / 8]`): on a 64-lane wave only slots 0-15 are a
  warp's, and the others are read uncleared (vLLM 487acf6bdf divides by 32 instead).  Silent: the
  same layout indexed by `threadIdx.x / 32`, an array sized from the wave, per-warp slots read back
  only by lanes counted from the wave (the block-reduction pattern), a block of other size.
- the block size of a kernel launched through a local that holds it (`auto kernel = ns::k<T>;
  kernel<<<1, 1024>>>(...)`, vLLM's launchers) is that launch's: fnscopes.launched follows the
  local's one initializer.
- a macro that the project's AMD build defines as `warpSize` (`#ifndef USE_ROCM #define WARP_SIZE 32
  #else #define WARP_SIZE warpSize`, vLLM's cuda_compat.h) is the wave width to WS032's counts
  (kernelport/hipbuild.py's view of the AMD build), as `warpSize` is.

tests/local_labelled17.py lints the set's files, run by hand after `python
scripts/labelled_sources.py tests/labelled17`.  Lint's figure before any change made for the set is
bench/lint_recall_labelled17_before.txt."""
from __future__ import annotations

from pathlib import Path

from kernelport.lint import lint_text
from labelled_support import assert_sourced_without_code

COMPAT = """\
#pragma once
#ifndef USE_ROCM
  #define WARP_SIZE 32
#else
  #define WARP_SIZE warpSize
#endif
"""

ALIGN = """\
#include "compat.h"
namespace moe {
template <typename T>
__global__ void align(const T* ids, int* out, int n) {
  __shared__ int counts[32][8];
  const int warp_id = threadIdx.x / WARP_SIZE;
  for (int i = 0; i < 8; ++i) counts[warp_id][i] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    int expert = ids[i];
    int group = expert / 8;
    atomicAdd(&counts[group][expert % 8], 1);
  }
}
}
void run(const int* ids, int* out, int n) {
  auto kernel = moe::align<int>;
  kernel<<<1, 1024>>>(ids, out, n);
}
"""


def _ws032(tmp_path: Path, text: str) -> list[int]:
    from kernelport.lint import engine, config as configmod
    (tmp_path / "compat.h").write_text(COMPAT)
    k = tmp_path / "k.cu"
    k.write_text(text)
    res = engine.lint_paths([k], configmod.Overrides(include_dirs=(str(tmp_path),)), jobs=1)
    return [f.line for r in res for f in r.findings if f.code == "WS032"]


def test_a_wave_counted_warp_index_into_a_32_lane_warp_layout_is_reported(tmp_path: Path):
    assert _ws032(tmp_path, ALIGN) == [6]


def test_the_layouts_own_warps_a_wave_sized_array_or_another_block_stay_quiet(tmp_path: Path):
    assert _ws032(tmp_path, ALIGN.replace("threadIdx.x / WARP_SIZE", "threadIdx.x / 32")) == []
    assert _ws032(tmp_path, ALIGN.replace("counts[32][8]", "counts[1024 / WARP_SIZE][8]")) == []
    assert _ws032(tmp_path, ALIGN.replace("<<<1, 1024>>>", "<<<1, 512>>>")) == []
    assert _ws032(tmp_path, ALIGN.replace("int group = expert / 8;", "int group = threadIdx.x % WARP_SIZE;")) == []


REDUCE = """\
__global__ void reduce(const float* in, float* out) {
  __shared__ float partial[32];
  const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  float v = in[threadIdx.x];
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) v = lane < blockDim.x / warpSize ? partial[lane] : 0.f;
  out[threadIdx.x] = v;
}
void run(const float* in, float* out) { reduce<<<1, 1024>>>(in, out); }
"""


def test_per_warp_slots_read_back_by_lanes_of_the_wave_stay_quiet():
    assert [f.line for f in lint_text(REDUCE, "t.cu") if f.code == "WS032"] == []


def test_a_launch_through_a_local_holding_the_kernel_gives_its_block(tmp_path: Path):
    direct = ALIGN.replace("auto kernel = moe::align<int>;\n  kernel<<<", "moe::align<int><<<")
    assert _ws032(tmp_path, direct) == [6]
    assert _ws032(tmp_path, ALIGN) == [6]
    # two initializers of the local: which kernel runs is not known, so no block is
    twice = ALIGN.replace("auto kernel = moe::align<int>;", "auto kernel = moe::align<int>;\n  if (n) { auto kernel = moe::align<long>; }")
    assert _ws032(tmp_path, twice) == []


def test_a_macro_the_amd_build_defines_as_warpsize_is_the_wave_width(tmp_path: Path):
    assert _ws032(tmp_path, ALIGN) == [6]
    assert _ws032(tmp_path, ALIGN.replace('#include "compat.h"', "#define WARP_SIZE 32")) == []


def test_the_set_commits_no_project_code():
    assert_sourced_without_code(Path(__file__).resolve().parent / "labelled17")
