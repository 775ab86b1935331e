"""A lane mask combined bit for bit with a word read from 32-bit memory (a logic simulator's gate words:
`unsigned word = __ballot_sync(~0u, v); unsigned changed = word ^ prev[warp];`, 32 gates a word).  The
HIP port widened the ballot and its masks to 64 bits and the warp to the wave: on a 64-wide wave the
mask's lanes 32-63 meet no stored lanes and each word of `prev` is read for 64 gates, so the port
computed other toggle counts, silently (the emulator: toggles[16] = 0 at wave 64 where the original
at 32 gives 10; heldout41's check of the domain's idioms).  warpflow's 32-bit mask memory
(kernelport/maskmemory.py) now refuses it as KP207 at the read, as it did `mask = words[i]`; lint's
WS008 says the same.  Look-alikes: 64-bit words, a 32-bit read that is only an index or arithmetic."""
from __future__ import annotations

import textwrap

from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

GATE_WORDS = """
#define WARP 32
__global__ void count_toggles(const int* a, const int* b, const unsigned* prev, int* toggles)
{
    int gate = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % WARP;
    int warp = gate / WARP;
    int v = a[gate] ^ b[gate];
    unsigned word = __ballot_sync(0xffffffffu, v);
    unsigned changed = word ^ (prev[warp] & 0xffffffffu);
    if (lane == 0)
        toggles[warp] = __popc(changed);
}
"""


def hip(code: str):
    return translate(SourceFile.from_text(textwrap.dedent(code), "m.cu"), "hip")


def kp207(port) -> list[tuple[int, str]]:
    return [(d.line, d.message) for d in port.diagnostics if d.code == "KP207"]


def test_a_mask_combined_with_a_32_bit_word_is_refused_at_the_read():
    port, _ = hip(GATE_WORDS)
    assert not port.ok
    assert [(line, "combined with a word read from 32-bit memory 'prev'" in m) for line, m in kp207(port)] == [(10, True)]
    lint = [f for f in lint_text(textwrap.dedent(GATE_WORDS), "m.cu", "cuda") if f.code == "WS008"]
    assert [f.line for f in lint if "combined with a word read from 32-bit memory 'prev'" in f.message] == [10]


def test_64_bit_words_are_no_32_bit_memory():
    port, _ = hip(GATE_WORDS.replace("const unsigned* prev", "const unsigned long long* prev"))
    assert not kp207(port)


def test_a_32_bit_read_as_an_index_or_in_arithmetic_is_no_mask_word():
    code = GATE_WORDS.replace("word ^ (prev[warp] & 0xffffffffu)", "word ^ (1u << prev[warp])") \
        .replace("__popc(changed)", "__popc(changed) + (int)prev[warp]")
    port, _ = hip(code)
    assert not [m for _, m in kp207(port) if "combined with a word" in m]
