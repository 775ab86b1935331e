"""A block's thread index declared with braces, `const int tid{static_cast<int>(threadIdx.y) * 8 +
static_cast<int>(threadIdx.x)};` (kernelport/braced_scalars.py), is the thread index `= ...` declares, and a
per-warp shared array of rows, `part[w][0] = s;` (kernelport/warpcounts._stored), is a per-warp slot.  Found
on cujpegxl's frontend_fused.cu (heldout71): a 64-thread (8 x 8) tile sums each 32-lane warp with a shuffle
ladder from 16, lane 0 of each warp writes `sh_red[tid >> 5][k]`, and thread 0 adds `sh_red[0][k] +
sh_red[1][k]`.  Neither the index nor the slots were seen, so the port widened the ladder to the wave
(`warpSize / 2`) and kept `(tid & 31) == 0` and `tid >> 5`: at wave 64, lane 32's half-sum was added to the
wave's whole sum, a port that compiles and computes something else (verify --oracle original: numeric FAIL
at wave 64).  Now the fixed count of warp slots read keeps the group's 32-lane warps (the ladder's shuffles
get width 32), exact at any wave width.  The look-alike reads its slots under a bound the port rewrites
(`(blockDim.x * blockDim.y) / 32`): a wave-wide port, its lane split the wave's."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

TILE = """__device__ inline float warp_sum(float v) {
    for (int off{16}; off > 0; off >>= 1) {
        v += __shfl_down_sync(0xffffffffu, v, off);
    }
    return v;
}
__global__ void tile_sum(const float* x, float* out)
{
    __shared__ float part[2][2];
    const int tid{static_cast<int>(threadIdx.y) * 8 + static_cast<int>(threadIdx.x)};
    const float s{warp_sum(x[blockIdx.x * 64 + tid])};
    if ((tid & 31) == 0) {
        const int w{tid >> 5};
        part[w][0] = s;
        part[w][1] = s * s;
    }
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = part[0][0] + part[1][0] + part[0][1] + part[1][1];
}
void launch(const float* x, float* out, int tiles)
{
    const dim3 block{8, 8};
    tile_sum<<<tiles, block>>>(x, out);
}
"""

# the same kernel, its slots read under a bound the port rewrites
ROWS_BOUND = TILE.replace("    if (tid == 0) out[blockIdx.x] = part[0][0] + part[1][0] + part[0][1] + part[1][1];\n",
                          "    if (tid == 0) {\n        float t{0.0f};\n"
                          "        for (int i = 0; i < (blockDim.x * blockDim.y) / 32; ++i) t += part[i][0] + part[i][1];\n"
                          "        out[blockIdx.x] = t;\n    }\n")


def hip(code: str) -> str:
    port, text = translate(SourceFile.from_text(code, "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    return text


def test_a_braced_thread_index_and_per_warp_rows_keep_32_lane_warps():
    text = hip(TILE)
    assert "for (int off{16}; off > 0; off >>= 1) {" in text and "v += __shfl_down(v, off, 32);" in text, text
    assert "if ((tid & 31) == 0) {" in text and "const int w{tid >> 5};" in text, text


def test_slots_read_under_a_rewritten_bound_port_to_the_wave():
    assert ROWS_BOUND != TILE
    text = hip(ROWS_BOUND)
    assert "for (int off{warpSize / 2}; off > 0; off >>= 1) {" in text and "v += __shfl_down(v, off);" in text, text
    assert "if ((tid & (warpSize - 1)) == 0) {" in text and "const int w{tid / warpSize};" in text, text
    assert "i < (blockDim.x * blockDim.y) / warpSize; ++i" in text, text
