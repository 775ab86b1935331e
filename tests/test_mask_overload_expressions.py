"""A lane mask combined in an expression (`f(m & 0xffffu)`) passed to a helper overloaded for uint32_t and uint64_t.

`unsigned m = __ballot_sync(...)` then `count_bits(m & 0xffffu)`: CUDA calls `count_bits(uint32_t)`.  fnscopes
read the expression's type as unknown, so h/hip63's rule sent the mask to the 64-bit overload only; the port
widened `m` to `unsigned long long` and kept `count_bits(uint32_t)`, and hipcc found the call ambiguous
("call to 'count_bits' is ambiguous": `unsigned long long` is neither `uint32_t` nor `uint64_t`, which is
`unsigned long` on Linux).  Now an integer operation of plainly typed operands has their common type (the
usual arithmetic conversions): the call selects the overload `count_bits(m)` selects, which the port widens to
the mask's `unsigned long long`, so the argument is of the overload's type; ported and compiled for gfx90a and
gfx1030.  Look-alikes: a 64-bit data word (`uint64_t w`, `w & 0xffu`) still calls the 64-bit overload, left
as written; a mask of an alias type (`Cfg::ThreadMask`) keeps h/hip63's 64-bit choice (test_mask_overloads)."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text, refusal

HELPERS = """#include <cstdint>
__device__ int count_bits(uint32_t m) { return __popc(m); }
__device__ int count_bits(uint64_t m) { return __popcll(m); }
"""


def test_a_masked_expression_calls_the_overload_the_port_widens(tmp_path):
    code = HELPERS + """__global__ void k(const int* in, int* out)
{
    unsigned m = __ballot_sync(0xffffffffu, in[threadIdx.x] > 0);
    out[threadIdx.x] = count_bits(m & 0xffffu) + count_bits(m & 0xffff0000u);
}
"""
    text = port_text(code, dedent=False)
    assert "int count_bits(unsigned long long m) { return __popcll(m); }" in text, text
    assert "unsigned long long m = __ballot(" in text
    hip_compiles(tmp_path, text, "masked.hip")


def test_the_upper_half_read_as_a_number_is_refused():
    # `(m >> 16) | 1u` reads the ballot word as a number, while `m & 0xffffu` reads it per 32-lane warp (the
    # port's per-warp word keeps the upper warp's lanes at bits 32-63: no reading is the original's on a
    # 64-lane wave); before stop 65 the port was written and counted other lanes at wave 64 (review65b)
    code = HELPERS + """__global__ void k(const int* in, int* out)
{
    unsigned m = __ballot_sync(0xffffffffu, in[threadIdx.x] > 0);
    out[threadIdx.x] = count_bits(m & 0xffffu) + count_bits((m >> 16) | 1u);
}
"""
    errors = refusal(code, dedent=False, expect="KP251")
    assert [(d.line, d.column) for d in errors if d.code == "KP251"] == [(7, 62)], [d.format() for d in errors]


def test_a_ballot_in_the_expression_itself(tmp_path):
    code = HELPERS + """__global__ void k(const int* in, int* out)
{
    out[threadIdx.x] = count_bits(__ballot_sync(0xffffffffu, in[threadIdx.x] > 0) & 0xffffu);
}
"""
    text = port_text(code, dedent=False)
    hip_compiles(tmp_path, text, "ballot.hip")


def test_a_64_bit_data_word_still_calls_the_64_bit_overload(tmp_path):
    code = HELPERS + """__global__ void k(const unsigned long* in, int* out)
{
    uint64_t w = in[threadIdx.x];
    unsigned v = (unsigned)in[threadIdx.x];
    out[threadIdx.x] = count_bits(w & 0xffu) + count_bits(v & 0xffu);
}
"""
    text = port_text(code, dedent=False)
    assert HELPERS.split("\n", 1)[1] in text and "count_bits(w & 0xffu) + count_bits(v & 0xffu)" in text, text
    hip_compiles(tmp_path, text, "data.hip")
