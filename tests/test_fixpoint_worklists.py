"""The fixpoint analyses as worklists (warpflow via kernelport/sweeps.py, lint's divergence pass):
a function passes again only when something it reads changed, with results identical to sweeping
every function every time."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport import warpflow
from kernelport.lint import divergence
from kernelport.lint.context import Context, Settings, Unit
from kernelport.lint.rule import TARGETS, selected
from kernelport.model import build
from kernelport.source import SourceFile
from kernelport.sweeps import Sweeps

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests/realcorpus/cuda-samples/Samples/2_Concepts_and_Techniques"
FILES = sorted((ROOT / "examples").glob("*.cu")) + sorted(SAMPLES.rglob("*.cu"))[:12]

# A helper whose return becomes a lane index only in a later sweep (its caller's argument is
# learned after the helper was first analysed): the caller must be analysed again.
CHAIN = """
__device__ int lane_of(int t) { return t % 32; }
__device__ int pick(int v, int t) { return __shfl_sync(0xffffffff, v, lane_of(t)); }
__device__ int late(int t) { return helper2(t); }
__device__ int helper2(int t) { return t; }
__global__ void k(int* x) { int t = threadIdx.x; x[t] = pick(x[t], late(t)); }
__global__ void solo(float* y) { y[threadIdx.x] *= 2.0f; }
"""


def _every_time(monkeypatch):
    """The reference: every function in every sweep (what the fixpoints did before the worklists)."""
    monkeypatch.setattr(Sweeps, "due", lambda self, f: True)

    class Everything(set):
        def __contains__(self, item) -> bool:
            return True

    real = divergence.Divergence._worklist

    def all_due(self, funcs):
        real(self, funcs)
        self._dirty = Everything()
    monkeypatch.setattr(divergence.Divergence, "_worklist", all_due)


def _summary(text: str, path: str):
    m = build(SourceFile.from_text(text, path))
    a = warpflow.analyze(m)
    # what is read: the confirmed sites; the unconfirmed ones of the functions no warp construct
    # reaches are never made (warpreach.py), so they are compared as a subset below
    sites = sorted((s.node.start_byte, s.role, s.why) for s in a.sites if s.confirmed)
    unconfirmed = {(s.node.start_byte, s.role) for s in a.sites if not s.confirmed}
    masks = [(n.start_byte, cls, fn) for n, cls, fn in a.shuffle_masks]
    ctx = Context(Unit(path, "cuda", text), Settings(frozenset(TARGETS), selected(None)))
    d = ctx.divergence
    env = sorted(d.env.items()), sorted(d.returns.items())
    hazards = [(h.node.start_byte, h.callee) for h in d.barrier_hazards + d.partial_warp_ops]
    return (sites, masks, [(i.code, i.node.start_byte) for i in a.issues], env, hazards), unconfirmed


@pytest.mark.parametrize("path", FILES + ["CHAIN"], ids=lambda p: Path(str(p)).name)
def test_worklists_give_what_sweeping_everything_gives(path, monkeypatch):
    text = CHAIN if path == "CHAIN" else Path(path).read_text(encoding="utf-8")
    fast, fast_unconfirmed = _summary(text, str(path))
    _every_time(monkeypatch)
    every, every_unconfirmed = _summary(text, str(path))
    assert every == fast
    assert fast_unconfirmed <= every_unconfirmed


def _passes(monkeypatch, due) -> list[str]:
    passes: list[str] = []

    def counting(self, f):
        if due(self, f):
            passes.append(f.name)
            return True
        return False
    monkeypatch.setattr(Sweeps, "due", counting)
    warpflow.analyze(build(SourceFile.from_text(CHAIN, "chain.cu")))
    return passes


def test_a_function_whose_inputs_did_not_change_is_skipped(monkeypatch):
    real = Sweeps.due
    fast = _passes(monkeypatch, real)
    every = _passes(monkeypatch, lambda self, f: real(self, f) or True)
    assert fast.count("solo") == 0 < every.count("solo")  # no warp construct reaches it (warpreach.py)
    assert fast.count("helper2") == 2 < every.count("helper2")  # it passes again only when its argument changed
    assert fast.count("lane_of") >= 2  # its argument becomes a lane index only after its first pass
    assert len(fast) < len(every)


def test_sweeps_mark_callers_of_a_changed_return_and_every_function_for_a_global():
    m = build(SourceFile.from_text(CHAIN, "chain.cu"))
    fs = list(m.functions.values())
    w = Sweeps(m, fs)
    for f in fs:
        assert w.due(f)  # the first sweep: all
    assert not any(w.due(f) for f in fs)
    w.returned("lane_of")
    assert [f.name for f in fs if w.due(f)] == ["pick"]
    w.touch(None)
    assert [f.name for f in fs if w.due(f)] == [f.name for f in fs]
    w.touch_name("solo")
    assert [f.name for f in fs if w.due(f)] == ["solo"]
