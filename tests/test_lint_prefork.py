"""Issue 15: lint's worker pool gets the run's parses and word index from its parent
(kernelport/lint/engine.py `_before_fork`, kernelport/unit_launches.py `run_index`).

Each worker of `lint -j N` built the index of the words every file of the run names (the first kernel
it linted asks which files launch it) and so parsed the whole run again: -j 2 cost 8% more CPU than
-j 1 over tests/realcorpus.  The parent now builds it once before the pool forks.  The findings are
those of -j 1 (a kernel whose block only another unit's launch gives, and the 64-thread look-alike that
must still flag), and a failure while building it is left to the workers."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from kernelport import unit_launches
from kernelport.lint import engine, units

KERNEL = """\
#include "k.cuh"
__global__ void k_sum(const float* __restrict__ x, float* out, const int n) {
    float v = threadIdx.x < n ? x[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
"""
HEADER = "#pragma once\n__global__ void k_sum(const float* x, float* out, int n);\n"
LAUNCH = '#include "k.cuh"\nvoid run{i}(const float* x, float* out, int n, int m) {{\n    k_sum<<<m, {block}>>>(x, out, n);\n}}\n'


def _run(d: Path, block: str, jobs: int) -> list[tuple]:
    d.mkdir(exist_ok=True)
    files = {"k.cuh": HEADER, "a.cu": KERNEL, **{f"b{i}.cu": LAUNCH.format(i=i, block=block) for i in range(4)}}
    for name, text in files.items():
        (d / name).write_text(text)
    return [(Path(f.path).name, f.line, f.column, f.code, f.message)
            for r in engine.lint_paths([d], jobs=jobs) for f in r.findings]


@pytest.mark.parametrize("block, flagged", [("32", False), ("64", True)])
def test_pool_findings_are_the_one_process_findings(tmp_path, block, flagged):
    one = _run(tmp_path, block, 1)
    assert (("a.cu", 4) in {f[:2] for f in one if f[3] == "WS004"}) == flagged
    assert _run(tmp_path, block, 2) == one


def test_the_index_is_built_before_the_pool_forks(tmp_path):
    _run(tmp_path, "32", 2)
    proj = units.project()  # the parent's project of the run just made
    index = proj.__dict__.get("_kp_unit_words")
    assert index is not None and index[0] is proj.units
    assert [p.name for p in index[1]["k_sum"]] == ["a.cu", "b0.cu", "b1.cu", "b2.cu", "b3.cu", "k.cuh"]


def test_a_failure_before_the_fork_is_left_to_the_workers(tmp_path, monkeypatch):
    one = _run(tmp_path / "one", "32", 1)
    parent, real = os.getpid(), unit_launches.run_index

    def fails_in_the_parent(proj):
        if os.getpid() == parent:
            raise OSError("unreadable")
        return real(proj)
    monkeypatch.setattr(unit_launches, "run_index", fails_in_the_parent)
    assert _run(tmp_path / "one", "32", 2) == one
