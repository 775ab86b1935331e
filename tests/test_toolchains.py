"""Toolchain discovery and real compiles: nvcc for CUDA, hipcc for gfx90a (wave64) and gfx1030
(wave32), and the never-raise contract when a tool is missing."""
from __future__ import annotations

import textwrap

import pytest

from kernelport import toolchains

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

HIP_KERNEL = textwrap.dedent(
    """\
    #include <hip/hip_runtime.h>

    __global__ void warp_reduce(const float* x, float* out, unsigned long long* votes, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float v = i < n ? x[i] : 0.0f;
        for (int offset = warpSize / 2; offset > 0; offset >>= 1)
            v += __shfl_down(v, offset, warpSize);
        v += __shfl_xor(v, 1) + __shfl_up(v, 1) + __shfl(v, 0);
        unsigned long long ballot = __ballot(v > 0.0f);   // 64-bit on AMD
        int lane = threadIdx.x % warpSize;
        if (lane == 0) {
            atomicAdd(out, v);
            votes[i / warpSize] = ballot + __popcll(ballot) + __any(v > 1.0f) + __all(v > 2.0f);
        }
    }
    """
)

CUDA_KERNEL = textwrap.dedent(
    """\
    __global__ void warp_sum(const float* x, float* out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float v = i < n ? x[i] : 0.0f;
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        unsigned mask = __ballot_sync(0xffffffffu, v > 0.0f);
        if ((threadIdx.x & 31) == 0) atomicAdd(out, v + __popc(mask));
    }
    """
)


@pytest.fixture
def hip_file(tmp_path):
    p = tmp_path / "warp_reduce.hip"
    p.write_text(HIP_KERNEL)
    return p


@pytest.fixture
def cuda_file(tmp_path):
    p = tmp_path / "warp_sum.cu"
    p.write_text(CUDA_KERNEL)
    return p


# --- discovery -------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["nvcc", "hipcc", "clang"])
def test_tools_are_found_with_a_version(name):
    tool = require_tool(name)
    assert tool.name == name
    assert tool.path and tool.version and tool.version != "unknown"


def test_clang_is_preferably_clang_15():
    tool = require_tool("clang")
    assert toolchains._clang_supports_clcpp(tool.path)
    assert tool.version.split(".")[0].isdigit()


def test_xcrun_metal_is_macos_only():
    import sys

    if sys.platform != "darwin":
        assert toolchains.find_xcrun_metal() is None


def test_unknown_tool_name_is_a_usage_error():
    with pytest.raises(ValueError):
        toolchains.find_tool("fortran")


# --- CUDA ------------------------------------------------------------------------------------------
def test_nvcc_compiles_cuda(cuda_file):
    require_tool("nvcc")
    r = toolchains.compile_cuda(cuda_file)
    assert r.ok and not r.skipped and r.status == "pass", r.output
    assert r.tool == "nvcc" and r.target == "sm_80"
    assert "-arch=sm_80" in r.command and "-c" in r.command


def test_nvcc_reports_a_compile_error(tmp_path):
    require_tool("nvcc")
    bad = tmp_path / "bad.cu"
    bad.write_text("__global__ void k(float* p) { p[0] = undeclared; }\n")
    r = toolchains.compile_cuda(bad)
    assert not r.ok and not r.skipped and r.status == "fail"
    assert "undeclared" in r.output
    assert "exit" in r.reason


