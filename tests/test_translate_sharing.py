"""What translate computes once per run and shares: the project's model and analysis of a file,
a scope's declarations for member uses, the include-free model and analysis the self-check's lint
of the original reads (for every backend).  Shared only where reading it again would give the same
(bench/port_hashes.py: the ports and diagnostics over tests/realcorpus and examples are unchanged)."""
from __future__ import annotations

import textwrap
from pathlib import Path

from kernelport import warpflow
from kernelport.member_uses import member_calls
from kernelport.project import Project
from kernelport.project_ports import make, single
from kernelport.source import SourceFile


def _two_files(tmp_path: Path) -> tuple[Path, Path, Path]:
    (tmp_path / "common.h").write_text("#pragma once\n#define WARP_SIZE 32\n")
    (tmp_path / "other.h").write_text("#pragma once\n#define LANES 32\n")
    k = tmp_path / "k.cu"
    k.write_text('#include "common.h"\n__global__ void k(int *o) { o[threadIdx.x % WARP_SIZE] = 1; }\n')
    return k, tmp_path / "common.h", tmp_path / "other.h"


def test_a_files_model_and_analysis_are_built_once_per_run(tmp_path):
    k, _, _ = _two_files(tmp_path)
    p = Project()
    assert p.module(k) is p.module(k)
    assert p.analysis(k) is p.analysis(k)
    assert p.module(k, fresh=True) is not p.module(k)  # a caller that changes its model gets its own


def test_a_decision_on_a_macro_the_file_sees_builds_its_model_again_one_it_cannot_see_does_not(tmp_path):
    k, common, other = _two_files(tmp_path)
    p = Project()
    first = p.module(k)
    assert "WARP_SIZE" not in first.visible.confirmed
    p.confirmed[(other.resolve(), "LANES")] = "'LANES' is the warp size elsewhere"  # k.cu does not include it
    assert p.module(k) is first
    p.confirmed[(common.resolve(), "WARP_SIZE")] = "'WARP_SIZE' is the warp size in k.cu:2"
    again = p.module(k)
    assert again is not first and again.visible.confirmed == {"WARP_SIZE": "'WARP_SIZE' is the warp size in k.cu:2"}
    assert p.analysis(k).confirmed() is not None and p.analysis(k) is p.analysis(k)


def test_a_name_is_resolved_in_its_own_scope_each_time():
    code = textwrap.dedent("""\
        #include <cooperative_groups.h>
        namespace cg = cooperative_groups;
        struct Tile { __device__ int group_dim() const { return 4; } };
        __device__ int a() { auto g = cg::this_thread_block(); return g.group_dim().x; }
        __device__ int b() { Tile g; return g.group_dim(); }
        __device__ int c() { auto g = cg::this_thread_block(); return g.group_dim().y; }
        """)
    src = SourceFile.from_text(code, "t.cu")
    lines = [src.loc(call).line for call, group, member in member_calls(src)]
    assert lines == [4, 6]  # b's `g` is its own Tile, though a's and c's are thread blocks

KERNEL = """#include "common.h"
__global__ void k(float* x) {
    float v = x[threadIdx.x];
    for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % WARP_SIZE == 0) x[threadIdx.x / WARP_SIZE] = v;
}
"""

LONE = KERNEL.replace('#include "common.h"', "#include <cstdio>").replace("WARP_SIZE", "32")


def _project(tmp_path: Path):
    (tmp_path / "common.h").write_text("#pragma once\n#define WARP_SIZE 32\n")
    f = tmp_path / "k.cu"
    f.write_text(KERNEL)
    return f, single(f, SourceFile.read(f))


def test_the_project_model_of_a_file_is_its_include_free_model_with_the_includes(tmp_path):
    f, run = _project(tmp_path)
    proj = run.project
    m, plain = proj.module(f), proj.file(f).module
    assert m.functions is plain.functions  # one build of the tree, not two
    assert m.visible is not None and "WARP_SIZE" in m.visible.macros and plain.visible is None
    assert proj.module(f, fresh=True).functions is not plain.functions  # a caller that changes it builds its own


def test_the_self_check_analyses_the_original_once_for_every_backend(tmp_path, monkeypatch):
    f, run = _project(tmp_path)
    analysed = []
    real = warpflow.analyze
    monkeypatch.setattr(warpflow, "analyze", lambda m: analysed.append(m) or real(m))
    made = make(run, ["hip", "metal"], None, True)
    assert [m.backend for m in made if not m.header] == ["hip", "metal"]
    plain = run.project.file(f).module
    # the project's model (hip), metal's own (it changes its model), the include-free one once,
    # and each port's
    assert sum(m is plain for m in analysed) == 1
    assert all(m.port.ok for m in made), [d.format() for m in made for d in m.port.diagnostics]


def test_the_project_analysis_serves_as_the_include_free_one_only_where_the_includes_add_nothing(tmp_path):
    f, run = _project(tmp_path)  # k.cu reads WARP_SIZE from common.h: its analysis is not lint's
    make(run, ["hip"], None, True)
    assert run.project.plain_analysis(f) is None
    alone = tmp_path / "alone.cu"
    alone.write_text(LONE)  # (a macro of its own that the project decides is the wave is a decision it reads)
    lone = single(alone, SourceFile.read(alone))
    made = make(lone, ["hip"], None, True)
    proj = lone.project
    assert proj.plain_analysis(alone) is proj.analysis(alone)
    assert made[0].port.ok and "__shfl_down(v, o, 32)" in made[0].text  # translated as before (rows of 32)
    src = proj.source(alone)
    assert src.__dict__["_kp_plain_analysis"] == (proj.file(alone).module, proj.analysis(alone))  # lint's


def test_a_lone_files_self_check_does_not_analyse_the_original_again(tmp_path, monkeypatch):
    alone = tmp_path / "alone.cu"
    alone.write_text(LONE)
    run = single(alone, SourceFile.read(alone))
    analysed = []
    real = warpflow.analyze
    monkeypatch.setattr(warpflow, "analyze", lambda m: analysed.append(m.visible is None) or real(m))
    make(run, ["hip"], None, True)
    # the project's analysis was made by its plan (single); here only the port's: the original's
    # include-free analysis for the self-check's lint is the project's
    assert analysed == [True]
