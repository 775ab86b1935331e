"""A ballot read as a signed 32-bit word, its sign lane 31 of the thread's CUDA warp (kernelport/signed_masks.py).

    if ((int)__ballot_sync(0xffffffffu, p) < 0) ...       // lane 31 of my warp voted
    int b = __ballot_sync(0xffffffffu, p);  if (b >= 0) ...

The port widens the ballot's 32-bit type to `unsigned long long` (WS008's site): main's port read
`(unsigned long long)__ballot(p) < 0`, always false, so every thread took the other branch on both AMD
targets.  Now the sign test is the bit of lane 31 of the thread's own 32 lanes, `__lane_id() | 31` (31 or 63
on a 64-lane wave, 31 on gfx1030's), and the port at wave 64 stores what the original stores at 32 in the
emulator.  Any other ordering of the widened value (`b > 0`: non-zero with lane 31 clear) is refused at the
comparison (KP251).  Look-alikes: an unsigned word's `< 0`-free tests and a signed word's `== 0` are ported as
before; a signed data value (not a ballot) compared with 0 keeps its text."""
from __future__ import annotations

import numpy as np

from conftest import hip_compiles
from port_support import assert_port_at_64_is_original_at_32, ported, refusal

KERNEL = """__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool p = in[i] > 0;
    int s = 0;
    if ((int)__ballot_sync(0xffffffffu, p) < 0) s += 1;
    int b = __ballot_sync(0xffffffffu, !p);
    if (b >= 0) s += 2;
    if (0 > static_cast<int>(__ballot_sync(0xffffffffu, in[i] > 2))) s += 4;
    out[i] = s;
}
"""


def _run(text: str) -> None:
    x = np.random.default_rng(7).integers(-3, 4, 256).astype(np.int32)
    x[31], x[63], x[95], x[127] = 1, -1, 3, -2  # each warp's lane 31 votes differently
    assert_port_at_64_is_original_at_32(KERNEL, text, "k", {"in": x, "out": np.zeros(256, np.int32)}, (2, 1, 1),
                                        (128, 1, 1), ("out",))


def test_a_sign_test_of_a_ballot_is_lane_31_of_the_threads_warp(tmp_path):
    port, text = ported(KERNEL, dedent=False)
    assert "(((unsigned long long)__ballot(p)) >> (__lane_id() | 31)) & 1) != 0" in port.body, port.body
    assert "(((b) >> (__lane_id() | 31)) & 1) == 0" in port.body
    assert "< 0" not in port.body and "0 >" not in port.body
    _run(text)
    hip_compiles(tmp_path, text, "signed.hip")


def test_another_ordering_of_the_widened_word_is_refused_at_the_comparison():
    errors = refusal(KERNEL.replace("if (b >= 0)", "if (b > 0)"), expect="KP251", dedent=False)
    assert [(e.code, e.line, e.column) for e in errors] == [("KP251", 8, 9)]
    errors = refusal(KERNEL.replace("if (b >= 0)", "if (b <= -1)"), expect="KP251", dedent=False)
    assert [(e.code, e.line) for e in errors] == [("KP251", 8)]


def test_look_alikes_keep_their_text(tmp_path):
    code = """__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = __ballot_sync(0xffffffffu, in[i] > 0);
    int b = __ballot_sync(0xffffffffu, in[i] > 1);
    int v = in[i];
    out[i] = (m != 0) + (b == 0) + (v < 0) + ((int)in[i] >= 0);
}
"""
    port, text = ported(code, dedent=False)
    assert "(m != 0) + (b == 0) + (v < 0) + ((int)in[i] >= 0)" in port.body, port.body
    hip_compiles(tmp_path, text, "alike.hip")


SIGNED = """__device__ int neg(int x) { return x < 0; }
__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int b = __ballot_sync(0xffffffffu, in[i] > 0);
    int s = 0;
    if (READ) s = 1;
    out[i] = s;
}
"""


def test_other_readings_of_the_sign_are_refused_where_they_read_it():
    """The sign reached through arithmetic, a division, an arithmetic shift, a widening or floating conversion,
    min/max or a signed int parameter: the widened (unsigned, 64-bit) word gives another answer (`-b < 0` was
    always false; `neg(b)` read bit 31 of the wave at every lane)."""
    for read, col in (("-b < 0", 9), ("(b - 1) < 0", 9), ("(b & (int)0x80000000) < 0", 9), ("b / 2 > 1", 9),
                      ("(b >> 31) != 0", 10), ("(long long)b < 0", 9), ("(float)b < 0.0f", 9),
                      ("min(b, 0) != 0", 9), ("neg(b)", 9)):
        errors = refusal(SIGNED.replace("READ", read), expect="KP251", dedent=False)
        assert [(e.code, e.line, e.column) for e in errors] == [("KP251", 7, col)], (read, errors)
    errors = refusal(SIGNED.replace("if (READ) s = 1;", "long long w = b;\n    if (w < 0) s = 1;"), dedent=False)
    assert [(e.code, e.line) for e in errors] == [("KP251", 7)], errors


def test_sign_free_readings_of_a_signed_ballot_are_ported(tmp_path):
    """Look-alikes: a lane's bit (`(b >> k) & 1`), a cleared lowest bit (`b & (b - 1)`), a
    non-zero test read no sign and keep their text."""
    for read in ("(b & (b - 1)) != 0", "b != 0 && b == b"):
        port, text = ported(SIGNED.replace("READ", read), dedent=False)
        assert f"if ({read})" in port.body, (read, port.body)
    port, _ = ported(SIGNED.replace("READ", "((b >> 3) & 1) != 0"), dedent=False)  # (lane 3 of the thread's warp:
    assert "if ((((((b) >> (__lane_id() & 32)) & 0xffffffffu) >> 3) & 1) != 0)" in port.body  # kernelport/literal_lanes.py)
    hip_compiles(tmp_path, text, "alike2.hip")


def test_a_helpers_signed_parameter_and_return_the_port_widens_are_sign_tested_too(tmp_path):
    """`__device__ int last(int b) { return b < 0; }` called with a ballot, and `int vote(bool)` returning one:
    the port widens the parameter and the return type to `unsigned long long`, and main kept `b < 0` and
    `vote(p) < 0` (always false on both AMD targets).  Look-alike: a helper's int parameter of data keeps its
    sign test."""
    code = """__device__ int last(int b) { return b < 0; }
__device__ int vote(bool p) { return __ballot_sync(0xffffffffu, p); }
__device__ int neg(int v) { return v < 0; }
__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = last(__ballot_sync(0xffffffffu, in[i] > 0)) + 2 * (vote(in[i] > 1) < 0) + 4 * neg(in[i]);
}
"""
    port, text = ported(code, dedent=False)
    assert "int last(unsigned long long b) { return (((b) >> (__lane_id() | 31)) & 1) != 0; }" in port.body, port.body
    assert "((((vote(in[i] > 1)) >> (__lane_id() | 31)) & 1) != 0)" in port.body, port.body
    assert "int neg(int v) { return v < 0; }" in port.body
    x = np.random.default_rng(3).integers(-3, 4, 256).astype(np.int32)
    x[31], x[63], x[95], x[127] = 2, -1, -1, 2
    assert_port_at_64_is_original_at_32(code, text, "k", {"in": x, "out": np.zeros(256, np.int32)}, (2, 1, 1),
                                        (128, 1, 1), ("out",))
    hip_compiles(tmp_path, text, "helpers.hip")
