"""WS rules that need what a header the file includes defines (found through -I, as the project
builds it): a kernel file alone does not show the hazard, the helper in its header does."""
from __future__ import annotations

import json
from pathlib import Path

from trust_support import kp_inproc

SCAN_HEADER = """\
#pragma once
template <typename T>
__device__ T block_scan(T value, T* slots) {
  const unsigned lane = threadIdx.x % warpSize;
  const unsigned warp = threadIdx.x / warpSize;
  if (lane == warpSize - 1) slots[warp] = value;
  __syncthreads();
  if (warp == 0) slots[lane] = __shfl_up_sync(0xffffffff, slots[lane], 1);
  __syncthreads();
  return value + (warp ? slots[warp - 1] : 0);
}
template <typename T>
__device__ T block_sum(T value, T* slots) {
  const unsigned lane = threadIdx.x % warpSize;
  const unsigned warp = threadIdx.x / warpSize;
  for (int o = warpSize / 2; o > 0; o >>= 1) value += __shfl_down_sync(0xffffffff, value, o);
  if (lane == 0) slots[warp] = value;
  __syncthreads();
  const unsigned nwarps = blockDim.x / warpSize;
  if (warp == 0) value = lane < nwarps ? slots[lane] : 0;
  return value;
}
"""

KERNELS = """\
#include <scan/block.cuh>
template <typename T>
__global__ void scan_kernel(T* x) {
  __shared__ T buffer[32];
  x[threadIdx.x] = block_scan<T>(x[threadIdx.x], buffer);
}
template <typename T>
__global__ void sum_kernel(T* x) {
  __shared__ T buffer[32];
  x[blockIdx.x] = block_sum<T>(x[threadIdx.x], buffer);
}
#define TILE_DIM 32
__global__ void copy_tile(float* o, const float* i) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  tile[threadIdx.y][threadIdx.x] = i[threadIdx.y * TILE_DIM + threadIdx.x];
  __syncthreads();
  o[threadIdx.x * TILE_DIM + threadIdx.y] = tile[threadIdx.x][threadIdx.y];
}
"""


def _lint(*args) -> list[dict]:
    rc, out, err = kp_inproc("lint", "--format", "json", *map(str, args))
    assert rc in (0, 1), err
    return json.loads(out)


def _with_header(tmp_path: Path, header: str, header_text: str, name: str, text: str, code: str):
    """Lint `name` (its text) with -I a folder holding `header`: its `code` findings in that file; and
    the same file linted without the header."""
    h = tmp_path / "inc" / header
    h.parent.mkdir(parents=True)
    h.write_text(header_text)
    k = tmp_path / name
    k.write_text(text)
    with_it = [f for f in _lint("-I", tmp_path / "inc", k) if f["code"] == code and Path(f["path"]).name == name]
    return with_it, [f for f in _lint(k) if f["code"] == code]


def test_a_32_slot_array_a_header_helper_stores_at_every_lane(tmp_path: Path):
    found, alone = _with_header(tmp_path, "scan/block.cuh", SCAN_HEADER, "kernels.cu", KERNELS, "WS011")
    # block_scan stores slots[lane] for every lane of warp 0: flagged at the 32 of scan_kernel's array
    assert [f["line"] for f in found] == [4], found
    assert "block_scan" in found[0]["message"] and "block.cuh:8" in found[0]["message"]
    # block_sum stores at the warp index only (reads lanes below the warp count), and the tile is
    # a tile: neither is flagged; without the header the helper is unknown, so nothing is
    assert not alone


QUEUE_HEADER = """\
#pragma once
constexpr int kWarpSize = 32;
template <typename K, int NumWarpQ, int ThreadsPerBlock>
struct WarpQueue {
  static constexpr int kRegisters = NumWarpQ / kWarpSize;
  K keys[kRegisters];
};
"""

DISPATCH = """\
#include <select/queue.cuh>
template <int NumWarpQ, int Tile>
__global__ void select_k(const float* x, float* out, int k) {
  WarpQueue<float, NumWarpQ, 128> queue;
  __shared__ float tile[Tile][Tile + 1];
  queue.keys[0] = __shfl_sync(0xffffffff, x[threadIdx.x], 0);
  tile[threadIdx.y][threadIdx.x] = queue.keys[0];
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
void run(const float* x, float* out, int k) {
  if (k <= 32) {
    select_k<32, 16><<<1, 128>>>(x, out, k);
  } else if (k <= 64) {
    select_k<64, 32><<<1, 128>>>(x, out, k);
  }
}
"""


def test_a_host_tier_of_32_for_a_template_a_header_divides_by_the_warp_size(tmp_path: Path):
    found, alone = _with_header(tmp_path, "select/queue.cuh", QUEUE_HEADER, "select.cu", DISPATCH, "WS015")
    # select_k passes NumWarpQ to WarpQueue, which divides it by kWarpSize: the k <= 32 tier is flagged
    # at its test, naming the 32 it instantiates; the 64 tier and the Tile argument (32) are not
    assert [(f["line"], [r["line"] for r in f["related"]]) for f in found] == [(11, [12])], found
    assert "select_k" in found[0]["message"]
    # without the header nothing says NumWarpQ counts warps
    assert not alone


MASK_HEADER = """\
#pragma once
#include <cstdint>
#define HELPER inline
HELPER auto activemask() { return __activemask(); }
HELPER std::uint32_t popc(std::uint32_t mask) { return __popc(mask); }
HELPER std::uint32_t ffs(std::uint32_t word) { return __ffs(word); }
"""

