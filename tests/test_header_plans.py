"""A header's plan (warpflow's analysis of its model with its includes) is shared across the projects of
one process where everything it reads is equal (kernelport/header_plans.py): files translated each
alone, as `translate FILE` and verify do, analyse a common header once; an includer that gives it other
facts (a -D, a warp-size decision) gets a plan of its own, and a plan that reads the run's other files
(a header helper's 32-lane group, kernelport/header_widths.py) is never shared.  Every port is the one
made with sharing off."""
from __future__ import annotations

import collections
import textwrap
from pathlib import Path

from typer.testing import CliRunner

from kernelport import warpflow
from kernelport.cli import app

COMMON = """\
#pragma once
#ifdef WIDE
#define WIDTH 16
#else
#define WIDTH 32
#endif
__device__ inline int reduce(int v) {
    for (int o = WIDTH / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o, WIDTH);
    return v;
}
"""
UNITS = {
    "a.cu": """\
        #include "common.h"
        __global__ void k(int *o) { o[threadIdx.x] = reduce(o[threadIdx.x]); }
        """,
    "b.cu": """\
        #include "common.h"
        __global__ void k2(int *o) { o[threadIdx.x] = 2 * reduce(o[threadIdx.x]); }
        """,
    "warp.h": """\
        #pragma once
        #define WARP_SIZE 32
        __device__ inline int twice(int v) { return 2 * v; }
        """,
    "w1.cu": """\
        #include "warp.h"
        __global__ void scale(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = twice(i); }
        """,
    "w3.cu": """\
        #include "warp.h"
        __global__ void scale3(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] = 3 * twice(i); }
        """,
    # its ballot makes warp.h's WARP_SIZE the project's wave width: a decision the header's model sees
    "w2.cu": """\
        #include "warp.h"
        __global__ void vote(const int *in, unsigned *out) {
            unsigned b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
            int lane = threadIdx.x % WARP_SIZE;
            if (lane == 0) out[threadIdx.x / WARP_SIZE] = b;
        }
        """,
    # utils.h's helper keeps a 32-lane group; scan.h's plan reads utils.h's plan through the run (header_widths)
    "utils.h": """\
        #pragma once
        #define LANE_COUNT 32
        __device__ inline int warp_sum(int v) {
            for (int o = LANE_COUNT / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o, LANE_COUNT);
            return v;
        }
        """,
    "scan.h": """\
        #pragma once
        #include "utils.h"
        __device__ inline int block_part(int v) { return warp_sum(v) + 1; }
        """,
    "s1.cu": """\
        #include "scan.h"
        __global__ void s1(int *o) { o[threadIdx.x] = block_part(o[threadIdx.x]); }
        """,
    "s2.cu": """\
        #include "scan.h"
        __global__ void s2(int *o) { o[threadIdx.x] = 3 * block_part(o[threadIdx.x]); }
        """,
}


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "common.h").write_text(COMMON)
    for name, code in UNITS.items():
        (tmp_path / name).write_text(textwrap.dedent(code))
    return tmp_path


def _each_alone(tree: Path, runs: list[list[str]], monkeypatch) -> tuple[collections.Counter, list[str]]:
    """Each run a `translate` of one file (its args) in this process: (plans analysed per file, outputs)."""
    counts: collections.Counter = collections.Counter()
    analyze = warpflow.analyze

    def counted(m, *a, **k):
        if m.visible is not None:  # a project's model with its includes' view: the plan
            counts[Path(m.source.path).name] += 1
        return analyze(m, *a, **k)
    monkeypatch.setattr(warpflow, "analyze", counted)
    outs = []
    for args in runs:
        res = CliRunner().invoke(app, ["translate", str(tree / args[0]), *args[1:], "--to", "hip", "--stdout"])
        assert res.exit_code == 0, res.output
        outs.append(res.output)
    monkeypatch.setattr(warpflow, "analyze", analyze)
    return counts, outs


def _unshared(monkeypatch):
    monkeypatch.setattr("kernelport.header_plans._read", lambda m: None)  # nothing kept, nothing shared


def test_two_includers_giving_equal_facts_share_one_plan(tmp_path, monkeypatch):
    tree = _tree(tmp_path)
    counts, outs = _each_alone(tree, [["a.cu"], ["b.cu"]], monkeypatch)
    assert counts["common.h"] == 1  # main: 2, once in each includer's project
    assert (counts["a.cu"], counts["b.cu"]) == (1, 1)
    _unshared(monkeypatch)
    again, unshared = _each_alone(tree, [["a.cu"], ["b.cu"]], monkeypatch)
    assert again["common.h"] == 2
    assert outs == unshared


def test_an_includer_giving_a_define_gets_a_plan_of_its_own(tmp_path, monkeypatch):
    tree = _tree(tmp_path)
    runs = [["a.cu"], ["b.cu", "-D", "WIDE"], ["a.cu", "-D", "WIDE"], ["b.cu"]]
    counts, outs = _each_alone(tree, runs, monkeypatch)
    assert counts["common.h"] == 2  # one plan per distinct -D (main: 4)
    assert "16" in outs[1] and outs[1] != outs[0]  # (the define reaches the header's port)
    _unshared(monkeypatch)
    assert _each_alone(tree, runs, monkeypatch)[1] == outs


def test_a_warp_size_decision_gives_the_header_another_plan(tmp_path, monkeypatch):
    tree = _tree(tmp_path)
    runs = [["w1.cu"], ["w2.cu"], ["w3.cu"]]
    counts, outs = _each_alone(tree, runs, monkeypatch)
    assert "#define WARP_SIZE KP_WAVE_SIZE" in outs[1] and "#define WARP_SIZE KP_WAVE_SIZE" not in outs[2]
    # w1.cu's plan is w2.cu's until w2.cu decides WARP_SIZE (then analysed again), and w3.cu's
    assert counts["warp.h"] == 2  # main: 3
    _unshared(monkeypatch)
    again, unshared = _each_alone(tree, runs, monkeypatch)
    assert again["warp.h"] == 3
    assert outs == unshared


def test_a_plan_that_reads_the_run_is_not_shared(tmp_path, monkeypatch):
    tree = _tree(tmp_path)
    runs = [["s1.cu"], ["s2.cu"]]
    counts, outs = _each_alone(tree, runs, monkeypatch)
    assert counts["scan.h"] == 2  # it asks the run for utils.h's plan (header_widths): analysed per project
    assert counts["utils.h"] == 1  # (which itself reads only its own model: shared)
    _unshared(monkeypatch)
    assert _each_alone(tree, runs, monkeypatch)[1] == outs
