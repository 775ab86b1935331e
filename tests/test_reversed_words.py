"""A reversed ballot word read as a number (stop 65's note on `__brev` of a widened word): the port reverses the
wave's lanes in the wave's width (`(__brevll(m) >> (64 - warpSize))`), which keeps a lane's position (`__clz` of
it: the lowest voter) and not the number: `__brev(m) >> 28` kept lanes 0-35 of a 64-lane wave, `__brev(m) + 1`
and `out[i] = __brev(m)` the other warp's lanes.  Now KP244 at the numeric read (kernelport/reversed_words.py);
the position reads keep their port."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text, refusal

HEAD = """
__global__ void k(const int* in, unsigned* out) {
    unsigned m = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
"""


def test_a_reversed_word_read_as_a_number_is_refused_at_the_read():
    for body, at in (("    if (threadIdx.x == 0) out[blockIdx.x] = (__brev(m) >> 28) == 3;\n}\n", (4, 46)),
                     ("    unsigned r = __brev(m);\n    if (threadIdx.x == 0) out[blockIdx.x] = r + 1 > 7;\n}\n", (5, 45))):
        errors = refusal(HEAD + body, dedent=False, expect="KP244")
        assert [(e.code, e.line, e.column) for e in errors] == [("KP244", *at)], [e.format() for e in errors]
        assert "reads a reversed ballot word (`__brev(m)`" in errors[0].message


def test_position_reads_keep_their_port(tmp_path):
    body = ("    unsigned r = __brev(m);\n"
            "    if (threadIdx.x == 0) out[blockIdx.x] = __clz(r) + (__brev(m) != 0) + __ffs(__brev(m));\n}\n")
    text = port_text(HEAD + body, dedent=False)
    assert "unsigned long long r = (__brevll(m) >> (64 - warpSize));" in text, text
    assert "(__clzll(r) - (64 - warpSize))" in text, text
    hip_compiles(tmp_path, text)


def test_a_copy_of_the_reversed_word_read_as_a_number_is_refused():
    # review66b: `unsigned s = r;` was skipped as a declarator of r, so `s >> 28` was ported (emulator at 64:
    # 0xffffffff where CUDA at 32 stores 14); a copy read only as a position keeps its port
    body = ("    unsigned r = __brev(m);\n    unsigned s = r;\n"
            "    if (threadIdx.x == 0) out[blockIdx.x] = __clz(r) + (s >> 28);\n}\n")
    errors = refusal(HEAD + body, dedent=False, expect="KP244")
    assert [(e.code, e.line, e.column) for e in errors] == [("KP244", 6, 57)], [e.format() for e in errors]
    assert "`s >> 28` reads a reversed ballot word (`__brev(m)`" in errors[0].message
    text = port_text(HEAD + body.replace("(s >> 28)", "__clz(s)"), dedent=False)
    assert "__clzll(s)" in text, text
