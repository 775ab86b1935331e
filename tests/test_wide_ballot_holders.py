"""A 32-bit ballot held in a variable already declared 64 bits wide, read as the warp's word
(kernelport/wide_ballot_holders.py).

    long long b;  b = __ballot_sync(FULL, p);  if (b < 0 || (b & 1)) ...   // never negative; lane 0 of my warp

CUDA's ballot is 32 bits: `b` holds the thread's warp's word zero-extended.  The port's ballot is the wave's
mask and the variable needs no widening, so main kept the code as written: `b < 0` read lane 63, `b & 1`
lane 0 of the wave at every lane (the emulator at wave 64 differed from the original at 32).  Such a variable
read as the word (an ordering or a literal lane test) now takes the warp's 32 bits at each ballot assigned to
it; read as a mask only it keeps the port's wave reading; read both ways, KP251."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import ported, refusal
from test_literal_lanes import _both_waves as both_waves, _inputs

WORD = "((unsigned)((__ballot(in[i] > 0)) >> (__lane_id() & 32)))"

DECLARED = """__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long b;
    b = __ballot_sync(0xffffffffu, in[i] > 0);
    out[i] = (b < 0) + 2 * (int)(b & 1) + 4 * (b != 0) + 8 * ((b >> 31) & 1);
}
"""

INITIALISED = """__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int64_t b = __ballot_sync(0xffffffffu, in[i] > 0);
    out[i] = (b == 0xffffffff) + 2 * (__popc(b) > 3) + 4 * (b > 0x10000);
}
"""


def _both_waves(original: str, port: str) -> None:
    both_waves(original, port, _inputs(3))


def test_a_64_bit_holder_read_as_the_word_takes_the_warps_32_bits(tmp_path):
    port, text = ported(DECLARED, dedent=False)
    assert f"    b = {WORD};\n" in port.body, port.body  # (main: `b = __ballot(in[i] > 0);`, b < 0 read lane 63)
    assert "out[i] = (b < 0) + 2 * (int)(b & 1) + 4 * (b != 0) + 8 * ((b >> 31) & 1);" in port.body
    _both_waves(DECLARED, text)
    hip_compiles(tmp_path, text, "declared.hip")


def test_an_initialised_holder_compares_with_cudas_literal(tmp_path):
    port, text = ported(INITIALISED, dedent=False)
    assert f"int64_t b = {WORD};" in port.body, port.body
    assert "(b == 0xffffffff)" in port.body  # (main: `b == __ballot(1)`, the whole wave voted)
    _both_waves(INITIALISED, text)
    hip_compiles(tmp_path, text, "initialised.hip")


def test_a_holder_read_as_a_mask_only_keeps_the_waves_reading():
    code = INITIALISED.replace("(b == 0xffffffff) + 2 * (__popc(b) > 3) + 4 * (b > 0x10000)", "__popc(b)")
    port, _ = ported(code, dedent=False)
    assert "int64_t b = __ballot(in[i] > 0);" in port.body, port.body


def test_a_holder_read_as_the_word_and_as_a_lane_mask_is_refused():
    code = DECLARED.replace("8 * ((b >> 31) & 1)", "8 * ((b & (1ull << (threadIdx.x & 31))) != 0)")
    at = refusal(code, dedent=False, expect="KP251")
    assert [(e.line, e.column) for e in at] == [(6, 64)] and "`b < 0`" in at[0].message, [e.format() for e in at]
    at = refusal(DECLARED.replace("    out[i]", "    b = __activemask();\n    out[i]"), dedent=False, expect="KP251")
    assert [(e.line, e.code) for e in at] == [(6, "KP251")], [e.format() for e in at]


def test_a_32_bit_holder_is_signed_masks_not_this():
    """`int b; b = __ballot_sync(...); b < 0`: the port widens the type and tests lane 31 (signed_masks)."""
    port, text = ported(DECLARED.replace("long long b;", "int b;").replace(" + 8 * ((b >> 31) & 1)", ""), dedent=False)
    assert "unsigned long long b;" in port.body and "b = __ballot(in[i] > 0);" in port.body, port.body
    _both_waves(DECLARED.replace("long long b;", "int b;").replace(" + 8 * ((b >> 31) & 1)", ""), text)
