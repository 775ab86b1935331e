"""warpflow analyses only the functions a warp construct can reach (kernelport/warpreach.py): a
function that meets one only through a callee, a caller, a macro or an included header's function
must still be analysed (its finding reported), its look-alike without the construct stays silent,
and code no warp construct reaches is skipped."""
from __future__ import annotations

from pathlib import Path

from kernelport import warpflow, warpreach
from kernelport.lint.engine import lint_paths, lint_text
from kernelport.model import build
from kernelport.source import SourceFile


def codes(src: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in lint_text(src) if f.code.startswith("WS") and f.code != "WS007"]


def test_a_helper_whose_lane_a_caller_shuffles_is_analysed():
    helper = "__device__ int lane_of(int t) { return t & 31; }\n"
    shuffles = helper + """__global__ void k(int* out, float v) {
    int lane = lane_of(threadIdx.x);
    out[threadIdx.x] = __shfl_sync(0xffffffff, v, lane);
}
"""
    indexes = helper + """__global__ void k(float* out, float v) { out[lane_of(threadIdx.x)] = v; }
__global__ void r(float* out, float v) { out[threadIdx.x] = __shfl_sync(0xffffffff, v, 0); }
"""
    assert codes(shuffles) == [("WS002", 1)]
    assert codes(indexes) == []


def test_a_macro_lane_mask_reaches_a_shuffle_through_a_callee():
    src = """#define LANE_MASK 31
__device__ int lane_of(int t) { return t & LANE_MASK; }
__device__ float get(float v, int t) { return __shfl_sync(0xffffffff, v, lane_of(t)); }
__global__ void k(float* out, float v) { out[threadIdx.x] = get(v, threadIdx.x); }
"""
    assert codes(src) == [("WS001", 1)]
    silent = src.replace("__shfl_sync(0xffffffff, v, lane_of(t))", "v + lane_of(t)")
    assert codes(silent) == []


def test_a_kernel_warp_level_through_a_header_function_reaches_its_helpers(tmp_path: Path):
    (tmp_path / "red.cuh").write_text("""#pragma once
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
__device__ float plain_sum(float v) { return v + 1.0f; }
""")
    body = """#include "red.cuh"
__device__ int lane_of(int t) { return t % 32; }
__global__ void k(float* out, const float* in) {
    float s = SUM(in[threadIdx.x]);
    if (lane_of(threadIdx.x) == 0) out[blockIdx.x] = s;
}
"""
    (tmp_path / "a.cu").write_text(body.replace("SUM", "warp_sum"))
    (tmp_path / "b.cu").write_text(body.replace("SUM", "plain_sum"))
    found = [(Path(r.path).name, f.code, f.line) for r in lint_paths([tmp_path / "a.cu", tmp_path / "b.cu"], jobs=1)
             for f in r.findings]
    assert found == [("a.cu", "WS002", 2)]


def test_code_no_warp_construct_reaches_is_not_analysed():
    src = SourceFile.from_text("""
__device__ int tile_of(int t) { return t / 32; }
__global__ void tiles(float* out) { out[tile_of(threadIdx.x)] = 1.0f; }
__device__ int lane_of(int t) { return t & 31; }
__device__ float bcast(float v) { return __shfl_sync(0xffffffff, v, lane_of(threadIdx.x)); }
__device__ int lane_id() { return threadIdx.x & 31; }
""", "t.cu")
    an = warpflow._Analyzer(build(src))
    an.warp_level_functions()
    # lane_id: a helper named for its lane, whose returned 31 lint reports though no sink reaches it
    assert warpreach.live_functions(an, an.work.said) == {"lane_of", "bcast", "lane_id"}