def test_nvcc_many_files_in_one_run_and_a_failure_per_file(cuda_file):
    """compile_cuda_many: one nvcc run for all the files; when it fails, each is compiled alone so
    the failure belongs to the file that has it and the good files beside it pass."""
    require_tool("nvcc")
    other = cuda_file.with_name("other.cu")
    other.write_text(CUDA_KERNEL.replace("warp_sum", "other_sum"))
    good = toolchains.compile_cuda_many([cuda_file, other])
    assert [r.ok for r in good] == [True, True] and all(str(other) in r.command for r in good)
    bad = cuda_file.with_name("bad.cu")
    bad.write_text("__global__ void k(float* p) { p[0] = undeclared; }\n")
    mixed = toolchains.compile_cuda_many([cuda_file, bad, other])
    assert [r.ok for r in mixed] == [True, False, True]
    assert "undeclared" in mixed[1].output and str(bad) in mixed[1].command and str(bad) not in mixed[0].command
    same_stem = cuda_file.parent / "sub" / cuda_file.name  # the objects would collide: compiled one by one
    same_stem.parent.mkdir()
    same_stem.write_text(CUDA_KERNEL)
    alone = toolchains.compile_cuda_many([cuda_file, same_stem])
    assert [r.ok for r in alone] == [True, True] and str(same_stem) not in alone[0].command


# --- HIP ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("arch", ["gfx90a", "gfx1030"])
def test_hipcc_compiles_shuffles_and_ballot(hip_file, arch):
    require_tool("hipcc")
    r = toolchains.compile_hip(hip_file, arch)
    assert r.ok, r.output
    assert r.target == arch and f"--offload-arch={arch}" in r.command


def test_hipcc_builds_both_archs_in_one_object(hip_file):
    require_tool("hipcc")
    r = toolchains.compile_hip(hip_file, toolchains.HIP_ARCHS)
    assert r.ok, r.output
    assert r.target == "gfx90a,gfx1030"


def test_hipcc_each_arch_from_one_run_and_a_failure_per_arch(hip_file, monkeypatch):
    """compile_hip_each: one hipcc run for every architecture; when it fails, each is built
    alone so the failure belongs to the architecture that has it.  (The plain way: with
    precompiled headers, tests/test_hip_pch.py.)"""
    require_tool("hipcc")
    monkeypatch.setenv("KERNELPORT_PCH_DIR", "off")
    runs = []
    real = toolchains._run_compile
    monkeypatch.setattr(toolchains, "_run_compile", lambda *a, **k: runs.append(a[1]) or real(*a, **k))
    ok = toolchains.compile_hip_each(hip_file, toolchains.HIP_ARCHS)
    assert [(r.target, r.ok) for r in ok] == [("gfx90a", True), ("gfx1030", True)] and runs == ["gfx90a,gfx1030"]
    rdna_only = hip_file.with_name("rdna_only.hip")
    rdna_only.write_text(HIP_KERNEL + "#if defined(__gfx1030__)\n#error no RDNA build\n#endif\n")
    runs.clear()
    bad = toolchains.compile_hip_each(rdna_only, toolchains.HIP_ARCHS)
    assert runs == ["gfx90a,gfx1030", "gfx90a", "gfx1030"]
    assert [(r.target, r.ok) for r in bad] == [("gfx90a", True), ("gfx1030", False)]
    assert "no RDNA build" in bad[1].output


def test_hipcc_many_files_in_one_run(hip_file):
    require_tool("hipcc")
    other = hip_file.with_name("other.hip")
    other.write_text(HIP_KERNEL.replace("warp_reduce", "other_reduce"))
    rs = toolchains.compile_hip_many([hip_file, other], toolchains.HIP_ARCHS)
    assert [(r.ok, r.target) for r in rs] == [(True, "gfx90a,gfx1030")] * 2, rs[0].output
    assert all(str(hip_file) in r.command and str(other) in r.command for r in rs)


@pytest.mark.parametrize("arch, wave", [("gfx90a", 64), ("gfx1030", 32)])
def test_hip_wavefront_size_matches_the_arch(hip_file, arch, wave):
    require_tool("hipcc")
    assert toolchains.hip_wavefront_size(hip_file, arch) == wave


