"""WS001 names a block's warp count paired with a hardcoded warp size (exllamav2's rms_norm.cu at
5a61d6e821^: `NUM_WARPS 32`, `NUM_THREADS (NUM_WARPS * WARP_SIZE)`): at 64 lanes the product passes
the 1024 threads a block may have, so the count has to follow the wave too.  Its ladder starts at
`warpSize / 2`, as the original's does: rows of 32 with a wave-wide ladder (a kernel whose every
32 is its rows' width is advice instead: tests/test_lint_row_splits.py)."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

KERNEL = """\
#define NUM_WARPS COUNT
#define WARP_SIZE 32
#define NUM_THREADS (NUM_WARPS * WARP_SIZE)
__global__ void row_sum(const float* x, float* out) {
    __shared__ float sums[NUM_WARPS];
    int warp = threadIdx.x / WARP_SIZE, lane = threadIdx.x % WARP_SIZE;
    float v = x[blockIdx.x * NUM_THREADS + threadIdx.x];
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    if (lane == 0) sums[warp] = v;
}
"""


def _ws001(count: str):
    found = [f for f in lint_text(KERNEL.replace("COUNT", count), "t.cu", select=["WS001"]) if f.line == 2]
    assert len(found) == 1
    return found[0]


def test_a_warp_count_that_fills_a_1024_block_is_named():
    f = _ws001("32")
    assert 1 in [r.line for r in f.related] and "NUM_WARPS" in f.message


def test_a_count_that_still_fits_at_64_lanes_is_not():
    f = _ws001("8")
    assert 1 not in [r.line for r in f.related] and "NUM_WARPS" not in f.message
