"""Two lint behaviours designed on tests/labelled6 (RWKV-LM-V7's ROCm port, 3dcc367f88), each with a
case it must flag and a look-alike it must not:

- a warp-size constant used only in logical 32-lane groups (rows of 32 from the launch or the data
  layout) is their width, not a hazard (WS001);
- a 32-bit full mask held in a local names its declaration, the line a port changes (WS007)."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

ROWS = """\
constexpr int kWarpSize = 32;
constexpr int kRows = 4;
__device__ float row_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
__global__ void rows(const float* x, float* out) {
    __shared__ float s[kRows][kWarpSize];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    s[warp][lane] = row_sum(x[(blockIdx.x * kRows + warp) * 32 + lane]);
    if (lane == 0) out[blockIdx.x * kRows + warp] = s[warp][0];
}
void launch(const float* x, float* out, int n) { rows<<<n, kWarpSize * kRows>>>(x, out); }
"""


def test_a_warp_size_constant_of_logical_rows_is_their_width():
    assert not [f for f in lint_text(ROWS, "t.cu") if f.code == "WS001"]


WAVE = """\
constexpr int kWarpSize = 32;
__global__ void block_sum(const float* x, float* out) {
    __shared__ float s[256 / kWarpSize];
    const int warp = threadIdx.x / kWarpSize, lane = threadIdx.x % kWarpSize;
    float v = x[blockIdx.x * 256 + threadIdx.x];
    for (int o = kWarpSize / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (lane == 0) s[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0] + s[1];
}
void launch(const float* x, float* out, int n) { block_sum<<<n, 256>>>(x, out); }
"""


def test_the_constant_is_flagged_where_the_group_follows_the_wave():
    assert [f.line for f in lint_text(WAVE, "t.cu") if f.code == "WS001"] == [1]  # whole waves: 32 is wrong


MASK = """\
__device__ float warp_sum(float v) {
    unsigned mask = 0xffffffffu;
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(mask, v, o);
    return v;
}
__device__ float warp_max(float v) {
    for (int o = warpSize / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__global__ void k(float* x) { x[threadIdx.x] = warp_sum(x[threadIdx.x]) + warp_max(x[threadIdx.x]); }
"""


def test_a_mask_held_in_a_local_names_its_declaration():
    ws7 = {f.line: f for f in lint_text(MASK, "t.cu", select=["WS007"])}
    assert [r.line for r in ws7[3].related] == [2]


def test_a_literal_mask_names_nothing_else():
    ws7 = {f.line: f for f in lint_text(MASK, "t.cu", select=["WS007"])}
    assert 7 in ws7 and ws7[7].related == ()
