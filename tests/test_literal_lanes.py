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
from port_support import assert_port_at_64_is_original_at_32, port_text, ported, refusal
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


def _inputs(seed: int = 7, outs: int = 256):
    x = np.random.default_rng(seed).integers(-3, 4, 256).astype(np.int32)
    x[32:64], x[96:128] = 2, -1  # one warp all voting, one none: each half of a 64-lane wave differs
    return {"in": x, "out": np.zeros(outs, np.int32)}


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


def _both_waves(original: str, port: str, args: dict, grid=(2, 1, 1), block=(128, 1, 1)) -> None:
    """The port at waves 64 and 32 stores what the original stores at 32."""
    from kernelport.emulator import run_kernel
    want = run_kernel(original, "k", args={k: v.copy() for k, v in args.items()}, grid=grid, block=block, wave=32).outputs
    assert_port_at_64_is_original_at_32(original, port, "k", args, grid, block)
    got = run_kernel(port, "k", args={k: v.copy() for k, v in args.items()}, grid=grid, block=block, wave=32,
                     backend="hip")
    assert np.array_equal(got.outputs["out"], want["out"])


WARPED = "((m) & (0xffffffffull << (__lane_id() & 32)))"  # (the thread's warp's lanes, in their wave positions)

# A warp-aggregated atomic whose word a literal lane test also reads: main counted the wave (`__popc(m)`) and
# elected the wave's leader (`__ffs(m) - 1`) beside a test of the thread's warp's lane 31: the leader of a
# 64-lane wave added both warps' count with its own warp's lane-31 bit.  One reading, the warp's, per half.
AGGREGATED = """__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool p = in[i] > 0;
    unsigned m = __ballot_sync(0xffffffffu, p);
    int lane = threadIdx.x & 31;
    int leader = __ffs(m) - 1;
    int base = 0;
    if (lane == leader) base = atomicAdd(&out[0], __popc(m) + 100 * ((m & 0x80000000u) != 0));
    base = __shfl_sync(0xffffffffu, base, leader);
    int rank = __popc(m & ((1u << lane) - 1));
    if (p) out[4 + i] = (base >= 0) + 2 * rank + 1000 * (m != 0);
}
"""


def _votes():
    return _inputs(3, 260)


def test_every_read_of_a_word_a_literal_test_reads_is_the_threads_warps(tmp_path):
    port, text = ported(AGGREGATED, dedent=False)
    assert f"int leader = __ffsll({WARPED}) - 1;" in port.body, port.body
    assert f"atomicAdd(&out[0], __popcll({WARPED}) + 100 * (({WORD} & 0x80000000u) != 0));" in port.body
    assert f"int rank = __popcll({WARPED} & ((1ull << lane) - 1));" in port.body
    assert f"1000 * ({WARPED} != 0)" in port.body
    _both_waves(AGGREGATED, text, _votes())
    hip_compiles(tmp_path, text, "aggregated.hip")


def test_a_word_without_a_literal_test_keeps_the_waves_reading():
    """The same aggregated atomic with no literal lane test: main's port, unchanged (one leader and one count
    per wave; the atomic's total is the original's)."""
    code = AGGREGATED.replace("__popc(m) + 100 * ((m & 0x80000000u) != 0)", "__popc(m)")
    port, text = ported(code, dedent=False)
    assert "__lane_id() & 32" not in port.body, port.body
    assert "int leader = __ffsll(m) - 1;" in port.body and "atomicAdd(&out[0], __popcll(m));" in port.body
    from kernelport.emulator import run_kernel
    got = run_kernel(text, "k", args=_votes(), grid=(2, 1, 1), block=(128, 1, 1), wave=64, backend="hip").outputs
    want = run_kernel(code, "k", args=_votes(), grid=(2, 1, 1), block=(128, 1, 1), wave=32).outputs
    assert got["out"][0] == want["out"][0]


HELPED = """__device__ int low(unsigned b) { return (b & 1u) ? 1 : 0; }
__device__ int both(unsigned a, unsigned c) { return ((a & 2u) ? 1000 : 0) + __popc(c); }
__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = __ballot_sync(0xffffffffu, in[i] > 0);
    unsigned q = __ballot_sync(0xffffffffu, in[i] > 1);
    out[4 + i] = low(m) * 100 + __popc(m) + both(m, q);
}
"""


def test_a_helpers_literal_test_makes_the_callers_word_the_warps(tmp_path):
    """`m` is tested only in helpers (`low`, `both`'s first parameter): its count in the kernel is its warp's
    too.  The other word `both` takes (`q`, counted only) keeps the wave's reading, as written."""
    port, text = ported(HELPED, dedent=False)
    assert f"low({WARPED}) * 100 + __popcll({WARPED}) + both({WARPED}, q);" in port.body, port.body
    assert "return ((((b) >> (__lane_id() & 32)) & 0xffffffffu) & 1u) ? 1 : 0;" in port.body
    assert "+ __popcll(c); }" in port.body  # (the look-alike: q's count is the wave's, main's reading)
    _both_waves(HELPED.replace("__popc(c)", "0"), port_text(HELPED.replace("__popc(c)", "0"), dedent=False), _votes())
    hip_compiles(tmp_path, text, "helped.hip")


def test_a_word_read_both_ways_is_refused_at_the_other_reading():
    at = refusal(AGGREGATED.replace("__popc(m) + 100", "(__popc(m) == warpSize) + 100"), dedent=False, expect="KP251")
    assert [(e.line, e.code) for e in at] == [(9, "KP251")] and "__popc(m) == warpSize" in at[0].message
    at = refusal(AGGREGATED.replace("    int base = 0;\n", "    int base = 0;\n    m <<= 1;\n"), dedent=False, expect="KP251")
    assert [(e.line, e.code) for e in at] == [(9, "KP251")] and "m <<= 1" in at[0].message


def test_a_bitwise_update_of_such_a_word_is_ported():
    """`m &= m - 1` (the next voter) keeps each lane's bit in place: the read of `m` is the warp's."""
    code = AGGREGATED.replace("    int base = 0;\n", "    int base = 0;\n    if (m & 1) m &= m - 1;\n")
    port, text = ported(code, dedent=False)
    assert f"m &= {WARPED} - 1;" in port.body, port.body
    _both_waves(code, text, _votes())


def test_the_last_lanes_shift_stays_cudas_31():
    """`(m >> 31) & 1` names lane 31 of the thread's warp; the port makes a ballot's `>> 31` the wave's last
    lane (`warpSize - 1`) elsewhere, which read of the warp's 32-bit word would be bit 63: always 0."""
    code = KERNEL.replace("if ((m >> 5) & 1) s += 4;", "if ((m >> 31) & 1) s += 4;")
    port, text = ported(code, dedent=False)
    assert f"if (({WORD} >> 31) & 1) s += 4;" in port.body, port.body
    _both_waves(code, text, {"in": _inputs()["in"], "out": np.zeros(256, np.int32)})


def test_metals_32_lane_simd_groups_keep_the_word_as_written():
    port, _ = ported(AGGREGATED, to="metal", dedent=False, allow_unported=True)
    assert "& 32" not in port.body and "int leader = kp_ffs(m) - 1;" in port.body, port.body
