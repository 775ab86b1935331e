"""Literal lane tests of a ballot word the port widens read the thread's own CUDA warp (kernelport/literal_lanes.py).

    unsigned m = __ballot_sync(0xffffffffu, p);  if (m & 1) ...       // lane 0 of my warp voted
    __device__ int top(unsigned b) { return (b & 0x80000000u) != 0; } // lane 31 of my warp

The port widens the word to the wave's mask (`unsigned long long`, `__ballot(p)`), which holds a 64-lane
wave's two CUDA warps at bits 0-31 and 32-63: main's port tested bit 0 / 31 of the wave at every lane, so
lanes 32-63 read the other warp's lane (the emulator at wave 64 differed from the original at 32 at lanes
32-63 of each wave; identical at 32).  Such a test (`& LIT`, `(m >> K) & LIT`, `== LIT` non-zero) now reads
`(((m) >> (__lane_id() & 32)) & 0xffffffffu)`, the original's 32-bit word
(`(unsigned)(...)` compared for equality).  Look-alikes keep their port: a test with
a non-literal operand, `__popc(m)`, `m != 0`, and a ballot a 32-lane group keeps (already its warp's)."""
from __future__ import annotations

import numpy as np

from conftest import hip_compiles
from port_support import assert_port_at_64_is_original_at_32, ported
from test_halfvote_words import GROUP_WORDS

WORD = "(((m) >> (__lane_id() & 32)) & 0xffffffffu)"

KERNEL = """__device__ int top(unsigned b) { return (b & 0x80000000u) != 0; }
__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool p = in[i] > 0;
    unsigned m = __ballot_sync(0xffffffffu, p);
    int s = 0;
    if (m & 1) s += 1;
    if (m & 0x80000000) s += 2;
    if ((m >> 5) & 1) s += 4;
    if (m == 0xffffffffu) s += 8;
    s += 16 * top(__ballot_sync(0xffffffffu, in[i] > 1));
    s += 32 * __popc(m & 0xffu);  // (lanes 0-7 of the thread's warp)
    out[i] = s;
}
"""


def _inputs():
    x = np.random.default_rng(7).integers(-3, 4, 256).astype(np.int32)
    x[32:64], x[96:128] = 2, -1  # one warp all voting, one none: each half of a 64-lane wave differs
    return {"in": x, "out": np.zeros(256, np.int32)}


def test_a_literal_lane_test_reads_the_threads_warps_word(tmp_path):
    port, text = ported(KERNEL, dedent=False)
    assert f"if ({WORD} & 1) s += 1;" in port.body, port.body
    assert f"if ({WORD} & 0x80000000) s += 2;" in port.body
    assert f"if (({WORD} >> 5) & 1) s += 4;" in port.body
    assert "if (((unsigned)((m) >> (__lane_id() & 32))) == 0xffffffffu) s += 8;" in port.body  # (main: `m == __ballot(1)`, the whole wave)
    assert f"s += 32 * __popcll({WORD} & 0xffu);" in port.body
    assert "return ((((b) >> (__lane_id() & 32)) & 0xffffffffu) & 0x80000000u) != 0;" in port.body
    assert_port_at_64_is_original_at_32(KERNEL, text, "k", _inputs(), (2, 1, 1), (128, 1, 1))
    hip_compiles(tmp_path, text, "lanes.hip")


ALIKE = """__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = __ballot_sync(0xffffffffu, in[i] > 0);
    unsigned bit = 1u << (threadIdx.x & 31);
    int s = __popc(m);
    if (m & bit) s += 100;
    out[i] = s + (m != 0);
}
"""


def test_look_alikes_keep_their_port(tmp_path):
    port, text = ported(ALIKE, dedent=False)
    assert "__lane_id() & 32" not in port.body, port.body
    assert "if (m & bit) s += 100;" in port.body and "(m != 0)" in port.body
    hip_compiles(tmp_path, text, "alike.hip")


GROUP = GROUP_WORDS.replace("c[i] = ballot;", "c[i] = ballot & 1;")  # (test_halfvote_words' group word)


def test_a_ballot_a_32_lane_group_keeps_is_not_shifted_again():
    port, _ = ported(GROUP, dedent=False)
    assert port.body.count("__lane_id() & 32") == 1, port.body
    assert "c[i] = ballot & 1;" in port.body
