#!/usr/bin/env python3
"""How the twenty-third held-out set (bench/heldout23.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout23_select.py      # -> bench/heldout23.toml

RULE, written and committed (h/heldout23, 23:21 UTC) before any candidate was fetched or measured
(only the stored index's repository names were looked up, to name candidates that exist), for
physics and engineering simulation (molecular dynamics, particle methods, Monte Carlo / deterministic
transport, n-body, finite elements / volumes / differences, wave propagation, shallow water):

  Candidates, in this order, named by domain only (none in /work/notes/t40/used.md, none an ML
  project, none chosen by how kernelport does on them):
    1. brucefan1983/GPUMD             molecular dynamics (many-body potentials, NEP)
    2. TinkerTools/tinker9            molecular mechanics / MD (AMOEBA)
    3. msu-sparta/PuReMD              reactive molecular dynamics (ReaxFF)
    4. akaaka928/gothic               gravitational n-body tree code
    5. TUM-I5/SWE                     shallow-water equations (finite volumes)
    6. zer011b/fdtd3d                 FDTD electromagnetics
    7. ANL-CESAR/SimpleMOC-kernel     neutron transport (method of characteristics)
    8. SPECFEM/specfem3d              seismic wave propagation (spectral elements)
    9. halmd-org/halmd                molecular dynamics (Lennard-Jones, hard spheres)
   10. openmm/openmm                  molecular dynamics (its platforms/cuda)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING (stop 39's heldout21 rule and reading, bench/heldout21_select.taken): a candidate
  qualifies if at least half of its first 10 `.cu` files by path under the folder its build compiles
  (all of them if fewer than 10) have every `#include` they reach resolve in the repository, the CUDA
  toolkit or the host compiler's search path, read textually with the include dirs of its build and
  without the lines of branches taken only on Windows (heldout21_select.linux_text).
  Files of a qualifying candidate: its `.cu` files only under that folder (local headers are copied
  with them by realcorpus_build.py; no header is a source of its own), within the size cap, less
  those whose includes do not resolve and byte-for-byte copies (heldout2_select.pick); a project
  with more than CAP = 12 such files gives 12 evenly spaced in path order (files[i*n//12], as
  heldout22), so that no one project dominates. Include dirs, defines and nvcc flags are those of
  the project's own build files (read before any measure; `-std=c++17` where its build asks for
  an older standard). A candidate that cannot be fetched, does not qualify or gives 0 files drops
  out (said below). Candidates are taken in order until the set holds at least 50 files.
EXTENSION, written and committed (23:24 UTC; commit 5cb37a7, whose message says 23:41 by a misread clock) after applying the rule above and before any measure
  or any nvcc check: the ten candidates give 17 files from 2 projects (fdtd3d 8, openmm 9). GPUMD
  does not qualify because the text reading counts `#include <hipfft/hipfft.h>` inside its
  `#ifdef USE_HIP` branches (11 of its first 10 files' reach), which no nvcc compile reads; tinker9
  reaches cublas_v2.h (no cuBLAS headers here) and accelmath.h; PuReMD its configure-generated
  config.h and mpi.h; gothic macro.h from $(MYDIR)/inc outside the repository and helper_cuda.h;
  SWE's newest snapshot holds no `.cu`; SimpleMOC-kernel curand_kernel.h (not installed here);
  specfem3d its configure-generated setup/config.h and mpi.h; halmd its CMake-generated
  halmd/config.hpp and the cuda-wrapper submodule. So (a) the rule is applied again to the same
  ten candidates, in the same order, with one change to the reading: as heldout21's THIRD EXTENSION
  does for Windows-only branches, an `#include` inside a branch taken only when compiling for HIP
  (an #if/#ifdef/#elif whose condition names USE_HIP, __HIP_PLATFORM_AMD__, __HIP_PLATFORM_HCC__,
  __HIP_PLATFORM_NVIDIA__ (never set by nvcc), __HIPCC__ or __HIP__ without negation, or the #else of
  an #ifndef/#if ! of one) is not read, besides the Windows-only ones (nvcc_text below); and (b)
  eight more candidates, named by domain only, are taken by the same rule and reading in this
  order until the set holds at least 50 files:
   11. NVIDIA/ising-gpu                  Monte Carlo Ising model (checkerboard Metropolis)
   12. ominux/gpumcml                    photon transport Monte Carlo in tissue (MCML)
   13. UoB-HPC/neutral                   Monte Carlo neutral particle transport
   14. UoB-HPC/minifmm                   fast multipole method (n-body)
   15. Mrwatermolen/XFDTD_CUDA           FDTD electromagnetics
   16. tp24002/ElasticWaveFDTD-cuda      elastic (seismic) wave propagation, finite differences
   17. UoB-HPC/pbf-sph                   position-based fluids / SPH
   18. IMSY-DKFZ/mcmlgpu                 photon transport Monte Carlo (MCML)
Outcome of the rule and EXTENSION (before any measure of kernelport): 50 files in six projects, the stop
  reached with the last: GPUMD 12 (qualifying 8 of 10 once HIP-only branches are not read), fdtd3d 8 (7 of
  10), openmm 9 (9 of 9), gpumcml 9 (7 of 10), ElasticWaveFDTD-cuda 8 (8 of 8), mcmlgpu 4 (4 of 4). Of the
  extension: ising-gpu's three mains reach curand_kernel.h, neutral reaches its arch framework's ../../
  headers outside the repository, XFDTD_CUDA its xfdtd_core package, and minifmm's and pbf-sph's newest
  snapshots hold no `.cu`. 30 of the 50 originals compile with `nvcc -c` (bench/scoreboard_heldout23_baseline.txt).
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout23_baseline.txt).
"""
from __future__ import annotations

