"""A header's lane or warp macro used in the file that includes it (kernelport/header_lane_macros.py; stop 63 left
"lane macros from headers"): `#define LANE_ID (threadIdx.x & 31)`, `#define LANE_MASK (WARP_SIZE - 1)` and
`#define WARP_ID (threadIdx.x / WARP_SIZE)` in lanes.cuh, read where k.cu uses them.  Look-alikes that stay quiet:
a tile's `ROW_MASK 31` / `(TILE - 1)` / `(threadIdx.x & 31)` indexing a 32x32 tile, a definition chosen per platform,
and one taken modulo the wave itself."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_paths

HEADER = """\
#pragma once
#define WARP_SIZE 32
#define LANE_ID (threadIdx.x & 31)
#define LANE_MASK (WARP_SIZE - 1)
#define WARP_ID (threadIdx.x / WARP_SIZE)
#define WAVE_LANE (threadIdx.x % warpSize)
#define TILE 32
#define ROW_MASK 31
#define COL_MASK (TILE - 1)
#define COL_OF_T (threadIdx.x & 31)
#if defined(__HIP_PLATFORM_AMD__)
#define PLAT_LANE (threadIdx.x & 63)
#else
#define PLAT_LANE (threadIdx.x & 31)
#endif
"""

LEADER = """\
#include "lanes.cuh"
__global__ void k(float* out, const float* in) {
    int lane = LANE;
    float v = in[threadIdx.x];
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) out[blockIdx.x] = v;
}
"""

SLOTS = """\
#include "lanes.cuh"
__global__ void k(float* out, const float* in) {
    __shared__ float part[32];
    float v = in[threadIdx.x];
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % warpSize == 0) part[WARP_ID] = v;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = part[0] + part[1];
}
"""

TILE = """\
#include "lanes.cuh"
__global__ void t(float* out, const float* in, int n) {
    __shared__ float tile[TILE][TILE + 1];
    int c = threadIdx.x & ROW_MASK, c2 = threadIdx.x & COL_MASK;
    tile[threadIdx.y][c] = in[threadIdx.y * n + c2];
    __syncthreads();
    out[threadIdx.x * n + threadIdx.y] = tile[COL_OF_T][threadIdx.y];
}
__global__ void k(float* out, const float* in) {
    float v = in[threadIdx.x];
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % warpSize == 0) out[blockIdx.x] = v;
}
"""


def _lint(tmp_path, user: str) -> list[tuple[str, int]]:
    (tmp_path / "lanes.cuh").write_text(HEADER)
    (tmp_path / "k.cu").write_text(user)
    return sorted((f.code, f.line) for r in lint_paths([tmp_path / "k.cu"], jobs=1) for f in r.findings
                  if r.path.endswith("k.cu") and f.code not in ("WS007", "WS016"))


@pytest.mark.parametrize("lane", ["LANE_ID", "threadIdx.x & LANE_MASK"])
def test_header_lane_reaching_a_leader_test(tmp_path, lane):
    assert _lint(tmp_path, LEADER.replace("LANE", lane, 1)) == [("WS002", 3)]


def test_header_warp_id_indexing_per_warp_slots(tmp_path):
    assert ("WS003", 6) in _lint(tmp_path, SLOTS)


@pytest.mark.parametrize("lane", ["WAVE_LANE", "PLAT_LANE", "threadIdx.x & (warpSize - 1)"])
def test_wave_or_per_platform_lane_is_quiet(tmp_path, lane):
    assert _lint(tmp_path, LEADER.replace("LANE", lane, 1)) == []


def test_tile_masks_from_the_header_are_quiet(tmp_path):
    assert _lint(tmp_path, TILE) == []


def test_the_message_names_the_use(tmp_path):
    (tmp_path / "lanes.cuh").write_text(HEADER)
    (tmp_path / "k.cu").write_text(LEADER.replace("LANE", "LANE_ID", 1))
    msgs = [f.message for r in lint_paths([tmp_path / "k.cu"], jobs=1) for f in r.findings if f.code == "WS002"]
    assert len(msgs) == 1 and "`LANE_ID`" in msgs[0] and "lanes.cuh:3" in msgs[0]