def test_hipcc_reports_a_compile_error(tmp_path):
    require_tool("hipcc")
    bad = tmp_path / "bad.hip"
    bad.write_text("#include <hip/hip_runtime.h>\n__global__ void k(float* p) { p[0] = undeclared; }\n")
    r = toolchains.compile_hip(bad, "gfx90a")
    assert not r.ok and not r.skipped
    assert "undeclared" in r.output
    assert toolchains.hip_wavefront_size(bad, "gfx90a") is None


def test_hipcc_compiles_with_the_standard_nvcc_defaults_to(tmp_path):
    """nvcc compiles C++17 by default, ROCm 5.2's hipcc C++11: a port of code nvcc accepts as written
    (a deduced return type, `if constexpr`) compiles; a -std the caller names wins."""
    require_tool("hipcc")
    src = tmp_path / "cxx17.hip"
    src.write_text("#include <hip/hip_runtime.h>\n"
                   "template <int N> __device__ auto twice(float v) { if constexpr (N > 1) return 2 * v; else return v; }\n"
                   "__global__ void k(float* p) { p[threadIdx.x] = twice<2>(p[threadIdx.x]); }\n")
    r = toolchains.compile_hip(src, "gfx90a")
    assert r.ok, r.output[-2000:]
    assert toolchains.HIP_DEFAULT_STD in r.command
    r = toolchains.compile_hip(src, "gfx90a", extra_args=["-std=c++11"])
    assert not r.ok and toolchains.HIP_DEFAULT_STD not in r.command


# --- Metal -------------------------------------------------------------------------------------------
def _compile_metal(path):
    """The Metal backend's compile (xcrun metal on macOS, else the clang type check)."""
    from kernelport import backends
    metal = backends.get("metal")
    return metal.compile(path, metal.runs[0])


def test_check_metal_type_checks_a_port(tmp_path):
    require_tool("clang")
    good = tmp_path / "vadd.metal"
    good.write_text(
        "#include <metal_stdlib>\nusing namespace metal;\n"
        "kernel void vadd(device const float* a [[buffer(0)]], device float* c [[buffer(1)]],\n"
        "                 uint i [[thread_position_in_grid]]) { c[i] = a[i]; }\n"
    )
    r = _compile_metal(good)
    assert r.ok and r.status == "pass", r.output
    bad = tmp_path / "bad.metal"
    bad.write_text(good.read_text().replace("c[i] = a[i];", "double d = a[i]; c[i] = d;"))
    r = _compile_metal(bad)
    assert not r.ok and r.status == "fail"
    assert "bad.metal:4:" in r.output and "double" in r.output


# --- a missing tool never raises ----------------------------------------------------------------------
def test_missing_tools_are_skipped_with_an_install_hint(monkeypatch, tmp_path, cuda_file, hip_file):
    for finder in ("find_nvcc", "find_hipcc", "find_clang", "find_xcrun_metal"):
        monkeypatch.setattr(toolchains, finder, lambda: None)
    r = toolchains.compile_cuda(cuda_file)
    assert r.skipped and not r.ok and r.status == "skip" and "nvcc not found" in r.reason
    r = toolchains.compile_hip(hip_file, "gfx1030")
    assert r.skipped and r.reason == "hipcc not found (install: apt-get install hipcc, or ROCm)"
    assert toolchains.hip_wavefront_size(hip_file, "gfx90a") is None
    metal = tmp_path / "k.metal"
    metal.write_text("kernel void k() {}\n")
    r = _compile_metal(metal)
    assert r.skipped and "apt-get install clang-15" in r.reason


def test_empty_path_finds_nothing_and_does_not_raise(monkeypatch):
    monkeypatch.setenv("PATH", "")
    for var in ("CUDA_HOME", "CUDA_PATH", "ROCM_PATH", "HIP_PATH"):
        monkeypatch.setenv(var, "/nonexistent")
    assert toolchains.find_clang() is None
    assert toolchains.find_hipcc() is None or toolchains.find_hipcc().path.startswith("/opt/rocm")
