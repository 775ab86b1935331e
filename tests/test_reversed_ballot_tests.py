"""Stop 65's review (review65f) of review65b's `__brev` of a widened ballot: a literal lane test of a reversed word
(`unsigned r = __brev(m); ... r & 1u`) was read as the thread's warp's 32 bits at `(r >> (__lane_id() & 32))`,
but `__brevll(m)`'s bit k is wave lane 63 - k on gfx90a: the lower warp's `r & 1` read lane 63's vote (CUDA: its
own lane 31), the upper warp's lane 31's.  Now refused KP251 at the test.  Look-alikes: a reversed word that only
counts (`__popc(r)`: the wave's reading, review65b's `>> (64 - warpSize)`), and a literal test of the ballot
word itself, which keeps the per-warp reading."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

KERNEL = """__global__ void votes(const int* f, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned m = __ballot_sync(0xffffffffu, f[i] != 0);
  unsigned r = __brev(m);
  if (r & 1u) out[i] = i;
}
"""
ASSIGNED = KERNEL.replace("unsigned r = __brev(m);", "unsigned r;\n  r = __brev(m);")
COUNTED = KERNEL.replace("if (r & 1u)", "if (__popc(r) > 3)")
DIRECT = KERNEL.replace("if (r & 1u)", "if (m & 1u)").replace("  unsigned r = __brev(m);\n", "")


def _port(code: str):
    port, text = translate(SourceFile.from_text(code, "t.cu"), "hip")
    return [(d.code, d.location.line, d.location.column) for d in port.diagnostics if d.severity == "error"], text


def test_a_lane_test_of_a_reversed_word_is_refused():
    assert _port(KERNEL)[0] == [("KP251", 5, 7)]
    assert _port(ASSIGNED)[0] == [("KP251", 6, 7)]


def test_look_alikes_keep_their_port():
    errors, text = _port(COUNTED)
    assert errors == [] and "(__brevll(m) >> (64 - warpSize))" in text, text
    errors, text = _port(DIRECT)
    assert errors == [] and "if ((((m) >> (__lane_id() & 32)) & 0xffffffffu) & 1u)" in text, text
