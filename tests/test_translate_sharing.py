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


def test_a_header_linted_after_a_file_that_includes_it_is_not_parsed_again(tmp_path, monkeypatch):
    """lint reads every file of a tree: a header the run already parsed as an include is shown
    under its own path (its tree, index and model shared), not parsed a second time; its findings
    are those of a run that lints it first."""
    from kernelport.lint.engine import lint_paths
    (tmp_path / "red.cuh").write_text("#pragma once\n__device__ int lane() { return threadIdx.x % 32; }\n"
                                      "__device__ float red(float v) { for (int o = 16; o > 0; o /= 2)\n"
                                      "  v += __shfl_down_sync(0xffffffff, v, o); return v; }\n")
    (tmp_path / "a.cu").write_text('#include "red.cuh"\n__global__ void k(float *x) { x[lane()] = red(x[0]); }\n')
    parsed: list[str] = []
    real = SourceFile.from_text.__func__

    def counting(cls, text, path="<string>", macros=None):
        parsed.append(Path(path).name)
        return real(cls, text, path, macros)
    monkeypatch.setattr(SourceFile, "from_text", classmethod(counting))
    both = lint_paths([tmp_path / "a.cu", tmp_path / "red.cuh"], jobs=1)
    assert sorted(parsed) == ["a.cu", "red.cuh"]
    alone = lint_paths([tmp_path / "red.cuh"], jobs=1)
    assert [f.to_dict() if hasattr(f, "to_dict") else f for f in both[1].findings] == \
        [f.to_dict() if hasattr(f, "to_dict") else f for f in alone[0].findings]
    assert {f.code for f in alone[0].findings} >= {"WS004"} and both[1].path.endswith("red.cuh")


def test_a_projects_parse_of_other_text_is_not_reused(tmp_path):
    h = tmp_path / "h.cuh"
    h.write_text("#pragma once\n#define W 32\n")
    p = Project()
    first = p.file(h)
    same = p.add_text(h, h.read_text())
    assert same.src.tree is first.src.tree and same.src.path == str(h)
    other = p.add_text(h, "#pragma once\n#define W 64\n")
    assert other.src.tree is not first.src.tree and other.src.text.endswith("64\n")


def test_a_headers_hip_configuration_names_are_read_once_per_parse(tmp_path, monkeypatch):
    """Every unit that includes a header asks which HIP configuration names it tests: once per run."""
    from kernelport import hipbuild
    from kernelport.lint.engine import lint_paths
    (tmp_path / "common.h").write_text("#pragma once\n#ifdef USE_HIP\n#include <hip/hip_runtime.h>\n#endif\n")
    for n in ("a", "b", "c"):
        (tmp_path / f"{n}.cu").write_text('#include "common.h"\n__global__ void k(int *o) { o[0] = 1; }\n')
    asked: list[str] = []
    real = hipbuild._configuration_names  # the work; configuration_names answers from the parse's cache

    def counting(src):
        asked.append(Path(src.path).name)
        return real(src)
    monkeypatch.setattr(hipbuild, "_configuration_names", counting)
    lint_paths([tmp_path / f"{n}.cu" for n in ("a", "b", "c")], jobs=1)
    assert sorted(asked) == ["a.cu", "b.cu", "c.cu", "common.h"]
