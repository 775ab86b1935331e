"""Forms met in real wave-64 fixes (tests/labelled) that the rule examples do not show whole."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

STORE = """\
__global__ void fwd(const float* x, void* buf) {
    unsigned int *const words = (unsigned int*)buf + blockIdx.x;
    unsigned int mask = 0;
    for (int i = 0; i < 4; ++i) {
        unsigned int m = __ballot_sync(0xFFFFFFFFU, x[threadIdx.x * 4 + i] < 0.0f);
        if ((threadIdx.x & 31) == i) mask = m;
    }
    if ((threadIdx.x & 31) < 4) words[threadIdx.x] = mask;
}
"""


def _at(findings, code):
    return {f.line: f for f in findings if f.code == code}


def test_a_ballot_stored_through_a_local_32_bit_pointer_names_its_declaration():
    ws008 = _at(lint_text(STORE, "k.cu"), "WS008")
    assert 8 in ws008 and [r.line for r in ws008[8].related] == [2]


def test_a_64_bit_pointer_holds_the_same_store_quietly():
    wide = STORE.replace("unsigned int *const words = (unsigned int*)", "unsigned long long *const words = "
                         "(unsigned long long*)").replace("unsigned int mask", "unsigned long long mask").replace(
                         "unsigned int m ", "unsigned long long m ")
    assert 8 not in _at(lint_text(wide, "k.cu"), "WS008")


def test_an_address_offset_by_a_lane_is_not_a_lane_but_the_lane_itself_still_is():
    src = """\
__device__ bool first(int* p) { return __shfl((unsigned long long)p, 0) == (unsigned long long)p; }
__global__ void k(int* d, int* out) {
    int* p = d + threadIdx.x % 32;
    out[threadIdx.x] = first(p);
}
__global__ void k2(int* d, int* out) {
    int lane = threadIdx.x % 32;
    out[threadIdx.x] = __shfl(d[lane], 0) + (lane == 0);
}
"""
    ws002 = _at(lint_text(src, "k.cu"), "WS002")
    assert 3 not in ws002 and 7 in ws002


def test_a_defaulted_constructor_is_no_internal_error():
    """llm.c's `Packed128() = default;` (a function without a body) ended warpflow with an
    AttributeError; the kernel beside it is linted."""
    src = """\
template<class T> struct Packed128 {
    Packed128() = default;
    __device__ explicit Packed128(int4 bits) { (void)bits; }
};
__global__ void k(float* x) {
    int lane = threadIdx.x % 32;
    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1) + (lane == 0);
}
"""
    codes = {(f.line, f.code) for f in lint_text(src, "k.cuh")}
    assert not any(c == "KP006" for _, c in codes) and (6, "WS002") in codes
