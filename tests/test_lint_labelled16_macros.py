"""Device code marked through a macro defined per platform (tests/labelled16, hipDF): cuDF's
types.hpp defines `CUDF_KERNEL` as `__global__ static` under `#ifdef __HIP_PLATFORM_AMD__` and as
`static` after `#else` (a host compiler's fallback), and `CUDF_HOST_DEVICE` as `__host__ __device__`
or nothing.  `macros.definitions` kept the last definition, so the kernels marked with it were read
as host functions and lint said nothing of their partial-wave roles (unsnap.cu's `if (t < 32)` /
`t < 64` / `t < 96`).  Every GPU compile takes the branch that makes the code device code, so of
definitions in different branches of one conditional, one naming `__global__`/`__device__` is kept
over one naming none.  Unchanged: a plain redefinition (no conditional) still wins, and a
definition under `#if 0` (no build compiles it) makes nothing device code."""
from __future__ import annotations

import json
from pathlib import Path

from kernelport.macros import definitions
from trust_support import kp_inproc

TYPES = """\
#pragma once
#ifdef __HIP_PLATFORM_AMD__
#ifndef KHD
#define KHD __host__ __device__
#endif
#if !defined(__HIPCC_RTC__)
#define KERNEL __global__ static
#else
#define KERNEL __global__
#endif
#else
#define KHD
#define KERNEL static
#endif
#if 0
#define NEVER_KERNEL __global__
#else
#define NEVER_KERNEL static
#endif
#define REDEFINED __global__
#undef REDEFINED
#define REDEFINED static
"""

ROLES = """\
#include "types.hpp"
KHD inline unsigned sum(unsigned v) {
  for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffff, v, d);
  return v;
}
KERNEL void roles(unsigned* x) {
  int t = threadIdx.x;
  if (t < 32) { x[t] = sum(x[t]); }
}
"""

QUIET = """\
#include "types.hpp"
NEVER_KERNEL void never(unsigned* x) {
  int t = threadIdx.x;
  if (t < 32) { x[t] = __shfl_xor_sync(0xffffffff, x[t], 1); }
}
REDEFINED void host(unsigned* x) {
  int t = threadIdx.x;
  if (t < 32) { x[t] = __shfl_xor_sync(0xffffffff, x[t], 1); }
}
"""


def test_a_gpu_branchs_execution_space_is_kept_over_a_host_fallback_in_another_branch():
    got = {n: d.body for n, d in definitions(TYPES).items()}
    assert got == {"KHD": "__host__ __device__", "KERNEL": "__global__", "NEVER_KERNEL": "static",
                   "REDEFINED": "static"}, got


def _lint(tmp_path: Path, text: str) -> list[tuple[str, int]]:
    (tmp_path / "types.hpp").write_text(TYPES)
    k = tmp_path / "main.cu"
    k.write_text(text)
    rc, out, err = kp_inproc("lint", "--format", "json", "-I", str(tmp_path), str(k))
    assert rc in (0, 1), err
    return sorted((f["code"], f["line"]) for f in json.loads(out) if f["code"] == "WS012")


def test_a_kernel_marked_by_a_per_platform_macro_is_linted_as_device_code(tmp_path: Path):
    got = _lint(tmp_path, ROLES)
    assert got == [("WS012", 8)], got  # `sum`'s full-mask shuffles run by half a 64-lane wave


def test_a_macro_defined_device_only_under_if_0_or_before_an_undef_makes_no_kernel(tmp_path: Path):
    assert _lint(tmp_path, QUIET) == []


# hipDF's cudf/detail/utilities/cuda.cuh: the warp size per platform (64 on AMD unless a wave-32 build).
WIDTHS = """\
#pragma once
namespace cudf { namespace detail {
#if defined(__HIP_PLATFORM_AMD__)
#ifndef CUDF_USE_WARPSIZE_32
static constexpr int warp_size{64};
#else
static constexpr int warp_size{32};
#endif
#else
static constexpr int warp_size{32};
#endif
#if defined(__HIP_PLATFORM_AMD__)
static constexpr int tile_size{32};
#else
static constexpr int tile_size{32};
#endif
#if defined(__HIP_PLATFORM_AMD__)
static constexpr int simd_width = 32;
#else
static constexpr int simd_width = 64;
#endif
}}
"""

STRIDES = """\
#include "cuda.cuh"
__global__ void decode(unsigned* x, unsigned n) {
  using cudf::detail::warp_size;
  int const t = threadIdx.x;
  int const lane_id = t % warp_size;
  for (unsigned sp = lane_id; sp < n; sp += 32) { x[sp] = 0; }
  for (unsigned sp = lane_id; sp < n; sp += warp_size) { x[sp] = 1; }
  x[t] = __shfl_sync(0xffffffff, x[t], 0);
}
__global__ void tiles(unsigned* x, unsigned n) {
  using namespace cudf::detail;
  int const t = threadIdx.x;
  int const a = t % tile_size, b = t % simd_width;
  for (unsigned sp = a; sp < n; sp += 32) { x[sp] = 0; }
  for (unsigned sp = b; sp < n; sp += 32) { x[sp] = 0; }
  x[t] = __shfl_sync(0xffffffff, x[t], 0);
}
"""


def test_a_header_constant_that_is_each_platforms_wave_width_gives_lanes_to_63(tmp_path: Path):
    (tmp_path / "cuda.cuh").write_text(WIDTHS)
    k = tmp_path / "main.cu"
    k.write_text(STRIDES)
    rc, out, err = kp_inproc("lint", "--format", "json", "-I", str(tmp_path), str(k))
    assert rc in (0, 1), err
    got = sorted((f["code"], f["line"]) for f in json.loads(out) if f["code"] in ("WS016", "WS017"))
    # `sp += 32` from a lane of the wave; silent: the step of warp_size, and lanes from a constant
    # 32 on both platforms (a tile) or one that is not the wave width on NVIDIA (64 there)
    assert got == [("WS017", 6)], got


EXITS = """\
__global__ void k(float* x, unsigned n, unsigned m) {
  const unsigned c = blockIdx.x, tid = threadIdx.x;
  if (c >= n || tid >= 128u) return;
  float v = x[tid];
  v += __shfl_xor_sync(0xffffffff, v, 1);
  x[tid] = v;
}
__global__ void k96(float* x, unsigned n) {
  const unsigned c = blockIdx.x, tid = threadIdx.x;
  if (c >= n || tid >= 96u) return;
  float v = x[tid];
  v += __shfl_xor_sync(0xffffffff, v, 1);
  x[tid] = v;
}
__global__ void both(float* x, unsigned n) {
  const unsigned tid = threadIdx.x;
  if (x[tid] > 0.0f || tid >= 128u) return;
  float v = x[tid];
  v += __shfl_xor_sync(0xffffffff, v, 1);
  x[tid] = v;
}
"""


def test_an_early_return_at_whole_waves_or_a_uniform_test_returns_whole_waves():
    from kernelport.lint import lint_text
    got = sorted(f.line for f in lint_text(EXITS, "t.cu") if f.code == "WS012")
    # ds4's `if (c >= n_comp || tid >= 128u) return;` (labelled14): block-uniform, or whole 64-lane
    # waves; still reported: 96 threads (half a wave), and a per-thread test beside the bound
    assert got == [12, 19], got
