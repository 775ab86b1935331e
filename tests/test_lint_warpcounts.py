"""WS032 (kernelport/lint/rules/ws_warpcounts.py): a block's warp count written as its 32-lane literal
where the file counts the same warps from the wave width, designed on tests/labelled16 (hipDF's
parquet encoder, page_enc.cu): RleEncode bounds slot indices of `rpt_map[num_encode_warps]`
(`encode_block_size / warp_size`, 2 slots on a 64-lane wave) by `4` and `3`, and
gpuInitFragmentStats hands each block `blockIdx.x * 4 + threadIdx.x / warp_size` fragments under
`__launch_bounds__(encode_block_size)` = 128.  hipDF's warp size is a header constant defined per
platform (64 under `__HIP_PLATFORM_AMD__`) and its kernels are marked by a header macro
(`CUDF_KERNEL`), before which the parse keeps no `__launch_bounds__` node: both forms are here."""
from __future__ import annotations

import json
from pathlib import Path

from trust_support import kp_inproc

HEADER = """\
#pragma once
namespace cudf { namespace detail {
#if defined(__HIP_PLATFORM_AMD__)
constexpr int warp_size = 64;
#else
constexpr int warp_size = 32;
#endif
} }
#ifdef __HIP_PLATFORM_AMD__
#define CUDF_KERNEL __global__ static
#else
#define CUDF_KERNEL static
#endif
"""

SLOTS = """\
#include "utils.cuh"
constexpr int encode_block_size = 128;
constexpr int num_encode_warps  = encode_block_size / cudf::detail::warp_size;
struct enc_state { unsigned long long rpt_map[num_encode_warps]; unsigned count; };
__device__ void runs(enc_state* s, unsigned t) {
  using cudf::detail::warp_size;
  if (t < warp_size) {
    unsigned idx8 = (t * 8) / warp_size;
    unsigned long long m0 = (idx8 < 4) ? s->rpt_map[idx8] : 0;
    unsigned long long m1 = (idx8 < 3) ? s->rpt_map[idx8 + 1] : 0;
    unsigned idx_cur = t;
    while (idx_cur < 4) { m0 |= s->rpt_map[idx_cur]; idx_cur++; }
    unsigned long long ok = (idx8 < num_encode_warps) ? s->rpt_map[idx8] : 0;
    unsigned long long wide = (idx8 < 2) ? s->rpt_map[idx8] : 0;
    unsigned other = (idx8 < 4) ? s->count : 0;
    s->count = m0 + m1 + ok + wide + other;
  }
}
"""

GRID = """\
#include "utils.cuh"
constexpr int encode_block_size = 128;
CUDF_KERNEL void __launch_bounds__(encode_block_size) frag_stats(int* groups, int n)
{
  unsigned const frag_id = blockIdx.x * 4 + (threadIdx.x / cudf::detail::warp_size);
  unsigned const fixed = blockIdx.x * (encode_block_size / cudf::detail::warp_size) + (threadIdx.x / cudf::detail::warp_size);
  unsigned const rows = blockIdx.x * 4 + (threadIdx.x / 32);
  if (frag_id < n && fixed < n && rows < n) groups[frag_id] = fixed + rows;
}
CUDF_KERNEL void __launch_bounds__(256) tiles(int* groups, int n)
{
  unsigned const t = blockIdx.x * 4 + (threadIdx.x / cudf::detail::warp_size);
  if (t < n) groups[t] = t;
}
"""


def _ws032(tmp_path: Path, text: str) -> list[tuple[int, str]]:
    (tmp_path / "utils.cuh").write_text(HEADER)
    k = tmp_path / "main.cu"
    k.write_text(text)
    rc, out, err = kp_inproc("lint", "--format", "json", "-I", str(tmp_path), str(k))
    assert rc in (0, 1), err
    return [(f["line"], f["message"]) for f in json.loads(out) if f["code"] == "WS032"]


def test_literal_bounds_of_slots_sized_by_a_per_platform_warp_size_are_reported(tmp_path: Path):
    got = _ws032(tmp_path, SLOTS)
    assert [line for line, _ in got] == [9, 10, 12], got
    assert "4 slots" in got[0][1] and "2 on a 64-lane wave" in got[0][1]
    # silent: the array's own count, its count at 64 lanes, a `4` that indexes no slot array


def test_a_header_macro_kernels_launch_bounds_give_the_block_its_warp_count(tmp_path: Path):
    got = _ws032(tmp_path, GRID)
    assert [line for line, _ in got] == [5], got
    assert "128-thread block" in got[0][1]
    # silent: a count from the wave width, 32-thread rows, a 4 that is not the 256-thread block's warps


def test_a_constant_that_names_itself_through_a_traits_class_ends(tmp_path: Path):
    # mamba's selective_scan: `constexpr int kNThreads = Ktraits::kNThreads;` (the last `::` name
    # is its own) sent the constant evaluation round for ever (RecursionError, an internal error)
    text = """\
template <typename Ktraits> __global__ void scan(float* out) {
  constexpr int kNThreads = Ktraits::kNThreads;
  constexpr int kNWarps = kNThreads / warpSize;
  __shared__ float part[kNWarps];
  int w = threadIdx.x / warpSize;
  if (w < 4) part[w] = out[w];
}
"""
    (tmp_path / "utils.cuh").write_text(HEADER)
    k = tmp_path / "main.cu"
    k.write_text(text)
    rc, out, err = kp_inproc("lint", "--format", "json", str(k))
    assert rc in (0, 1) and "failed on this file" not in out + err, out + err
