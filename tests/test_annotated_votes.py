"""Votes in a group annotated `// @kp warp-width 32` (kernelport/annotated_votes.py) and a caller's 32-lane
groups calling a helper the port would make the wave's (soundness.self_check: KP219, not KP220)."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate


def port(code: str, backend: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), backend)[0]


def codes(p) -> list[str]:
    return [d.code for d in p.diagnostics if d.severity == "error"]


COUNT = """
__device__ int counts[64];
// @kp warp-width 32
__device__ void count_low(int *c) {
    unsigned m = VOTE;
    if ((threadIdx.x % 32) == 0) atomicAdd(c, __popc(m));
}
__global__ void k() {
    count_low(&counts[(threadIdx.x + blockIdx.x * blockDim.x) / 32]);
}
"""


def test_annotated_group_ballot_is_over_its_own_cuda_warp():
    # lanes 32-63 of a 64-lane wave are the second CUDA warp: `unsigned m = __ballot(p)` would give them the
    # first warp's bits (the port compiled and counted the wrong warp before)
    p = port(COUNT.replace("VOTE", "__ballot_sync(0xffffffff, threadIdx.x < 40)"))
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "__ballot(threadIdx.x < 40) >> (__lane_id() & 32)" in p.body
    assert "unsigned m = __ballot(" not in p.body


def test_annotated_group_activemask_is_refused_where_blocks_may_hold_two_warps():
    p = port(COUNT.replace("VOTE", "__activemask()"))
    assert not p.ok and "KP219" in codes(p) and "KP220" not in codes(p)
    d = next(d for d in p.diagnostics if d.code == "KP219")
    assert d.location.line == 5 and "two CUDA warps" in d.message


def test_annotated_group_activemask_ports_for_blocks_of_one_warp():
    # look-alike: every launch makes 32-thread blocks, so the wave holds one CUDA warp and its vote is the warp's
    p = port("""
    // @kp warp-width 32
    __device__ int active_count() {
        unsigned m = __activemask();
        return __popc(m);
    }
    __global__ void k(int *out) {
        int n = active_count();
        if (threadIdx.x == 0) out[blockIdx.x] = n;
    }
    void run(int *out) { k<<<4, 32>>>(out); }
    """)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "unsigned m = __ballot(1);" in p.body


UNMARKED = """
__device__ unsigned long long ctr[64];
__device__ void leader_count(unsigned long long *c) {
    unsigned m = __activemask();
    int n = __popc(m);
    if ((threadIdx.x % 32) == 0) atomicAdd(c, (unsigned long long)n);
}
__global__ void k() {
    CALL
}
"""


def test_callers_32_lane_groups_with_a_widened_helper_is_a_located_refusal_not_an_internal_error():
    p = port(UNMARKED.replace("CALL", "leader_count(&ctr[((threadIdx.x + blockIdx.x * blockDim.x) / 32) % 64]);"))
    assert not p.ok and codes(p) == ["KP219"]
    d = p.diagnostics[0]
    assert d.location.line == 9 and "groups of 32" in d.message and "warp-width 32" in d.hint


def test_helper_called_without_32_lane_groups_is_widened():
    # look-alike: one counter for the whole grid, so the wave's count is the sum CUDA's warps add
    p = port(UNMARKED.replace("CALL", "leader_count(&ctr[0]);"))
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "__popcll(m)" in p.body and "threadIdx.x % warpSize" in p.body


LAUNCHED = """
__device__ int counts[64];
MARK
__device__ void count_active(int *c) {
    unsigned m = __activemask();
    if ((threadIdx.x % 32) == 0) atomicAdd(c, __popc(m));
}
__global__ void k() {
    count_active(&counts[(threadIdx.x + blockIdx.x * blockDim.x) / 32]);
}
void run() { k<<<4, 256>>>(); }
"""


def test_annotated_group_vote_in_blocks_of_two_warps_says_which_vote_not_cannot_decide():
    # heldout89's warp-aggregation helper: annotated 32 and launched with 256-thread blocks, its `__activemask()`
    # was KP219 "cannot decide the warp width here: annotated `// @kp warp-width 32`" (the hint: annotate it)
    p = port(LAUNCHED.replace("MARK", "// @kp warp-width 32"))
    assert not p.ok
    d = next(d for d in p.diagnostics if d.code == "KP219")
    assert d.location.line == 5 and "`__activemask` votes over the whole 64-lane wave" in d.message
    assert "cannot decide" not in d.message and "at most 32 threads" in d.hint


def test_unannotated_group_vote_in_blocks_of_two_warps_keeps_the_cannot_decide_refusal():
    # look-alike: nothing annotated, so the width is undecided and the hint asks for the annotation
    p = port(LAUNCHED.replace("MARK", ""))
    assert not p.ok
    d = next(d for d in p.diagnostics if d.code == "KP219")
    assert "cannot decide the warp width here" in d.message and "@kp warp-width 32" in d.hint
