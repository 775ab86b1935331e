"""Lanes kept in class members and cub's shuffles (tests/labelled_heldout's mamba miss,
reverse_scan.cuh:132: `WarpReverseScan() : lane_id(threadIdx.x & 0x1f)`, read by the methods that
shuffle with `cub::ShuffleDown<LOGICAL_WARP_THREADS>`), each with a case it must flag and a look-alike
it must not:

- a member given a lane in a constructor's initializer list is that lane in every method of its class
  (kernelport.memberlanes), unless the method declares a variable of the same name;
- cub's `ShuffleDown` / `ShuffleUp` / `ShuffleIndex` are shuffles (the CUDA backend's library
  spellings), at the hardware width unless the template argument is a literal logical width;
- overloaded functions share a name in warpflow: one overload's shuffles make the name warp-level
  whatever order the overloads come in (the BlockReverseScan overload of InclusiveReverseScan hid
  the WarpReverseScan one)."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

MEMBER = """\
template <typename T, int LOGICAL_WARP_THREADS>
struct RevScan {
    unsigned int lane_id;
    explicit __device__ RevScan() : lane_id(threadIdx.x & 0x1f) {}
    __device__ T scan(T input) {
        T out = input;
        for (int STEP = 0; STEP < 5; STEP++) {
            int offset = 1 << STEP;
            T temp = __shfl_down(out, offset);
            out = static_cast<int>(lane_id) >= LOGICAL_WARP_THREADS - offset ? out : temp + out;
        }
        return out;
    }
};
"""


def _lines(text: str, code: str) -> list[int]:
    return [f.line for f in lint_text(text, "t.cu") if f.code == code]


def test_a_lane_set_in_an_initializer_list_is_a_lane_in_the_methods():
    assert _lines(MEMBER, "WS002") == [4]


def test_a_member_the_methods_do_not_test_as_a_lane_is_quiet():
    row = MEMBER.replace("static_cast<int>(lane_id) >= LOGICAL_WARP_THREADS - offset", "offset > 4") \
        .replace("return out;", "return out + (T)rows[lane_id];").replace("unsigned int lane_id;",
                                                                          "unsigned int lane_id;\n    T rows[32];")
    assert _lines(row, "WS002") == []
    shadowed = MEMBER.replace("T out = input;", "T out = input;\n        unsigned int lane_id = threadIdx.x % warpSize;")
    assert _lines(shadowed, "WS002") == []


CUB = """\
#include <cub/cub.cuh>
template <typename T, int LOGICAL_WARP_THREADS>
__device__ T rscan(T input, unsigned member_mask) {
    unsigned int lane_id = threadIdx.x & 0x1f;
    T out = input;
    for (int STEP = 0; STEP < 5; STEP++) {
        int offset = 1 << STEP;
        T temp = cub::ShuffleDown<LOGICAL_WARP_THREADS>(out, offset, LOGICAL_WARP_THREADS - 1, member_mask);
        out = static_cast<int>(lane_id) >= LOGICAL_WARP_THREADS - offset ? out : temp + out;
    }
    return out;
}
"""


def test_cub_shuffles_make_warp_level_code():
    assert _lines(CUB, "WS002") == [4]
    index = CUB.replace("cub::ShuffleDown<LOGICAL_WARP_THREADS>(out, offset, LOGICAL_WARP_THREADS - 1, member_mask)",
                        "cub::ShuffleIndex<LOGICAL_WARP_THREADS>(out, offset, member_mask)")
    assert _lines(index, "WS002") == [4]


def test_a_cub_shuffle_given_a_literal_width_is_a_logical_group():
    assert _lines(CUB.replace("cub::ShuffleDown<LOGICAL_WARP_THREADS>", "cub::ShuffleDown<32>"), "WS002") == []


OVERLOADS = """\
__device__ float last_sum(float v) {
    unsigned lane = threadIdx.x & 31;
    float t = __shfl_down(v, 1);
    return lane == 31 ? v : v + t;
}
__device__ double last_sum(double v) { return v * 2.0; }
"""


def test_an_overload_without_shuffles_does_not_hide_one_with_them():
    assert 2 in _lines(OVERLOADS, "WS002")


SLOTS = """\
template <int THREADS>
struct Storage { union { float per_warp[THREADS / 32]; int other[4]; } u; };
template <int THREADS>
__device__ float block_sum(float v, Storage<THREADS>* st) {
    float* slots = st->u.per_warp;
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor(v, o);
    if (threadIdx.x % warpSize == 0) slots[threadIdx.x / 32] = v;
    __syncthreads();
    return slots[0];
}
"""


def test_a_pointer_to_a_member_array_of_one_slot_per_32_threads_is_a_per_warp_array():
    """flashinfer's DeterministicInclusiveSum (tests/labelled5, sampling.cuh:185)."""
    assert _lines(SLOTS, "WS003") == [7]


def test_a_pointer_to_a_member_array_of_another_size_is_not():
    assert _lines(SLOTS.replace("per_warp[THREADS / 32]", "per_warp[THREADS]"), "WS003") == []
