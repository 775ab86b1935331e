"""A wave's ballot converted to a 32-bit type by an explicit cast (`__popc((unsigned)__ballot_sync(m, p))`,
`cnt(static_cast<unsigned>(ballot))`): on a wave-64 target the conversion cuts lanes 32-63 as a store into an
`unsigned` variable does.  Lint reported the variable, never the cast (and a `static_cast` lost the mask
altogether), so translate kept the cast: a port that compiled and counted half the wave.  The cast's type is
a lane-mask site (WS008; the port widens it).  Look-alikes: the caller's own 32-lane half of the wave's
ballot, `(unsigned)(ballot >> (lane & 32))` (a 32-lane word at every width), and a cast of ordinary data,
stay as written.  The snippets are written here."""
from __future__ import annotations

import numpy as np

from conftest import hip_compiles
from port_support import assert_port_at_64_is_original_at_32, port_text

from kernelport.lint.engine import lint_text

C_CAST = """
__global__ void count(const int* in, int* out)
{
    int n = __popc((unsigned)__ballot_sync(0xffffffffu, in[threadIdx.x] > 0));
    if (threadIdx.x % warpSize == 0) atomicAdd(out, n);
}
"""
STATIC_CAST = """
__device__ int cnt(unsigned x) { return __popc(x); }
__global__ void count(const int* in, int* out)
{
    int n = cnt(static_cast<unsigned>(__ballot_sync(0xffffffffu, in[threadIdx.x] > 0)));
    if (threadIdx.x % warpSize == 0) atomicAdd(out, n);
}
"""


def _ws008(src: str) -> list[tuple[int, int]]:
    return [(f.line, f.column) for f in lint_text(src, "t.cu", "cuda", targets={"hip-cdna"}) if f.code == "WS008"]


def test_a_cast_of_a_ballot_to_32_bits_is_reported_and_widened(tmp_path):
    assert (4, 21) in _ws008(C_CAST)
    assert (5, 29) in _ws008(STATIC_CAST)
    args = {"in": np.arange(-40, 216, dtype=np.int32), "out": np.zeros(1, dtype=np.int32)}
    for src, cast in ((C_CAST, "(unsigned long long)__ballot("), (STATIC_CAST, "static_cast<unsigned long long>(__ballot(")):
        text = port_text(src, dedent=False)
        assert cast in text, text
        assert_port_at_64_is_original_at_32(src, text, "count", args, (1,), (256,))
        hip_compiles(tmp_path, text)


def test_look_alikes_stay():
    half = """
__global__ void count(const int* in, int* out)
{
    unsigned long long b = __ballot_sync(0xffffffffu, in[threadIdx.x] > 0);
    int n = __popc((unsigned)(b >> (threadIdx.x & 32)));
    unsigned t = (unsigned)threadIdx.x + static_cast<unsigned>(blockIdx.x);
    if (threadIdx.x % warpSize == 0) atomicAdd(out, n + (int)t);
}
"""
    assert _ws008(half) == []
    text = port_text(half, dedent=False)
    assert "(unsigned)(b >> (threadIdx.x & 32))" in text and "(unsigned)threadIdx.x" in text
    assert "static_cast<unsigned>(blockIdx.x)" in text


def test_a_cast_of_a_ballot_anded_with_a_32_bit_word_cuts_no_lane():
    # `(int)(b & once)`: the bits kept are a 32-bit word's, nothing above lane 31 survives the `&` to be cut
    # (the labelled13 look-back's bit test); a 64-bit literal or a 64-bit local beside the ballot still is a cut
    quiet = """
__global__ void k(const int* in, int* out)
{
    unsigned long long b = __ballot_sync(0xffffffffu, in[threadIdx.x] > 0);
    unsigned once = 1u << 3;
    out[threadIdx.x] = (int)(b & once) + (int)(b & 0x10u);
}
"""
    assert _ws008(quiet) == []
    cut = """
__global__ void k(const int* in, int* out)
{
    unsigned long long b = __ballot_sync(0xffffffffu, in[threadIdx.x] > 0);
    unsigned long long hi = ~0ull;
    out[threadIdx.x] = (int)(b & hi) + (int)(b & 0x100000000ull);
}
"""
    assert [line for line, _ in _ws008(cut)] == [6, 6], _ws008(cut)
