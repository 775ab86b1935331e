"""A warp-size constant in a function whose only warp operation is a barrier (tests/labelled15,
CTranslate2's `block_reduce`, adapted from PyTorch's SoftMax.cu): its 32 lays out chunks of shared
memory, nothing reads another lane's register, and the code computes the same when two such
groups share a 64-lane wave.  WS001 stays silent on it (kernelport/lint/syncgroups.py), and still
reports the same constant once the function shuffles, names the hardware wave or calls a
warp-level helper.  The 32-bit `uint32_t` mask such a function passes to `__syncwarp` (the line
the commit changed) is WS007's, at the barrier (kernelport/lint/rules/ws_fullmask.py): it was found
only as a related location of WS001's finding before."""
from __future__ import annotations

from kernelport.lint import lint_text

BLOCK_REDUCE = """\
#include <cstdint>
#define C10_WARP_SIZE 32
template <typename Reduction, typename AccumT>
__device__ AccumT block_reduce(AccumT* smem, AccumT val, const Reduction& r, AccumT defaultVal) {
    __syncthreads();
    smem[threadIdx.x] = val;
    __syncthreads();
    AccumT warpVal = defaultVal;
    uint64_t mask = (((uint64_t)1) << (blockDim.x / C10_WARP_SIZE)) - 1;
    if (threadIdx.x < C10_WARP_SIZE) {
        int lane = threadIdx.x % C10_WARP_SIZE;
        if (lane < blockDim.x / C10_WARP_SIZE) {
            for (int i = 0; i < C10_WARP_SIZE; ++i) warpVal = r(warpVal, smem[lane * C10_WARP_SIZE + i]);
            __syncwarp(mask);
            smem[lane] = warpVal;
        }
    }
    __syncthreads();
    AccumT blockVal = defaultVal;
    if (threadIdx.x == 0) {
        for (int i = 0; i < blockDim.x / C10_WARP_SIZE; ++i) blockVal = r(blockVal, smem[i]);
        smem[0] = blockVal;
    }
    __syncthreads();
    return smem[0];
}
"""

WARP_HELPER = """\
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
"""


def _codes(text: str, code: str) -> list:
    return [f.line for f in lint_text(text, "t.cu") if f.code == code and f.severity in ("warning", "error")]


def test_a_warp_size_constant_in_a_barrier_only_block_reduction_is_quiet():
    assert _codes(BLOCK_REDUCE, "WS001") == []


def test_the_same_constant_beside_a_shuffle_the_hardware_wave_or_a_warp_helper_is_reported():
    shuffles = BLOCK_REDUCE.replace("smem[lane] = warpVal;",
                                    "smem[lane] = __shfl_down_sync(0xffffffffu, warpVal, 1);")
    assert _codes(shuffles, "WS001") == [2]
    wave = BLOCK_REDUCE.replace("if (threadIdx.x == 0) {", "if (threadIdx.x % warpSize == 0) {")
    assert _codes(wave, "WS001") == [2]
    helper = WARP_HELPER + BLOCK_REDUCE.replace("smem[lane] = warpVal;", "smem[lane] = warp_sum(warpVal);")
    assert _codes(helper, "WS001") == [6]


def test_a_32_bit_mask_passed_to_syncwarp_is_reported_at_the_barrier():
    narrow = BLOCK_REDUCE.replace("uint64_t mask =", "uint32_t mask =")
    found = [f for f in lint_text(narrow, "t.cu") if f.code == "WS007"]
    assert [f.line for f in found] == [14], found
    assert found[0].related and found[0].related[0].line == 9


def test_a_64_bit_mask_or_no_mask_at_the_barrier_stays_quiet():
    assert _codes(BLOCK_REDUCE, "WS007") == []
    assert _codes(BLOCK_REDUCE.replace("__syncwarp(mask)", "__syncwarp()"), "WS007") == []
