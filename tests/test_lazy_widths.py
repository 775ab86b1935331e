"""warpflow's group-width decision made on first read (kernelport/lazy_widths.py) where it can change
nothing in the analysis (no site, no header warp helper in view), and asked for by WS rules ws_geometry
and ws_lanes only where a launch or a default-width shuffle of the file can use it."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport import warpflow, warpwidth
from kernelport.lint.engine import lint_text
from kernelport.model import build
from kernelport.source import SourceFile

ROOT = Path(__file__).resolve().parent.parent

PLAIN = """
__global__ void scale(float* x, float a) { x[blockIdx.x * blockDim.x + threadIdx.x] *= a; }
void run(float* x, int n) { scale<<<n / 256, 256>>>(x, 2.f); }
"""
# No warp code either, but a block of 32 threads: the decision makes the kernel a 32-lane group.
BLOCK32 = PLAIN.replace("n / 256, 256", "n / 32, 32")
# `WARP_SIZE` sizes the block of such a kernel beside a warp-level one: ws_geometry (WS015) exempts
# that block argument only through the decision (its `_logical_blocks`), the grid's `n / WARP_SIZE` not.
LOGICAL_LAUNCH = """
#define WARP_SIZE 32
__global__ void scale(float* x, float a) { x[blockIdx.x * blockDim.x + threadIdx.x] *= a; }
__global__ void sum(const float* x, float* out) {
    float v = x[threadIdx.x];
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % warpSize == 0) out[blockIdx.x] = v;
}
void run(float* x, float* out, int n) {
    scale<<<n / WARP_SIZE, WARP_SIZE>>>(x, 2.f);
    sum<<<n / 256, 256>>>(x, out);
}
"""
WARP = """
__global__ void sum(const float* x, float* out) {
    float v = x[threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % 32 == 0) out[blockIdx.x] = v;
}
"""


@pytest.fixture
def decisions(monkeypatch):
    made: list[str] = []
    real = warpwidth.decide

    def decide(module, *args, **kw):
        made.append(module.source.path)
        return real(module, *args, **kw)
    monkeypatch.setattr(warpwidth, "decide", decide)
    return made


def test_a_file_with_nothing_warp_level_is_linted_without_the_decision(decisions):
    assert lint_text(PLAIN, "plain.cu") == []
    assert decisions == []  # main: decided in every analysis


def test_a_hardcoded_block_of_a_logical_kernel_stays_exempt():
    def ws015(text):
        return [(f.line, f.message.split(":")[0]) for f in lint_text(text, "l.cu") if f.code == "WS015"]
    assert ws015(LOGICAL_LAUNCH) == [(10, "host code uses the hardcoded warp size `WARP_SIZE`")]  # the grid's only
    # the look-alike: blocks of 64 threads make no 32-lane group, so the block argument is reported too
    assert len(ws015(LOGICAL_LAUNCH.replace("WARP_SIZE>>>", "2 * WARP_SIZE>>>"))) == 2


def test_an_analysis_with_sites_decides_at_once(decisions):
    a = warpflow.analyze(build(SourceFile.from_text(WARP, "w.cu")))
    assert decisions == ["w.cu"] and a._decide is None and a.widths is not None


def test_a_deferred_decision_is_made_once_for_every_copy_and_equals_the_eager_one(decisions):
    m = build(SourceFile.from_text(BLOCK32, "t.cu"))
    a = warpflow.analyze(m)
    copy = a.private(build(SourceFile.from_text(BLOCK32, "t.cu")))
    assert decisions == []
    w = a.widths
    assert copy.widths is w and decisions == ["t.cu"]
    eager = warpwidth.decide(m, a.warp_level)
    assert w.by_function["scale"].width == warpwidth.LOGICAL  # (a block of 32 threads)
    assert {k: (g.width, g.why, g.shares_wave) for k, g in w.by_function.items()} == \
        {k: (g.width, g.why, g.shares_wave) for k, g in eager.by_function.items()}


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.cu")), ids=lambda p: p.name)
def test_deferred_only_where_it_changes_nothing(path):
    """Each example: deferred exactly where there is no site and no header warp helper in view; where
    deferred, the analysis decided at once (the decision forced) has no site either."""
    src = SourceFile.from_text(path.read_text(), str(path))
    a = warpflow.analyze(build(src))
    assert (a._decide is not None) == (not a.sites)
    if a._decide is not None:
        assert a.widths is not None and not a.sites


# One header's kernel, launched by two files: each file alone is a project (translate and verify make one
# per file), and the header's plan is kept across the projects of the process (kernelport/header_plans.py).
KERNEL_HEADER = """#pragma once
__global__ void scale(float* x, float a) { x[blockIdx.x * blockDim.x + threadIdx.x] *= a; }
"""
HELPER_HEADER = """#pragma once
__device__ inline float twice(float v) { return 2.f * v; }
"""
LAUNCHER = '#include "k.cuh"\nvoid run(float* x, int n) {{ scale<<<n / {b}, {b}>>>(x, 2.f); }}\n'


def _projects(tmp_path, header: str):
    from kernelport.project import Project
    (tmp_path / "k.cuh").write_text(header)
    out = []
    for name, block in (("p32.cu", 32), ("p256.cu", 256)):
        (tmp_path / name).write_text(LAUNCHER.format(b=block))
        p = Project()
        p.units = [tmp_path / name]
        out.append(p)
    return out


@pytest.mark.parametrize("first", ["p32", "p256"])
def test_a_header_plan_never_takes_its_widths_from_another_projects_launches(tmp_path, first):
    """h/speed60b shared the deferred cell: the p256 project's header kernel was a logical 32-lane group
    from p32.cu's launch (and the other way round, by who analysed first)."""
    from kernelport import header_plans
    p32, p256 = _projects(tmp_path, KERNEL_HEADER)
    order = (p32, p256) if first == "p32" else (p256, p32)
    analyses = {id(p): p.analysis(tmp_path / "k.cuh") for p in order}
    assert analyses[id(p32)].widths.by_function["scale"].width == warpwidth.LOGICAL
    assert analyses[id(p256)].widths.by_function["scale"].width == warpwidth.NATIVE
    assert "p256.cu" in analyses[id(p256)].widths.by_function["scale"].why
    # the look-alike: a header whose decision reads no other file is still one plan for both projects
    made = header_plans.counts["made"]
    shared = header_plans.counts["shared"]
    (tmp_path / "h").mkdir()
    q32, q256 = _projects(tmp_path / "h", HELPER_HEADER)
    a, b = q32.analysis(tmp_path / "h" / "k.cuh"), q256.analysis(tmp_path / "h" / "k.cuh")
    assert (header_plans.counts["made"] - made, header_plans.counts["shared"] - shared) == (1, 1)
    assert b.widths is a.widths


def test_a_deferred_decision_logs_what_it_read_of_the_run(tmp_path):
    p32, _ = _projects(tmp_path, KERNEL_HEADER)
    a = p32.analysis(tmp_path / "k.cuh")
    assert a._decide is not None and a._decide.make is not None  # (deferred: no site, no warp helper)
    reads = a.module.visible.elsewhere.run_reads
    a.widths
    assert a._decide.read_run and a.module.visible.elsewhere.run_reads > reads


def test_a_decision_that_fails_where_it_was_deferred_is_not_shared(tmp_path, monkeypatch):
    from kernelport import header_plans
    p32, p256 = _projects(tmp_path, KERNEL_HEADER)
    p32.analysis(tmp_path / "k.cuh")
    real = warpwidth.decide

    def broken(*a, **k):
        raise OSError("gone")
    monkeypatch.setattr(warpwidth, "decide", broken)
    made = header_plans.counts["made"]
    b = p256.analysis(tmp_path / "k.cuh")  # (no error here: the plan is dropped, p256 analyses for itself)
    assert header_plans.counts["made"] == made + 1
    monkeypatch.setattr(warpwidth, "decide", real)
    assert b.widths.by_function["scale"].width == warpwidth.NATIVE
