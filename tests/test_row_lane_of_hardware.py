"""A function that takes the hardware lane only as a lane of 32 (`__lane_id() & 31`, `% 32`: a 32-lane row's
lane at either wave width, as the HIP port's logical warps do: hip_wmma.py's kp_wmma_lane) does not name the
hardware wave (kernelport/warpsplits.names_wave): a kernel that splits its block into 32-lane rows and calls
it keeps lint's advice.  Before, such a helper made the rows' WARP_SIZE an error in the HIP port of every wmma
kernel that splits its block by `threadIdx.x / WARP_SIZE`, which the original lints as advice, so translate
refused the port as its own bug (KP220: cuda-samples' bf16TensorCoreGemm).  The look-alikes: the unmasked
hardware lane, or one masked to 64 lanes, still names the wave."""
from __future__ import annotations

import textwrap

import pytest

from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles, require_tool
from test_hip_wmma import GEMM

HIP_ROWS = """\
#define WARP_SIZE 32
__device__ inline float row_pair(float v) {
    return __shfl(v, LANE ^ 1, 32);
}
__global__ void pairs(const float* x, float* y, float* firsts) {
    const unsigned int warpId = threadIdx.x / WARP_SIZE;
    const unsigned int laneId = threadIdx.x % WARP_SIZE;
    float v = row_pair(x[blockIdx.x * 128 + threadIdx.x]);
    y[blockIdx.x * 128 + threadIdx.x] = v;
    if (laneId == 0) firsts[blockIdx.x * 4 + warpId] = v;
}
void launch(const float* x, float* y, float* f, int n) { pairs<<<n, 4 * WARP_SIZE>>>(x, y, f); }
"""


def _ws001(lane: str) -> str:
    found = [f for f in lint_text(HIP_ROWS.replace("LANE", lane), "t.hip") if f.code == "WS001"]
    assert len(found) == 1, [f.message for f in found]
    return found[0].severity


@pytest.mark.parametrize("lane", ["(int)(__lane_id() & 31u)", "(__lane_id() % 32)", "((int)__lane_id() & 0x1f)"])
def test_a_hardware_lane_masked_to_32_is_a_rows_lane(lane):
    assert _ws001(lane) == "info"


@pytest.mark.parametrize("lane", ["(int)__lane_id()", "(int)(__lane_id() & 63u)", "(int)(31 & __lane_id())"])
def test_the_hardware_lane_unmasked_or_masked_to_the_wave_names_the_wave(lane):
    assert _ws001(lane) == "error"  # (`31 & x` is read as written: only `x & 31` is taken as the row's lane)


# test_hip_wmma's GEMM with its warps split by a WARP_SIZE of 32 (bf16TensorCoreGemm's `threadIdx.x / WARP_SIZE`)
WMMA_ROWS = "#define WARP_SIZE 32\n" + GEMM.replace(
    "int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;",
    "int warp = blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;").replace(
    "int lane = threadIdx.x % 32;", "int lane = threadIdx.x % WARP_SIZE;")


def test_a_wmma_kernel_split_by_warp_size_ports_to_hip_with_its_32_lane_warps(tmp_path):
    port, whole = translate(SourceFile.from_text(textwrap.dedent(WMMA_ROWS), "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]  # main: KP220 (the port's WS001, the polyfill's __lane_id)
    assert WMMA_ROWS != "#define WARP_SIZE 32\n" + GEMM and "threadIdx.x / WARP_SIZE;" in WMMA_ROWS
    assert "#define WARP_SIZE 32" in whole and "threadIdx.x / WARP_SIZE;" in whole  # wmma's warps stay 32 lanes
    require_tool("hipcc")
    hip_compiles(tmp_path, whole)  # gfx90a and gfx1030
