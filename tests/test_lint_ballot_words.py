"""WS002 reports as advice a `% 32` lane that only elects the writer of a 32-bit bitmask word holding a
ballot (kernelport/lint/ballotwords.py; issue 11, stop 61: RXMesh's participation and deletion masks,
tests/labelled27).  The word's 32 is right at 64 once each 32-lane half has its own bits; the ballot's
32-bit value is the hazard, and WS007/WS008 keep reporting it there."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

# Lane 0 of every 32 threads writes the ballot of those 32 to their word (RXMesh's shape, the index
# through a local, the value combined with the old word).
WORDS = """\
__device__ void update(bool p, unsigned short id, unsigned* bitmask) {
    unsigned m = __ballot_sync(0xFFFFFFFF, p);
    unsigned lane = threadIdx.x % 32;
    if (lane == 0 && m != 0) {
        unsigned word = id / 32;
        unsigned old = bitmask[word];
        bitmask[word] = (~m) & old;
    }
}
__global__ void k(const int* x, unsigned* bits) { update(x[threadIdx.x] > 0, threadIdx.x, bits); }
"""
DIRECT = """\
__global__ void mark(const int* x, unsigned* bits, int n) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        unsigned m = __ballot_sync(0xFFFFFFFF, x[i] > 0);
        unsigned lane = threadIdx.x % 32;
        if (lane == 0) bits[i / 32] = m;
    }
}
"""
# Look-alikes that keep their error: a count of the ballot per warp, the lane also a shuffle's source,
# a 64-bit ballot word, the lane compared with another lane.
COUNT = DIRECT.replace("= m;", "= __popc(m);")
SHUFFLE = DIRECT.replace("if (lane == 0)", "m = __shfl_sync(0xFFFFFFFF, m, lane ^ 1);\n        if (lane == 0)")
WIDE = DIRECT.replace("unsigned m =", "unsigned long long m =")
LEADER = DIRECT.replace("if (lane == 0)", "if (lane == __ffs(m) - 1)")


def _ws002(src: str, name: str = "t.cu"):
    return [f for f in lint_text(src, name) if f.code == "WS002"]


def test_a_word_writers_lane_is_advice_without_a_fix_and_the_ballot_stays_a_hazard():
    for name in ("t.cu", "t.cuh"):
        (f,) = _ws002(WORDS, name)
        assert (f.line, f.severity, f.fix) == (3, "info", None) and "bitmask word" in f.message and "`m`" in f.message
        assert any(g.code == "WS008" and g.line == 2 and g.severity == "error" for g in lint_text(WORDS, name))
    (f,) = _ws002(DIRECT)
    assert (f.line, f.severity) == (4, "info")


def test_a_lane_with_another_role_keeps_its_error():
    for src in (COUNT, SHUFFLE, WIDE, LEADER):
        found = _ws002(src)
        assert found and all(f.severity == "error" and "bitmask word" not in f.message for f in found), src
