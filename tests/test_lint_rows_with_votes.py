"""WS018 in a kernel whose rows are 32-lane groups and which also votes (heldout94's konfoton
cuda_flash_attention.cu: `warp = threadIdx.x / 32` rows, `mask = __ballot_sync(...)`, then the lane-0 broadcast
`__shfl_sync(mask, max, 0)`, reported only as a 32-bit mask before).  The vote leaves the group's width undecided
(WS008 says so), but the broadcast at the default width reads lane 0 of the 64-lane wave at lanes 32-63: the other
row's value, whatever the vote.  Look-alikes: the broadcast given the width 32, the same code in blocks of whole
waves (no rows), and rows of 32 with no vote (as before: reported, a logical group)."""
from __future__ import annotations

from kernelport.lint import lint_text

ROWS = """\
__global__ void row_max(const float* x, float* out, int n) {
    int lane = threadIdx.x % 32;
    float v = x[blockIdx.x * 128 + threadIdx.y * 32 + lane];
    unsigned mask = __ballot_sync(0xffffffff, lane < n);
    if (lane < n) {
        for (int o = 4; o > 0; o /= 2) v = fmaxf(v, __shfl_down_sync(mask, v, o));
        v = BROADCAST;
        out[blockIdx.x * 128 + threadIdx.y * 32 + lane] = v;
    }
}
void launch(const float* x, float* out, int n) {
    dim3 threads(BLOCK);
    row_max<<<n, threads>>>(x, out, n);
}
"""


def _ws018(text: str) -> list[int]:
    return sorted(f.line for f in lint_text(text, "k.cu") if f.code == "WS018")


def test_a_lane_0_broadcast_in_voting_rows_of_32_is_reported():
    assert _ws018(ROWS.replace("BROADCAST", "__shfl_sync(mask, v, 0)").replace("BLOCK", "32, 4, 1")) == [7]


def test_the_broadcast_given_the_width_32_is_quiet():
    assert _ws018(ROWS.replace("BROADCAST", "__shfl_sync(mask, v, 0, 32)").replace("BLOCK", "32, 4, 1")) == []


def test_blocks_of_whole_waves_are_quiet():
    assert _ws018(ROWS.replace("BROADCAST", "__shfl_sync(mask, v, 0)").replace("BLOCK", "256, 1, 1")) == []


def test_rows_without_a_vote_are_reported_as_before():
    text = ROWS.replace("BROADCAST", "__shfl_sync(0xffffffff, v, 0)").replace("BLOCK", "32, 4, 1") \
        .replace("unsigned mask = __ballot_sync(0xffffffff, lane < n);", "unsigned mask = 0xffffffff;")
    assert _ws018(text) == [7]


def test_the_finding_says_translate_keeps_the_rows_where_it_does():
    """The port of this kernel keeps the rows (`__shfl(v, 0, 32)`): WS018 says so; rows without a vote (a logical
    group: no vote to port) keep the plain message."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    text = ROWS.replace("BROADCAST", "__shfl_sync(mask, v, 0)").replace("BLOCK", "32, 4, 1")
    assert "__shfl(v, 0, 32)" in translate(SourceFile.from_text(text, "k.cu"), "hip")[0].body
    msgs = [f.message for f in lint_text(text, "k.cu") if f.code == "WS018"]
    assert len(msgs) == 1 and "as `kernelport translate` does" in msgs[0]
    plain = text.replace("unsigned mask = __ballot_sync(0xffffffff, lane < n);", "unsigned mask = 0xffffffff;")
    msgs = [f.message for f in lint_text(plain, "k.cu") if f.code == "WS018"]
    assert len(msgs) == 1 and "kernelport translate" not in msgs[0]
