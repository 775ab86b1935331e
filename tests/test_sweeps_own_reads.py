"""warpflow's worklist (kernelport/sweeps.py): a pass that changes one of its own variables passes
again only where it read that variable before the change; the results stay those of sweeping every
function every time (tests/test_fixpoint_worklists.py's reference)."""
from __future__ import annotations

import pytest

from kernelport import warpflow
from kernelport.model import build
from kernelport.source import SourceFile
from kernelport.sweeps import Sweeps
from kernelport.lint.tags import THREAD

# `lane` is bound before it is read: the first pass already reads its final facts
BOUND_FIRST = """
__global__ void k(const int* x, int* y) {
    int lane = threadIdx.x % 32;
    y[threadIdx.x] = __shfl_sync(0xffffffff, x[threadIdx.x], lane);
}
"""
# the look-alike: the shuffle reads `lane` before the loop's assignment makes it a lane index
READ_FIRST = """
__global__ void k(const int* x, int* y) {
    int lane = 0;
    for (int i = 0; i < 2; ++i) {
        if (i) y[threadIdx.x] = __shfl_sync(0xffffffff, x[threadIdx.x], lane);
        lane = threadIdx.x % 32;
    }
}
"""


def _run(text: str, monkeypatch, every: bool = False):
    real = Sweeps.due
    passes: list[str] = []

    def counting(self, f):
        if real(self, f) or every:
            passes.append(f.name)
            return True
        return False
    monkeypatch.setattr(Sweeps, "due", counting)
    a = warpflow.analyze(build(SourceFile.from_text(text, "t.cu")))
    sites = sorted((s.node.start_byte, s.role, s.why) for s in a.sites if s.confirmed)
    masks = [(n.start_byte, cls, fn) for n, cls, fn in a.shuffle_masks]
    return passes, (sites, masks, [(i.code, i.node.start_byte) for i in a.issues])


def test_a_local_bound_before_it_is_read_needs_no_second_pass(monkeypatch):
    passes, got = _run(BOUND_FIRST, monkeypatch)
    assert passes == ["k"]  # (before: ["k", "k"], the second pass repeating the first)
    _, every = _run(BOUND_FIRST, monkeypatch, every=True)
    assert got == every
    assert [why for _, role, why in got[0] if role == "ws"]  # the 32 reaches the shuffle's lane: confirmed


def test_a_local_read_before_its_change_passes_again(monkeypatch):
    passes, got = _run(READ_FIRST, monkeypatch)
    assert passes == ["k", "k"]
    _, every = _run(READ_FIRST, monkeypatch, every=True)
    assert got == every
    assert [why for _, role, why in got[0] if role == "ws"]  # confirmed only by the second pass


@pytest.fixture
def sweeps():
    m = build(SourceFile.from_text(BOUND_FIRST + "__device__ int g(int v) { return v; }\n", "t.cu"))
    fs = {f.name: f for f in m.functions.values()}
    w = Sweeps(m, list(fs.values()))
    return w, fs


def test_touch_requeues_only_for_a_key_read_in_the_functions_own_pass(sweeps):
    w, fs = sweeps
    k, g = fs["k"], fs["g"]
    env = {("k", "a"): frozenset({1})}
    assert w.due(k)  # k's pass starts (the first sweep: every function)
    assert w.read(env, ("k", "a")) == frozenset({1}) and not w.has(env, ("k", "b"))
    w.touch(k, ("k", "c"))  # not read yet: the rest of this pass reads the new value
    assert w.due(g) and not w.due(k)
    for key in (("k", "a"), ("k", "b"), None):  # read, asked whether set, or a change no key names
        w.touch_name("k")
        assert w.due(k)
        w.read(env, ("k", "a"))
        w.has(env, ("k", "b"))
        w.touch(k, key)
        assert w.due(k)


def test_touch_outside_the_functions_own_pass_always_requeues(sweeps):
    w, fs = sweeps
    k, g = fs["k"], fs["g"]
    assert w.due(k)
    assert w.due(g)  # g's pass runs now: k's variables change from outside its pass
    w.touch(k, ("k", "never read"))
    assert w.due(k)
    assert not w.due(g)  # (nothing left: the pass-less state)
    w.touch(k, ("k", "x"))
    assert w.due(k)


# lint's divergence pass (kernelport/lint/divergence.py): the same rule for its thread tags
D_BOUND_FIRST = """
__global__ void k(float* x) {
    int t = threadIdx.x;
    if (t < 16) x[t] = 0.0f;
    __syncthreads();
}
"""
# `u` reads `t` before the loop's assignment makes it thread-dependent: only a second pass tags `u`
D_READ_FIRST = """
__global__ void k(float* x) {
    int t = 0;
    for (int i = 0; i < 2; ++i) {
        int u = t + 1;
        if (u < 16) __syncthreads();
        t = threadIdx.x;
    }
}
"""


def _divergence(text: str, monkeypatch):
    from kernelport.lint import divergence
    from kernelport.lint.context import Context, Settings, Unit
    from kernelport.lint.rule import TARGETS, selected
    passes: list[int] = []

    class Counted(set):
        def discard(self, x):  # one discard per function pass (Divergence.run)
            passes.append(x)
            set.discard(self, x)
    real = divergence.Divergence._worklist

    def counted(self, funcs):
        real(self, funcs)
        self._dirty = Counted(self._dirty)
    monkeypatch.setattr(divergence.Divergence, "_worklist", counted)
    d = Context(Unit("t.cu", "cuda", text), Settings(frozenset(TARGETS), selected(None))).divergence
    return len(passes), sorted(d.env.items()), [h.node.start_byte for h in d.barrier_hazards]


def test_divergence_a_local_bound_before_it_is_read_needs_no_second_pass(monkeypatch):
    passes, env, hazards = _divergence(D_BOUND_FIRST, monkeypatch)
    assert passes == 1  # (before: 2)
    assert [tag for k, tag in env if k.startswith("t@")] == [THREAD] and hazards == []  # THREAD; the barrier is outside


def test_divergence_a_local_read_before_its_change_passes_again(monkeypatch):
    passes, env, hazards = _divergence(D_READ_FIRST, monkeypatch)
    assert passes == 2  # (before: 3, the third repeating the second: `u` changed before it was read)
    assert {k.split("@")[0]: tag for k, tag in env} == {"t": THREAD, "u": THREAD}  # (UNIFORM ones are never stored)
    assert hazards == [D_READ_FIRST.index("__syncthreads")]  # under `u < 16`, thread-dependent after pass 2
