"""Lint behaviours designed on the misses pooled over the labelled sets (h/lintmiss, stop 31), each with
a case it must flag and a look-alike it must not:

- WS015 at a host launch sized in groups of 32 for a kernel whose 32-lane groups are right only as
  far as its shuffles stay in them: a shuffle from a source lane at the default width (WS018's:
  DeepEP's `cached_notify_combine`, `rank_id = thread_id / 32` and `__shfl_sync(m, head, i)`, launched
  with `32 * num_ranks` threads) reads the other group's lanes on a 64-lane wave, so the groups of
  32 the host sizes are no logical group; the same kernel shuffling at width 32 stays silent.
"""
from __future__ import annotations

from kernelport.lint.engine import lint_text


# DeepEP's cached_notify_combine at 2f571367ff^ (tests/labelled_heldout), reduced.
GROUPS = """\
template <int kNumRanks>
__global__ void notify(int* send_head, int num_tokens) {
    const int thread_id = threadIdx.x;
    const int rank_id = thread_id / 32;
    const int lane_id = thread_id % 32;
    if (rank_id >= kNumRanks) return;
    int current = send_head[lane_id * kNumRanks + rank_id];
    int last = 0;
    for (int i = 0; i < 32; ++i) {
        const int head = __shfl_sync(0xffffffff, current, i);
        if (head >= 0) last = head;
    }
    send_head[lane_id * kNumRanks + rank_id] = last;
}
void launch(int* send_head, int num_tokens, int num_ranks) {
    const int num_threads = 32 * num_ranks;
    notify<8><<<1, num_threads>>>(send_head, num_tokens);
}
"""


def _codes(text: str, name: str = "t.cu") -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for f in lint_text(text, name):
        if f.severity != "info":
            out.setdefault(f.line, set()).add(f.code)
    return out


def test_groups_of_32_sized_by_the_host_for_a_kernel_whose_broadcast_leaves_them_are_flagged():
    got = _codes(GROUPS)
    assert "WS018" in got.get(10, set()), got  # the default-width broadcast crosses the 32-lane groups
    assert "WS015" in got.get(16, set()), got  # so the host's groups of 32 are no logical group
    host = [f for f in lint_text(GROUPS, "t.cu") if f.code == "WS015"]
    assert [r.line for r in host[0].related] == [10], host  # the shuffle a width of 32 would mend


def test_the_same_groups_shuffling_at_width_32_are_quiet():
    got = _codes(GROUPS.replace("current, i);", "current, i, 32);"))
    assert "WS018" not in got.get(10, set()), got
    assert "WS015" not in got.get(16, set()), got
