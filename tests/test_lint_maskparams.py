"""WS008 at a helper's 32-bit parameter that its own 64-bit lane-mask operation reads, where no call
in the file shows what it is given (kernelport/lint/maskparams.py; hipCollections'
count_least_significant_bits, labelled in tests/labelled4)."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text


def _ws008(src: str) -> set[int]:
    return {f.line for f in lint_text(src, "k.cu") if f.code == "WS008"}


@pytest.mark.parametrize("helper", [
    "__device__ int count_below(uint32_t x, int n) { return __popcll(x & (1UL << n) - 1UL); }",
    "__device__ int leader(unsigned mask) { return __ffsll(mask) - 1; }",
    "namespace d {\n__device__ inline int count(unsigned int m) { return __popcll(m); }\n}",
])
def test_a_32_bit_parameter_counted_as_64_lanes_is_reported(helper):
    assert _ws008(helper) == {helper.count("\n", 0, helper.index("(")) + 1}


@pytest.mark.parametrize("src", [
    # 64 bits: the wave's mask fits
    "__device__ int count_below(unsigned long long x, int n) { return __popcll(x & ((1ull << n) - 1)); }",
    # the 32-bit operation: a data word
    "__device__ int bits(uint32_t w) { return __popc(w); }",
    # widened by a cast before the 64-bit operation: the author chose the width
    "__device__ int bits(uint32_t w) { return __popcll((unsigned long long)w); }",
    "__device__ int bits(uint32_t w) { return __popcll(static_cast<unsigned long long>(w)); }",
    # the 32-bit parameter is only a shift count
    "__device__ int below(unsigned long long m, uint32_t n) { return __popcll(m & ((1ull << n) - 1)); }",
    # the file calls it with a data word: the dataflow follows what callers pass (no mask here)
    "__device__ int bits(uint32_t w) { return __popcll(w); }\n"
    "__global__ void k(const unsigned* x, int* out) { out[threadIdx.x] = bits(x[threadIdx.x]); }",
    # assigned in the helper: not the caller's value any more
    "__device__ int bits(uint32_t w) { w &= 0xff; return __popcll(w); }",
    # guarded to the NVIDIA build
    "#ifndef __HIP_PLATFORM_AMD__\n__device__ int bits(uint32_t w) { return __popcll(w); }\n#endif",
])
def test_look_alikes_stay_quiet(src):
    assert _ws008(src) == set()
