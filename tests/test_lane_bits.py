"""A lane's bit of a 32-bit word by PTX's lane id (stop 65's held-out note): `w & (1u << laneid())` with no
ballot was ported `1u << __lane_id()`, which at wave 64 shifts a 32-bit word by 32..63 for the upper warp's lanes
(undefined; 0 on AMD).  CUDA's `%laneid` is the 32-lane warp's lane, so the port now spells that lane id
`(__lane_id() & 31)` where it is nothing else (kernelport/lane_bits.py, through laneoutputs' fix); where the same
lane id also meets the wave (a ballot word's bit), KP244 at the shift.  Look-alikes: a `1u` the port widens beside
a ballot word (`m & (1u << laneid())`: `1ull`, the wave's lane) and a lane from `threadIdx.x % 32` stay."""
from __future__ import annotations

import numpy as np

from conftest import hip_compiles
from port_support import assert_port_at_64_is_original_at_32, port_text, refusal

HELPER = """
__device__ __forceinline__ unsigned laneid() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__global__ void k(const unsigned* in, int* out) {
    unsigned w = in[blockIdx.x];
    out[blockIdx.x * blockDim.x + threadIdx.x] = (w & (1u << laneid())) != 0;
}
"""

VARIABLE = """
__global__ void k(const unsigned* in, int* out) {
    unsigned lane; asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    unsigned w = in[blockIdx.x];
    out[blockIdx.x * blockDim.x + threadIdx.x] = (w >> lane) & 1;
}
"""


def test_a_lane_bit_of_a_32_bit_word_reads_the_32_lane_warps_lane(tmp_path):
    args = {"in": np.array([0x80000001, 0x0000ff00], dtype=np.uint32), "out": np.zeros(128, dtype=np.int32)}
    for src, want in ((HELPER, "(w & (1u << (laneid() & 31)))"), (VARIABLE, "lane = (__lane_id() & 31);")):
        text = port_text(src, dedent=False)
        assert want in text, text
        assert_port_at_64_is_original_at_32(src, text, "k", args, (2,), (64,))
        hip_compiles(tmp_path, text)


def test_a_lane_id_that_also_reads_a_ballot_word_is_refused_at_the_shift():
    src = VARIABLE.replace("const unsigned* in,", "const unsigned* in, const float* p,").replace(
        "    out[", "    unsigned long long m = __ballot_sync(0xffffffff, p[threadIdx.x] > 0.f);\n    out[").replace(
        "(w >> lane) & 1;", "((w >> lane) & 1) + ((m >> lane) & 1);")
    errors = refusal(src, dedent=False, expect="KP244")
    assert [(e.code, e.line, e.column) for e in errors] == [("KP244", 6, 52)], [e.format() for e in errors]
    assert "`w >> lane` takes a lane's bit of a 32-bit word by the lane id" in errors[0].message


def test_look_alikes_stay(tmp_path):
    # a `1u` the port makes `1ull` beside the wave's ballot word: the wave's lane, as before
    ballot = """
__device__ __forceinline__ unsigned laneid() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__global__ void k(const unsigned* in, const int* p, int* out) {
    unsigned long long m = __ballot_sync(0xffffffff, p[threadIdx.x] > 0);
    out[threadIdx.x] = (m & (1u << laneid())) != 0;
}
"""
    text = port_text(ballot, dedent=False)
    assert "(m & (1ull << laneid()))" in text and "& 31" not in text, text
    hip_compiles(tmp_path, text)
    # a lane of `threadIdx.x % 32`: CUDA's numbers as written
    mod = HELPER.replace("laneid()))", "(threadIdx.x % 32)))")
    assert "(w & (1u << (threadIdx.x % 32)))" in port_text(mod, dedent=False)


def test_other_spellings_of_a_32_bit_word_read_the_32_lane_warps_lane(tmp_path):
    # review66b: a typedef'd word, an element of a 32-bit pointer, a macro's `1u`, a cast `(unsigned)1` were
    # ported with the wave's lane (`in[b] >> __lane_id()`: lanes 32-63 shifted a 32-bit word by 32 or more)
    args = {"in": np.array([0x80000001, 0x0000ff00], dtype=np.uint32), "out": np.zeros(128, dtype=np.int32)}
    cases = (
        (HELPER.replace("__global__", "typedef unsigned int u32;\n__global__").replace("unsigned w =", "u32 w =")
         .replace("(w & (1u << laneid())) != 0", "(w >> laneid()) & 1"), "(w >> (laneid() & 31)) & 1"),
        (HELPER.replace("(w & (1u << laneid())) != 0", "(in[blockIdx.x] >> laneid()) & 1"),
         "(in[blockIdx.x] >> (laneid() & 31)) & 1"),
        (HELPER.replace("__global__", "#define ONE 1u\n__global__").replace("1u << laneid()", "ONE << laneid()"),
         "(w & (ONE << (laneid() & 31)))"),
        (HELPER.replace("1u << laneid()", "(unsigned)1 << laneid()"), "(w & ((unsigned)1 << (laneid() & 31)))"),
    )
    for src, want in cases:
        text = port_text(src, dedent=False)
        assert want in text, text
        assert_port_at_64_is_original_at_32(src, text, "k", args, (2,), (64,))
    hip_compiles(tmp_path, text)
    # the same spellings with the lane id also feeding a shuffle: no one spelling, KP244 at the shift
    shfl = HELPER.replace("    out[", """    unsigned r = laneid();
    int v = __shfl_sync(0xffffffff, (int)threadIdx.x, r ^ 1);
    out[""").replace("(w & (1u << laneid())) != 0", "(in[blockIdx.x] >> r) & v")
    errors = refusal(shfl, dedent=False, expect="KP244")
    assert [(e.code, e.line, e.column) for e in errors] == [("KP244", 7, 51)], [e.format() for e in errors]


def test_a_64_bit_macro_literal_and_a_cast_ballot_word_are_not_taken_as_32_bit_words():
    # `#define ONE 1ull`: a 64-bit mask (not judged here); `(unsigned)m >> laneid()` of a ballot: the mask passes'
    wide = HELPER.replace("__global__", "#define ONE 1ull\n__global__").replace("1u << laneid()", "ONE << laneid()")
    assert "& 31" not in port_text(wide, dedent=False)
    ballot = HELPER.replace("const unsigned* in,", "const int* p,").replace(
        "unsigned w = in[blockIdx.x];", "unsigned long long m = __ballot_sync(0xffffffff, p[threadIdx.x] > 0);").replace(
        "(w & (1u << laneid())) != 0", "((unsigned)m >> laneid()) & 1")
    assert [e.code for e in refusal(ballot, dedent=False)] == ["KP207"]  # (as on main: not KP244 at the shift)
