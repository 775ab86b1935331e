"""hipbuild reads a branch test's names by a walk of its node (commit 6871419): the project's scan
can hold the nodes of a header's plain parse after that header was parsed again through its
includes' macros, and the new parse's node index does not know them (a KeyError, an internal error
on learn-cuda files that include a header ported with them)."""
from __future__ import annotations

from pathlib import Path

from kernelport.project import Options, Project

COMMON = """\
#pragma once
#define DEVICE_INLINE __device__ __forceinline__
"""
# Needs the macro-aware parse (DEVICE_INLINE is attribute-like); a define under a test of the
# project's own HIP configuration name (hip-defines), whose names hipbuild reads.
HEADER = """\
#pragma once
#include "common.cuh"
#if defined(MYPROJ_AMD)
#define GROUP 64
#else
#define GROUP 32
#endif
DEVICE_INLINE int lane() { return threadIdx.x % GROUP; }
"""
KERNEL = """\
#include "h.cuh"
__global__ void NAME(float* y) { y[threadIdx.x] = lane(); }
"""


def test_a_header_parsed_again_after_a_scan_that_holds_its_nodes(tmp_path: Path):
    (tmp_path / "common.cuh").write_text(COMMON)
    (tmp_path / "h.cuh").write_text(HEADER)
    for name in ("a", "b"):
        (tmp_path / f"{name}.cu").write_text(KERNEL.replace("NAME", name))
    p = Project(lambda path: Options(hip_defines=("MYPROJ_AMD",)))
    before = p.file(tmp_path / "h.cuh").src
    assert p.hip_macros(tmp_path / "a.cu")["GROUP"].body == "64"  # the scans of a.cu hold h.cuh's plain parse
    p.source(tmp_path / "h.cuh")  # the header as a file of its own: parsed again through common.cuh's macros
    assert p.file(tmp_path / "h.cuh").src is not before
    for name in ("a", "b"):  # a.cu's cached scans and b.cu's fresh ones alike
        assert p.hip_macros(tmp_path / f"{name}.cu")["GROUP"].body == "64"


def test_the_cuda_walk_takes_ifdef_cudacc_and_the_projects_hip_build_keeps_its_amd_branch(tmp_path: Path):
    """Every CUDA compile defines __CUDACC__ (includewalk.CUDA_COMPILE): a header's `#ifdef __CUDACC__`
    definitions are what the CUDA unit sees (CudaTracerLib's `#define CUDA_HOST __host__`, not the
    `#else`'s empty one). hipcc does not define it, so the walk of the project's own HIP build
    (hip_macros, Options.cuda_compile False) keeps its `#elif defined(__HIP_PLATFORM_AMD__)` branch."""
    (tmp_path / "h.cuh").write_text(
        "#pragma once\n#if defined(__CUDACC__)\n#define GROUP 32\n#define HOSTSIDE __host__\n"
        "#elif defined(__HIP_PLATFORM_AMD__)\n#define GROUP 64\n#define HOSTSIDE __host__\n"
        "#else\n#define HOSTSIDE\n#endif\n")
    (tmp_path / "a.cu").write_text('#include "h.cuh"\n__global__ void a(float* y) { y[threadIdx.x] = GROUP; }\n')
    p = Project(lambda path: Options())
    seen = p.visible(tmp_path / "a.cu").macros
    assert seen["GROUP"].value == "32" and seen["HOSTSIDE"].value == "__host__"
    assert p.hip_macros(tmp_path / "a.cu")["GROUP"].body == "64"