ALLOCATOR = """\
#include <alloc/utils.hpp>
__global__ void allocate(const int* sizes, int* counts, const unsigned* pages) {
  const unsigned mask = activemask();
  const unsigned long long wide = activemask();
  counts[threadIdx.x] = popc(__ballot_sync(wide, sizes[threadIdx.x] > 16));
  counts[blockIdx.x] = popc(pages[blockIdx.x]) + ffs(~pages[blockIdx.x]);
}
"""


def test_a_lane_mask_through_a_header_helper(tmp_path: Path):
    """mallocMC's shape: `activemask()` and a `popc(std::uint32_t)` in a header whose attribute macro
    says nothing of the device.  The helper's mask stored in 32 bits, and a ballot given to the 32-bit
    parameter (named as related), are flagged; the 64-bit holder and the page words are not."""
    found, alone = _with_header(tmp_path, "alloc/utils.hpp", MASK_HEADER, "alloc.cu", ALLOCATOR, "WS008")
    assert [f["line"] for f in found] == [3, 5], found
    assert [(Path(r["path"]).name, r["line"]) for r in found[1]["related"]] == [("utils.hpp", 5)]
    assert "'mask' of 'popc'" in found[1]["message"]
    # without the header neither helper is known: nothing to follow
    assert not alone


PER_WAVE_ROOT = """\
#if defined(__AMDGCN_WAVEFRONT_SIZE) && (__AMDGCN_WAVEFRONT_SIZE == 64)
#define WS 64
#else
#define WS 32
#endif
static const int TPB = 512;
#include "comp/first_8.h"
__global__ void k(int* x) { x[threadIdx.x] = first_warp_sum(x[threadIdx.x]); }
"""

FIXED_ROOT = """\
#define WS 32
static const int TPB = 512;
#include "comp/%s"
__global__ void k(int* x) { x[threadIdx.x] = first_warp_sum(x[threadIdx.x]); }
"""

WRAPPER = '#pragma once\n#include "inc/first.h"\n'

FIRST_WARP = """\
#pragma once
static __device__ inline int first_warp_sum(int v) {
  const int tid = threadIdx.x;
  if (tid < WS) {
    v += __shfl_xor_sync(~0, v, 1);
  }
  return v;
}
"""


def test_a_header_whose_includers_includers_define_ws_per_wave_runs_whole_waves(tmp_path: Path):
    """FPcompress's d_RAZE.h: `if (tid < WS)` (tid = threadIdx.x) in a header that gets WS from the file
    that includes the header that includes it (-I the project root, as its build does).  Where every
    such file defines WS as 64 under `__AMDGCN_WAVEFRONT_SIZE == 64` and 32 in the #else, the first warp
    is whole waves on every build; where one of them has WS 32 for every build, it is half of a 64-wide
    wave and stays flagged (WS012)."""
    def run(roots: dict[str, str]) -> list[int]:
        d = tmp_path / str(len(list(tmp_path.iterdir())))
        (d / "comp" / "inc").mkdir(parents=True)
        for w in {"first_8.h"} | {"first_8b.h" for text in roots.values() if "first_8b.h" in text}:
            (d / "comp" / w).write_text(WRAPPER)  # (a wrapper nobody includes would be an includer of unknown WS)
        (d / "comp" / "inc" / "first.h").write_text(FIRST_WARP)
        for name, text in roots.items():
            (d / "src").mkdir(exist_ok=True)
            (d / "src" / name).write_text(text)
        return [f["line"] for f in _lint("-I", d, d) if f["code"] == "WS012" and f["path"].endswith("first.h")]

    assert run({"a.cu": PER_WAVE_ROOT, "b.cu": PER_WAVE_ROOT}) == []
    assert run({"a.cu": PER_WAVE_ROOT, "b.cu": FIXED_ROOT % "first_8b.h"}) == [5]  # one includer has WS 32
    assert run({"b.cu": FIXED_ROOT % "first_8.h"}) == [5]


SHIFT_HEADER = """\
#pragma once
template <class T>
__device__ __inline__ T ShiftDown(T var, unsigned int delta, int width = %s) {
  return __shfl_down_sync(0xffffffff, var, delta, width);
}
"""

SHIFT_KERNEL = """\
#include <util/shift.h>
__global__ void norm(float* x) {
  float sum = x[threadIdx.x];
  for (int i = 16; i > 0; i /= 2)
    sum += ShiftDown(sum, i);
  x[threadIdx.x] = sum;
}
"""


def test_a_header_wrappers_literal_default_width_is_a_logical_group(tmp_path: Path):
    """cudasift's cudautils.h: `ShiftDown(T var, unsigned delta, int width = 32)`.  A call that leaves the
    width out passes 32: each 32-lane segment of a 64-wide wave is its own group, so the ladder from 16
    folds that group (as `ShiftDown(sum, i, 32)` would); a default of `warpSize` is the hardware warp, and
    the ladder from 16 there stays flagged (WS004)."""
    found, _ = _with_header(tmp_path / "lit", "util/shift.h", SHIFT_HEADER % "32", "k.cu", SHIFT_KERNEL, "WS004")
    assert found == []
    found, _ = _with_header(tmp_path / "hw", "util/shift.h", SHIFT_HEADER % "warpSize", "k.cu", SHIFT_KERNEL, "WS004")
    assert [f["line"] for f in found] == [4], found
