"""WS021: groups of 32 threads served by helpers that work on the hardware wave, found in the project
headers a file includes (kernelport.wavehelpers); a suppression inside a function-like macro's body."""
from __future__ import annotations

import json
from pathlib import Path

from kernelport.lint.engine import lint_text
from trust_support import kp_inproc

# DeepEP's shape (utils.cuh at 2f571367ff^): the lane is the wave's in the HIP build, the leader its lane 0.
HEADER = """\
#pragma once
__forceinline__ __device__ int get_lane_id() {
#ifdef USE_ROCM
    return threadIdx.x % warpSize;
#else
    int lane_id;
    asm("mov.s32 %0, %laneid;" : "=r"(lane_id));
    return lane_id;
#endif
}
__device__ __forceinline__ bool elect_one_sync() { return get_lane_id() == 0; }
template <int kLanes = kWarpSize> __device__ int warp_reduce_sum(int v) {
    for (int o = kLanes / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o, kLanes);
    return v;
}
"""
KERNEL = """\
#include "utils.cuh"
__global__ void count(const int* x, int* out, int n) {
    auto thread_id = static_cast<int>(threadIdx.x);
    auto lane_id = thread_id % 32, warp_id = thread_id / 32;
    int c = 0;
    for (int i = lane_id; i < n; i += 32) c += x[warp_id * n + i];
    c = REDUCE(c);
    if (LEADER) out[warp_id] = c;
}
"""


def _ws021(tmp_path: Path, kernel: str) -> list[dict]:
    (tmp_path / "utils.cuh").write_text(HEADER)
    (tmp_path / "k.cu").write_text(kernel)
    rc, out, err = kp_inproc("lint", "--format", "json", "--select", "WS021", str(tmp_path / "k.cu"))
    assert rc in (0, 1), err
    return json.loads(out)


def test_a_32_lane_group_calling_the_headers_wave_helpers_is_flagged(tmp_path):
    found = _ws021(tmp_path, KERNEL.replace("REDUCE", "warp_reduce_sum").replace("LEADER", "elect_one_sync()"))
    assert [f["line"] for f in found] == [4]
    assert "warp_reduce_sum" in found[0]["message"] and "utils.cuh" in found[0]["message"]
    assert [r["line"] for r in found[0]["related"]] == [7, 8, 6]  # the helper calls, then the stride of 32


def test_the_same_group_at_an_explicit_32_lanes_is_quiet(tmp_path):
    assert _ws021(tmp_path, KERNEL.replace("REDUCE", "warp_reduce_sum<32>").replace("LEADER", "lane_id == 0")) == []


def test_a_helper_whose_default_is_hardcoded_32_is_the_callers_size(tmp_path):
    kernel = "#define kWarpSize 32\n" + KERNEL.replace("REDUCE", "warp_reduce_sum").replace("LEADER", "lane_id == 0")
    assert _ws021(tmp_path, kernel) == []


def test_a_suppression_inside_a_function_like_macro_body_applies():
    text = ("#define COPY(LANE_ID, N, D, S) \\\n"
            "    for (int i = (LANE_ID); i < (N); i += 32) (D)[i] = (S)[i];"
            "  // kernelport: ignore[WS022] an NVIDIA-only copy\n")
    assert [f.code for f in lint_text(text, "t.cu", select=["WS022"])] == []
    assert [f.code for f in lint_text(text.split("  //")[0] + "\n", "t.cu", select=["WS022"])] == ["WS022"]
