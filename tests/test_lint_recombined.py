"""WS001 names the uses of a hardcoded warp size as the lines that assume 32 lanes; a use its value
cannot change is not one (kernelport/lint/recombined.py).  ExLlamaV2's rms_norm.cu before 5a61d6e821
(tests/labelled_heldout; also a0b58c9^, the same file) has `column = warp_id * WARP_SIZE + lane_id +
NUM_THREADS * i` at lines 54 and 85, with `warp_id = threadIdx.x / WARP_SIZE` and `lane_id = threadIdx.x %
WARP_SIZE`: the sum is `threadIdx.x + NUM_THREADS * i` at any width, yet WS001 named both lines among
WARP_SIZE's uses (scored as flagged look-alikes where a labelling called them so, as unlabelled flagged
lines in labelled_heldout).  The lane and warp indices themselves stay named, and so does a product whose
other term is not the matching remainder."""
from __future__ import annotations

from kernelport.lint import lint_text

NORM = """\
#define WARP_SIZE 32
__global__ void norm(float* x, float* y, int n) {
    int warp_id = threadIdx.x / WARP_SIZE;
    int lane_id = threadIdx.x % WARP_SIZE;
    __shared__ float sums[32];
    float s = x[threadIdx.x];
    for (int o = warpSize / 2; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);
    if (lane_id == 0) sums[warp_id] = s;
    __syncthreads();
    int column = warp_id * WARP_SIZE + lane_id + 1024 * n;
    int masked = warp_id * WARP_SIZE + (threadIdx.x & (WARP_SIZE - 1));
    y[column] = sums[0] + masked;
}
"""

NOT_RECOMBINED = """\
#define WARP_SIZE 32
__global__ void rows(float* x, float* y) {
    int warp_id = threadIdx.x / WARP_SIZE;
    int lane_id = threadIdx.x % WARP_SIZE;
    int row = threadIdx.y % WARP_SIZE;
    float s = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1);
    if (lane_id == 0) y[warp_id] = s;
    int other = warp_id * WARP_SIZE + row;
    lane_id = lane_id + 1;
    int moved = warp_id * WARP_SIZE + lane_id;
    y[other + moved] = s;
}
"""


def _ws001_related(text: str) -> set[int]:
    found = [f for f in lint_text(text, "k.cu") if f.code == "WS001"]
    assert len(found) == 1 and found[0].line == 1, found
    return {r.line for r in found[0].related}


def test_a_quotient_and_remainder_recombined_by_the_constant_is_not_a_use_that_assumes_32_lanes():
    related = _ws001_related(NORM)
    assert {3, 4} <= related  # the warp and lane indices do assume it
    assert not {10, 11} & related, related  # `q * C + r` and `q * C + (x & (C - 1))` are threadIdx.x


def test_a_product_whose_term_is_another_remainder_or_a_reassigned_lane_stays_named():
    related = _ws001_related(NOT_RECOMBINED)
    assert {3, 4, 8, 10} <= related, related  # row is threadIdx.y's; lane_id is assigned again