import sys
from pathlib import Path

import re

import heldout21_select
from heldout21_select import on_linux, qualifies
from heldout2_select import pick, set_header
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent
CAP = 12  # a project with more files than this gives CAP of them evenly spaced in path order
STOP = 50

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build (read before any measure).
FDTD_DIRS = ["Source/" + d for d in ("Coordinate", "File-Management", "Grid", "Helpers", "Kernels",
                                     "Layout", "Physics", "Scheme", "Settings", "Tools")]
CANDIDATES = [
    # src/makefile: INC = -I./ (src/), -std=c++14 -O3
    ("gpumd", "brucefan1983/GPUMD", "GPL-3.0", ["LICENCE"], ["src"], [], ["-std=c++17", "-O3"], "src/"),
    # CMakeLists.txt / src/cu/CMakeLists.txt: include, include/syntax/cu, ext/interface/cpp; PREC=mixed,
    # TINKER_CUDART, TINKER_GPULANG_CUDA; separable compilation, --use_fast_math (Release)
    ("tinker9", "TinkerTools/tinker9", "Tinker license (LICENSE.md)", ["LICENSE.md"],
     ["include", "include/syntax/cu", "ext/interface/cpp"],
     ["TINKER_MIXED_PRECISION", "TINKER_CUDART", "TINKER_GPULANG_CUDA"],
     ["-std=c++17", "-rdc=true", "--use_fast_math"], "src/cu/"),
    # Makefile.am / cuda.am: -I src/dist_mem, HAVE_CUDA (configure.ac), -std=c++14
    ("puremd", "msu-sparta/PuReMD", "GPL-3.0", ["COPYING"], ["src/dist_mem"], ["HAVE_CUDA"],
     ["-std=c++17", "-O2"], "src/dist_mem/cuda/"),
    # Makefile: src/* folders, -DNDEBUG; MYINC ($(MYDIR)/inc) lies outside the repository
    ("gothic", "akaaka928/gothic", "MIT", ["LICENSE.txt"],
     ["src/misc", "src/util", "src/file", "src/time", "src/sort", "src/tree", "src/init", "src/para"],
     ["NDEBUG"], ["-std=c++17"], "src/"),
    ("swe", "TUM-I5/SWE", "BSD-3-Clause", ["LICENSE"], ["src"], [], ["-std=c++17"], "src/"),
    # CMakeLists.txt: SOLVER_VERSION, MODE_DIM1-3 (SOLVER_DIM_MODES=ALL), VALUE_TYPE=d, PRINT_MESSAGE off,
    # CUDA_ENABLED, CXX11_ENABLED, _FORCE_INLINES; Source/* and EasyBMP include dirs
    ("fdtd3d", "zer011b/fdtd3d", "GPL-2.0", ["LICENSE"], FDTD_DIRS + ["Third-party/EasyBMP/source"],
     ["SOLVER_VERSION=1.2", "MODE_DIM1", "MODE_DIM2", "MODE_DIM3", "DOUBLE_VALUES", "PRINT_MESSAGE=0",
      "CUDA_ENABLED", "CXX11_ENABLED", "_FORCE_INLINES"], ["-std=c++17"], "Source/"),
    # src/cuda/Makefile: -O3 --use_fast_math
    ("simplemoc-kernel", "ANL-CESAR/SimpleMOC-kernel", "(none in the repository)", [], [], [],
     ["-O3", "--use_fast_math"], "src/cuda/"),
    # src/gpu/rules.mk: -I setup -I src/gpu/kernels, USE_CUDA, -x cu
    ("specfem3d", "SPECFEM/specfem3d", "GPL-3.0", ["LICENSE"], ["setup", "src/gpu/kernels", "src/gpu"],
     ["USE_CUDA"], ["-std=c++17", "-O3"], "src/gpu/"),
    # CMakeLists.txt: the source tree root; boost, lua, HDF5 from the system
    ("halmd", "halmd-org/halmd", "LGPL-3.0", ["LICENSE"], ["."], [], ["-std=c++17"], "halmd/"),
    # platforms/cuda/src/kernels: compiled at run time by the CUDA platform; the include dirs its build passes
    ("openmm", "openmm/openmm", "MIT / LGPL (docs/licenses)", ["docs-source/licenses/Licenses.txt"],
     ["platforms/cuda/src/kernels", "platforms/cuda/include", "openmmapi/include", "olla/include"], [],
     ["-std=c++17"], "platforms/cuda/"),
]
CANDIDATES += [  # EXTENSION
    # basic_cuda/Makefile etc.: -std=c++11 -O3 -lineinfo -I../external/cub
    ("ising-gpu", "NVIDIA/ising-gpu", "MIT", ["LICENSE"], ["external/cub"], [],
     ["-std=c++17", "-O3", "-lineinfo"], ""),
    # gpumcml/*/makefile, CUDAMCML2.1/makefile: -O3 -DUNIX -use_fast_math (cutil from the old SDK)
    ("gpumcml", "ominux/gpumcml", "(README.txt: free for academic use)", ["README.txt"], [], ["UNIX"],
     ["-O3", "-use_fast_math"], ""),
    # Makefile: the arch framework's ../../ headers; -DTILES
    ("neutral", "UoB-HPC/neutral", "(License.txt)", ["License.txt"], ["."], ["TILES"], ["-O3"], "cuda/"),
    ("minifmm", "UoB-HPC/minifmm", "(LICENSE)", ["LICENSE"], ["."], [], ["-O3"], ""),
    # CMakeLists.txt: CUDA_STANDARD 20, --expt-relaxed-constexpr, include/ (public), src/ (private)
    ("xfdtd-cuda", "Mrwatermolen/XFDTD_CUDA", "(LICENSE)", ["LICENSE"], ["include", "src"], [],
     ["-std=c++20", "--expt-relaxed-constexpr"], "src/"),
    # Makefile: nvcc -rdc=true -Xcompiler -fopenmp -O3
    ("elasticwave-fdtd", "tp24002/ElasticWaveFDTD-cuda", "(none in the repository)", [], [], [],
     ["-rdc=true", "-Xcompiler", "-fopenmp", "-O3"], ""),
    ("pbf-sph", "UoB-HPC/pbf-sph", "(none)", [], ["."], [], ["-O3"], ""),
    # CMakeLists.txt: include_directories(PROJECT_SOURCE_DIR)
    ("mcmlgpu", "IMSY-DKFZ/mcmlgpu", "(LICENSE)", ["LICENSE"], ["."], [], ["-O3"], ""),
]
# EXTENSION (a): the Windows-only branches of heldout21's reading and the HIP-only ones are not read.
NOT_NVCC = re.compile(rb"\b(_WIN32|_WIN64|WIN32|_MSC_VER|__MINGW32__|USE_HIP|__HIP_PLATFORM_AMD__"
                      rb"|__HIP_PLATFORM_HCC__|__HIP_PLATFORM_NVIDIA__|__HIPCC__|__HIP__)\b")


def on_nvcc(fn, *args):
    """fn(*args) read as heldout21's on_linux, with HIP-only branches also blanked."""
    saved = heldout21_select.WINDOWS
    heldout21_select.WINDOWS = NOT_NVCC
    try:
        return on_linux(fn, *args)
    finally:
        heldout21_select.WINDOWS = saved


def spaced(files: list[str]) -> list[str]:
    n = len(files)
    return files if n <= CAP else [files[i * n // CAP] for i in range(CAP)]


def heldout23() -> str:
    out, total = [set_header("twenty-third", "heldout23")], 0
    for name, repo, lic, lic_files, incs, defines, flags, prefix in CANDIDATES:
        if total >= STOP:
            break
        commit = head(repo)
        ok, looked = on_nvcc(qualifies, repo, commit, incs, prefix)
        files = spaced(on_nvcc(pick, repo, commit, incs, prefix)) if looked and 2 * ok >= looked else []
        print(f"{repo}: qualifying {ok} of {looked}, {len(files)} files", file=sys.stderr)
        if files:
            out.append(project(name, repo, commit, lic, lic_files, incs, defines, flags, files))
            total += len(files)
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout23.toml").write_text(heldout23())
