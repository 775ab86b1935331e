"""Where a warp-size finding points beyond its own line: the memory layout of lane masks (the
struct field and the rounding to 32-lane words, as related locations), library warp helpers and
collectives read at their default width.  Each with a look-alike that must stay quiet."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text

MASK_WORDS_32 = """\
struct Params { unsigned int* bits; int n; };
struct Other { unsigned int* bits; };
__global__ void relu_back(Params p, float* dx) {
    const unsigned int* bits = p.bits + ((p.n + 31) & ~31) * blockIdx.x;
    unsigned int word = 0;
    if (threadIdx.x % warpSize == 0) word = bits[threadIdx.x / warpSize];
    if (__shfl_sync(0xffffffff, word, 0) & (1ull << (threadIdx.x % warpSize))) dx[threadIdx.x] = 0.0f;
}
"""

MASK_WORDS_64 = """\
struct Params { unsigned long long* bits; unsigned int* counts; int n; };
__global__ void relu_back(Params p, float* dx, int* c) {
    const unsigned long long* bits = p.bits + ((p.n + 63) & ~63) * blockIdx.x;
    const unsigned int* counts = p.counts + ((p.n + 31) & ~31) * blockIdx.x;
    unsigned long long word = 0;
    if (threadIdx.x % warpSize == 0) word = bits[threadIdx.x / warpSize];
    if (__shfl(word, 0) & (1ull << (threadIdx.x % warpSize))) dx[threadIdx.x] = 0.0f;
    c[threadIdx.x] = counts[threadIdx.x];
}
"""


def _ws(text, path="t.cu"):
    return [f for f in lint_text(text, path, "cuda") if f.code.startswith("WS")]


def test_a_mask_read_from_32_bit_memory_names_the_field_and_the_rounding():
    read = [f for f in _ws(MASK_WORDS_32) if f.code == "WS008" and f.line == 6]
    assert read and "read from 32-bit memory 'bits'" in read[0].message
    # the pointer's declaration and rounding (line 4) and the field of Params (line 1), not Other's (line 2)
    assert sorted({r.line for r in read[0].related}) == [1, 4]


def test_64_bit_mask_words_and_a_counts_array_rounded_to_32_stay_quiet():
    assert not [f for f in _ws(MASK_WORDS_64) if f.code == "WS008"]


def test_pytorch_warp_shfl_is_a_shuffle_at_the_wave_width():
    text = """\
#include <ATen/cuda/DeviceUtils.cuh>
__global__ void k(const float* x, float* out) {
    int lane = threadIdx.x & 31;
    out[threadIdx.x] = WARP_SHFL(x[threadIdx.x], lane ^ 1);
}
"""
    assert (3, "WS002") in {(f.line, f.code) for f in _ws(text)}
    own = text.replace("#include <ATen/cuda/DeviceUtils.cuh>",
                       "__device__ float WARP_SHFL(float v, int l) { return v + l; }")
    assert not _ws(own)  # a project's own WARP_SHFL is whatever its body does


CUB_ROW_DOT = """\
#include <cub/cub.cuh>
template <int THREADS>
__global__ void row_dot(const float* a, float* out, int k) {
    typedef cub::WarpReduce<float> WarpReduce;
    __shared__ typename WarpReduce::TempStorage temp[THREADS / 32];
    const int warp = threadIdx.x / 32;
    float s = WarpReduce(temp[warp]).Sum(a[blockIdx.x * k + threadIdx.x]);
    if (threadIdx.x % 32 == 0) out[blockIdx.x * (THREADS / 32) + warp] = s;
}
"""


def test_cub_warp_reduce_at_its_default_width_is_the_hardware_warp():
    lines = {f.line for f in _ws(CUB_ROW_DOT)}
    assert {5, 6, 8} <= lines  # the per-warp storage count, the warp index, the lane test
    assert not _ws(CUB_ROW_DOT.replace("cub::WarpReduce<float>", "cub::WarpReduce<float, 32>"))


# Each cub warp collective with the template arguments cub's signature puts before its logical width.
CUB_COLLECTIVES = [("WarpReduce", "float"), ("WarpScan", "float"), ("WarpExchange", "float, 4"),
                   ("WarpMergeSort", "float, 4"), ("WarpLoad", "float, 4, cub::WARP_LOAD_DIRECT"),
                   ("WarpStore", "float, 4, cub::WARP_STORE_DIRECT")]


@pytest.mark.parametrize("cls,before", CUB_COLLECTIVES, ids=[c for c, _ in CUB_COLLECTIVES])
def test_each_cub_collective_takes_its_logical_width_at_its_own_position(cls, before):
    """Left out, the width is the hardware warp: the per-warp counts of 32 are hazards; given (one
    argument more), the code means 32 lanes whatever the wave."""
    default = CUB_ROW_DOT.replace("cub::WarpReduce<float>", f"cub::{cls}<{before}>")
    assert {5, 6, 8} <= {f.line for f in _ws(default)}
    assert not _ws(default.replace(f"cub::{cls}<{before}>", f"cub::{cls}<{before}, 32>"))


def test_a_class_of_the_projects_own_named_like_a_cub_collective_is_no_collective():
    own = CUB_ROW_DOT.replace("#include <cub/cub.cuh>", "template <typename T> struct WarpReduce {\n"
                              "  struct TempStorage {}; __device__ WarpReduce(TempStorage&) {}\n"
                              "  __device__ T Sum(T v) { return v; } };").replace("cub::WarpReduce", "WarpReduce")
    assert not _ws(own)
