"""What translate computes once per run and shares: the project's model and analysis of a file,
a scope's declarations for member uses.  Shared only where reading it again would give the same."""
from __future__ import annotations

import textwrap
from pathlib import Path

from kernelport.member_uses import member_calls
from kernelport.project import Project
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
