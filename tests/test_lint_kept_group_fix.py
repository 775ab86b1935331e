"""`--fix` is not offered where the finding's own advice is to keep the 32 (issue 11, stop 61).

In a 32-lane group whose votes are all full-mask ballots (kernelport/halfvotes.py) translate keeps the
group at CUDA's 32 lanes, each vote over its caller's warp, and WS002/WS003 say so: "this 32 stays as
written ... (`warpSize` here alone would split the group's layout)".  Their `--fix` rewrote the same
`threadIdx.x % 32` to `% warpSize` anyway, the edit the message warns against: with per-warp counts
written by lane 0 of every 32 threads at `i / 32`, lane 0 of a 64-lane wave alone would write, and
the odd slots never (found beside RXMesh's bitmask words, tests/labelled27, whose writers are advice:
tests/test_lint_ballot_words.py).  The finding stays (the code as written
votes over the whole wave: tests/test_lint_row_splits_reach.py); only the fix goes."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

# Lane 0 of every 32 threads writes the count of its 32's ballot to the slot of those elements.
SLOTS = """\
__global__ void mark(const int* x, unsigned* bits, int n) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        unsigned m = __ballot_sync(0xFFFFFFFF, x[i] > 0);
        unsigned lane = threadIdx.x % 32;
        if (lane == 0) bits[i / 32] = __popc(m);
    }
}
"""
# A per-warp count of the same kind of group, its leader `threadIdx.x % 32 == 0` written in the test itself.
COUNTS = """\
__global__ void count(const int* x, int* per_warp) {
    unsigned m = __ballot_sync(0xFFFFFFFF, x[blockIdx.x * blockDim.x + threadIdx.x] > 0);
    int warp = threadIdx.x / 32;
    if (threadIdx.x % 32 == 0) per_warp[blockIdx.x * 8 + warp] = __popc(m);
}
void launch(const int* x, int* per_warp, int n) { count<<<n, 256>>>(x, per_warp); }
"""
# Look-alike: the same lane with no vote, a shuffle's leader: the wave's width is the fix, offered.
LEADER = """\
__global__ void k(float* x) {
    int lane = threadIdx.x % 32;
    float v = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1);
    if (lane == 0) x[threadIdx.x] = v;
}
"""


def _sites(src: str, code: str):
    return [f for f in lint_text(src, "t.cu") if f.code == code]


def test_a_kept_groups_lane_keeps_its_finding_but_offers_no_fix():
    (f,) = _sites(SLOTS, "WS002")
    assert f.line == 4 and "keeps this group at 32 lanes" in f.message
    assert f.fix is None


def test_a_kept_groups_leader_test_offers_no_fix_either():
    found = _sites(COUNTS, "WS003") + _sites(COUNTS, "WS002")
    assert found and all("keeps this group at 32 lanes" in f.message and f.fix is None for f in found)


def test_a_lane_outside_such_a_group_keeps_its_fix():
    (f,) = _sites(LEADER, "WS002")
    assert f.line == 2 and "keeps this group" not in f.message
    assert f.fix is not None and "warpSize" in f.fix.edits[0].content
