"""A header's function-like lane or warp macro used in the file that includes it (kernelport/header_lane_macros.py
call_facts): `#define LANE_OF(t) ((t) & 31)` and `#define WARP_OF(t) ((t) >> 5)` in lanes.cuh, given the thread
index in k.cu, are read as the object-like `LANE_ID` / `WARP_ID` are (WS002 / WS003 at the use, naming the
definition).  Look-alikes that stay quiet: `ROW_OF(i) ((i) >> 5)` of rows of 32 elements given an element index,
the same shifts indexing a 32 x 32 tile by the thread in a kernel without warp operations (as the spelled-out
`threadIdx.x >> 5` is), a macro taken modulo the wave, one chosen per platform.  Every case runs twice (`where`):
with the definitions in the header, and written in k.cu itself (stop 66: the file's own function-like lane macro
was silent; header_lane_macros.function_macro)."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_paths

HEADER = """\
#pragma once
#define LANE_OF(t) ((t) & 31)
#define WARP_OF(t) ((t) >> 5)
#define ROW_OF(i) ((i) >> 5)
#define COL_OF(i) ((i) & 31)
#define WAVE_LANE_OF(t) ((t) % warpSize)
#if defined(__HIP_PLATFORM_AMD__)
#define PLAT_LANE_OF(t) ((t) & 63)
#else
#define PLAT_LANE_OF(t) ((t) & 31)
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
    if (threadIdx.x % warpSize == 0) part[WARP_OF(threadIdx.x)] = v;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = part[0] + part[1];
}
"""

ROWS = """\
#include "lanes.cuh"
__global__ void k(float* out, const float* in, int n) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    for (int e = 0; e < n; ++e) out[ROW_OF(e) * n + COL_OF(e)] += v;
}
__global__ void t(float* out, const float* in) {
    __shared__ float tile[32][33];
    tile[ROW_OF(threadIdx.x)][COL_OF(threadIdx.x)] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[COL_OF(threadIdx.x)][ROW_OF(threadIdx.x)];
}
"""


OWN = HEADER.replace("#pragma once\n", "")  # the definitions written in k.cu in place of its include
SHIFT = OWN.count("\n") - 1  # (the lines they add before the kernel's)


@pytest.fixture(params=["header", "own"])
def where(request) -> str:
    return request.param


def _write(tmp_path, user: str, where: str) -> None:
    (tmp_path / "lanes.cuh").write_text(HEADER)
    (tmp_path / "k.cu").write_text(user if where == "header" else user.replace('#include "lanes.cuh"\n', OWN))


def _lint(tmp_path, user: str, where: str) -> list[tuple[str, int]]:
    _write(tmp_path, user, where)
    shift = SHIFT if where == "own" else 0
    return sorted((f.code, f.line - shift) for r in lint_paths([tmp_path / "k.cu"], jobs=1) for f in r.findings
                  if r.path.endswith("k.cu") and f.code not in ("WS007", "WS016"))


def test_header_function_like_lane_reaching_a_leader_test(tmp_path, where):
    assert _lint(tmp_path, LEADER.replace("LANE", "LANE_OF(threadIdx.x)", 1), where) == [("WS002", 3)]


def test_header_function_like_warp_index_indexing_per_warp_slots(tmp_path, where):
    assert ("WS003", 6) in _lint(tmp_path, SLOTS, where)


@pytest.mark.parametrize("lane", ["WAVE_LANE_OF(threadIdx.x)", "PLAT_LANE_OF(threadIdx.x)", "LANE_OF(blockIdx.x)"])
def test_wave_or_per_platform_or_non_thread_lane_is_quiet(tmp_path, lane, where):
    assert _lint(tmp_path, LEADER.replace("LANE", lane, 1), where) == []


def test_rows_of_32_elements_are_quiet(tmp_path, where):
    assert _lint(tmp_path, ROWS, where) == []


def test_the_message_names_the_definition(tmp_path, where):
    _write(tmp_path, LEADER.replace("LANE", "LANE_OF(threadIdx.x)", 1), where)
    msgs = [f.message for r in lint_paths([tmp_path / "k.cu"], jobs=1) for f in r.findings if f.code == "WS002"]
    at = "lanes.cuh:2" if where == "header" else "k.cu:1"
    assert len(msgs) == 1 and "`LANE_OF(t)` is `((t) & 31)`" in msgs[0] and at in msgs[0]
