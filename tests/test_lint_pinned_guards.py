"""Code under `#if CUDA_VERSION >= 9000` is NVIDIA's alone only when the AMD build leaves CUDA_VERSION
undefined.  A project that `#error`s without it (faiss's DeviceDefs.cuh: `#if CUDA_VERSION < 8000` /
`#error "CUDA >= 8.0 is required"`) tells us its AMD build defines it too (hipify spells it HIP_VERSION),
so the `_sync` branch is code the AMD build may compile and its hazards are reported
(kernelport.guards.pinned_on_amd; tests/labelled's faiss Select.cuh:211 and :488)."""
from __future__ import annotations

from pathlib import Path

from kernelport import guards
from kernelport.lint.engine import lint_paths, lint_text
from kernelport.source import SourceFile

REQUIRE = """\
#if CUDA_VERSION < 8000
#error "CUDA >= 8.0 is required"
#endif
"""
VOTE = """\
__device__ bool any_lane(bool need) {
#if CUDA_VERSION >= 9000
    need = __any_sync(0xffffffff, need);
#else
    need = __any(need);
#endif
    return need;
}
"""


def _ws007(findings) -> list[int]:
    return [f.line for f in findings if f.code == "WS007"]


def test_a_version_branch_is_reported_when_the_project_requires_the_version():
    assert _ws007(lint_text(REQUIRE + VOTE, "t.cu")) == [6]


def test_a_version_branch_with_a_portable_else_is_quiet_without_the_requirement():
    assert _ws007(lint_text(VOTE, "t.cu")) == []


def test_a_requirement_the_amd_build_skips_pins_nothing():
    rocm = "#ifndef USE_ROCM\n" + REQUIRE + "#endif\n"  # faiss after its fix: the #error is NVIDIA's alone
    assert _ws007(lint_text(rocm + VOTE, "t.cu")) == []
    assert guards.pinned_on_amd(SourceFile.from_text(rocm, "t.cu")) == frozenset()
    other = "#if CUDA_VERSION < 8000\n#warning \"old CUDA\"\n#endif\n"  # not an #error: the build goes on
    assert guards.pinned_on_amd(SourceFile.from_text(other, "t.cu")) == frozenset()
    platform = "#if !defined(__CUDACC__)\n#error \"nvcc only\"\n#endif\n"
    assert guards.pinned_on_amd(SourceFile.from_text(platform, "t.cu")) == frozenset({"__CUDACC__"})


def test_the_requirement_in_an_included_header_counts(tmp_path: Path):
    (tmp_path / "defs.cuh").write_text(REQUIRE)
    (tmp_path / "vote.cu").write_text('#include "defs.cuh"\n' + VOTE)
    found = [(Path(r.path).name, f.line) for r in lint_paths([tmp_path / "vote.cu"], jobs=1)
             for f in r.findings if f.code == "WS007"]
    assert found == [("vote.cu", 4)]
