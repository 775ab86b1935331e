"""Lint's divergence pass resolves the callees of a file's calls (its barrier and full-mask summaries'
call graph) only where some function holds a barrier or a full-mask warp operation: where none does,
no caller can reach one and both summaries are empty without it (most files)."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport import fnscopes, warpflow
from kernelport.lint import divergence
from kernelport.lint.context import Context, Settings, Unit
from kernelport.lint.rule import TARGETS, selected

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests/realcorpus/cuda-samples/Samples/2_Concepts_and_Techniques"
FILES = sorted((ROOT / "examples").glob("*.cu")) + sorted(SAMPLES.rglob("*.cu"))[:12]

QUIET = """
__device__ float sq(float v) { return v * v; }
__device__ float twice(float v) { return sq(v) + sq(v); }
__global__ void k(float* x, int n) {
    int t = threadIdx.x;
    if (t < n) x[t] = twice(x[t]) + sq(x[t]);
}
"""

# the look-alike: the same calls, and a helper that holds the block barrier, called under `t < n`
BARRIER = """
__device__ float sq(float v) { return v * v; }
__device__ float twice(float v) { __syncthreads(); return sq(v) + sq(v); }
__global__ void k(float* x, int n) {
    int t = threadIdx.x;
    if (t < n) x[t] = twice(x[t]) + sq(x[t]);
}
"""

FULL = """
__device__ float sum(float v) { return v + __shfl_down_sync(0xffffffff, v, 1); }
__device__ float twice(float v) { return sum(v) + sum(v); }
__global__ void k(float* x, int n) {
    int t = threadIdx.x;
    if (t < n) x[t] = twice(x[t]);
}
"""


def _context(text: str, path: str = "t.cu") -> Context:
    ctx = Context(Unit(path, "cuda", text), Settings(frozenset(TARGETS), selected(None)))
    ctx.analysis  # noqa: B018  (warpflow first: its own call resolutions are not the pass's)
    return ctx


def _counted(monkeypatch) -> list:
    asked: list = []
    real = divergence.Divergence._called

    def called(self, n):
        asked.append(n)
        return real(self, n)
    monkeypatch.setattr(divergence.Divergence, "_called", called)
    return asked


def test_a_file_without_barrier_or_full_mask_resolves_no_call(monkeypatch):
    ctx = _context(QUIET)
    asked = _counted(monkeypatch)
    d = ctx.divergence
    assert asked == []  # main: each of its calls, resolved
    assert d.barrier_fns == set() and d.full_fns == set()
    assert d.barrier_hazards == [] and d.partial_warp_ops == []


def test_a_helper_with_a_barrier_still_reaches_its_callers(monkeypatch):
    ctx = _context(BARRIER)
    asked = _counted(monkeypatch)
    d = ctx.divergence
    assert asked  # the call graph is read where a function holds a barrier
    assert d.barrier_fns == {"twice", "k"}
    assert [(h.callee, h.frame.kind) for h in d.barrier_hazards] == [("twice", "if")]


def test_a_helper_with_a_full_mask_shuffle_still_reaches_its_callers(monkeypatch):
    d = _context(FULL).divergence
    assert d.full_fns == {"sum", "twice", "k"}
    assert [(h.callee, h.frame.kind) for h in d.partial_warp_ops] == [("twice", "if")]


def _reference(d: divergence.Divergence) -> tuple[set, set]:
    """Both summaries with every call resolved (the pass before this change)."""
    barrier, full, calls = {}, {}, {}
    for f in (f for f in d.m.functions.values() if f.body is not None):
        d.fn, k = f, d._fkey(f)
        barrier.setdefault(k, False)
        full.setdefault(k, False)
        calls.setdefault(k, set())
        for n in d.src.index.under(f.body, "call_expression"):
            calls[k] |= {d._fkey(g) for g in fnscopes.callees(d.m, f, n)}
            barrier[k] = barrier[k] or divergence.barrier_kind(d.ctx, n) == "block"
            full[k] = full[k] or d.full_mask_op(n)
    d.fn = None
    return warpflow.callers_closure(barrier, calls), warpflow.callers_closure(full, calls)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_summaries_are_those_of_every_call_resolved(path):
    text = path.read_text()
    d = _context(text, str(path)).divergence
    assert (d.barrier_fns, d.full_fns) == _reference(d)
