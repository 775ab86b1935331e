"""The divergence pass's hazard walk, at the fixpoint, enters no subtree that holds no call and no
return: a hazard is only recorded at a call, and only a return (an early exit) changes the frames of
a later one, so the conditions of call-free code are not read again.  Its hazards are those of the
walk of every node (the pass before this change)."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport.lint import barrier_spellings, divergence
from kernelport.lint.context import Context, Settings, Unit
from kernelport.lint.rule import TARGETS, selected

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests/realcorpus/cuda-samples/Samples/2_Concepts_and_Techniques"
FILES = sorted((ROOT / "examples").glob("*.cu")) + sorted(SAMPLES.rglob("*.cu"))[:12]

# a call-free branch under a thread-dependent condition, then a barrier all threads reach
QUIET_BRANCH = """
__global__ void k(float* x, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    if (t < n) {
        float v = x[t] * 2.0f + 1.0f;
        s[t] = v > 0.0f ? v : -v;
    }
    __syncthreads();
    x[t] = s[t];
}
"""

# the look-alikes: the barrier inside the branch; an early return under it before the barrier; a
# full-mask shuffle after a partial cut
IN_BRANCH = QUIET_BRANCH.replace("        s[t] = v > 0.0f ? v : -v;\n    }\n    __syncthreads();",
                                 "        s[t] = v > 0.0f ? v : -v;\n        __syncthreads();\n    }")
EARLY_RETURN = QUIET_BRANCH.replace("        s[t] = v > 0.0f ? v : -v;\n", "        if (v > 4.0f) return;\n")
CUT = """
__global__ void k(float* x, int n) {
    int t = threadIdx.x;
    float v = x[t];
    if (t >= n) {
        v = v * 2.0f;
        return;
    }
    v += __shfl_down_sync(0xffffffff, v, 1);
    x[t] = v;
}
"""


def _context(text: str, path: str = "t.cu") -> Context:
    return Context(Unit(path, "cuda", text), Settings(frozenset(TARGETS), selected(None)))


def _walked(monkeypatch) -> list:
    seen: list = []
    real = divergence.Divergence._walk

    def walk(self, n, frames):
        seen.append(n)
        return real(self, n, frames)
    monkeypatch.setattr(divergence.Divergence, "_walk", walk)
    return seen


def _hazards(d: divergence.Divergence) -> list:
    return [(h.node.start_byte, h.frame.kind, h.frame.tag, h.callee) for h in
            (d.barrier_hazards or []) + (d.partial_warp_ops or [])]


def _every_node(text: str, path: str = "t.cu") -> list:
    """The hazards of the walk that enters every node (no marks)."""
    real = divergence.Divergence._walk_marks
    divergence.Divergence._walk_marks = lambda self: None
    try:
        return _hazards(_context(text, path).divergence)
    finally:
        divergence.Divergence._walk_marks = real


def test_a_call_free_branch_is_not_walked(monkeypatch):
    ctx = _context(QUIET_BRANCH)
    ctx.analysis  # noqa: B018
    seen = _walked(monkeypatch)
    d = ctx.divergence
    branch = QUIET_BRANCH.index("if (t < n)")
    inside = [n for n in seen if n.start_byte > branch and n.end_byte < QUIET_BRANCH.index("__syncthreads")]
    assert inside == []  # main: the branch's condition, block and every expression in it
    assert d.barrier_hazards == []


@pytest.mark.parametrize("text,kind", [(IN_BRANCH, "if"), (EARLY_RETURN, "exit")], ids=["in-branch", "early-return"])
def test_the_barrier_look_alikes_are_still_found(text, kind):
    d = _context(text).divergence
    assert [h.frame.kind for h in d.barrier_hazards] == [kind]
    assert _hazards(d) == _every_node(text)


def test_a_cut_before_a_full_mask_shuffle_is_still_found():
    d = _context(CUT).divergence
    assert [h.frame.kind for h in d.partial_warp_ops] == ["cut"]
    assert _hazards(d) == _every_node(CUT)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_hazards_are_those_of_every_node_walked(path):
    text = path.read_text()
    assert _hazards(_context(text, str(path)).divergence) == _every_node(text, str(path))


def test_a_call_name_is_read_as_a_barrier_once(monkeypatch):
    """barrier_kind (asked of every call of every file by the summaries) looks each name up in the
    dialects once; the barriers and a look-alike helper keep their kinds."""
    text = """
__device__ float sync(float v) { return v; }
__global__ void k(float* x) {
    float v = sync(x[0]) + sync(x[1]) + sync(x[2]);
    __syncwarp();
    __syncthreads();
    __syncthreads();
    x[threadIdx.x] = v;
}
"""
    monkeypatch.setattr(barrier_spellings, "_KINDS", {})  # (barrier_kind lives there since stop 63)
    monkeypatch.setattr(barrier_spellings, "_KNOWN", {})
    asked = []
    real = barrier_spellings._lookup
    monkeypatch.setattr(barrier_spellings, "_lookup", lambda name, dialects: asked.append(name) or real(name, dialects))
    ctx = _context(text)
    calls = ctx.src.index.of_type("call_expression")
    kinds = [divergence.barrier_kind(ctx, c) for c in calls] + [divergence.barrier_kind(ctx, c) for c in calls]
    assert sorted(asked) == ["__syncthreads", "__syncwarp", "sync"]  # main: one look-up per call and ask
    assert kinds[:len(calls)] == [None, None, None, "warp", "block", "block"] == kinds[len(calls):]
