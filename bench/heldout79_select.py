#!/usr/bin/env python3
"""How the seventy-ninth held-out set (bench/heldout79.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout79_select.py      # -> bench/heldout79.toml

RULE, written and committed (h/heldout79, 08:36 UTC, commit 24ab635e) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for HPC proxy applications and mini-apps: DOE / ECP /
university proxy apps and mini-apps (shock hydrodynamics, molecular docking, discrete-ordinates
transport sweeps), the research kernels and memory-bandwidth proxies HPC centres use to stand for
their applications, and the small frameworks such mini-apps share. NARROWED where it overlaps:
heldout6 took ANL-CESAR/XSBench and heldout13 took UK-MAC/CloverLeaf_CUDA, UK-MAC/TeaLeaf_CUDA and
ANL-CESAR/RSBench and looked at Mantevo/miniFE and ANL-CESAR/SimpleMOC-kernel: none of those
applications is taken here in any repository (UoB-HPC/CloverLeaf*, UoB-HPC/TeaLeaf, XSBench / RSBench
forks are not candidates); heldout23 named UoB-HPC/neutral, UoB-HPC/minifmm and UoB-HPC/pbf-sph and
heldout27 named hpgmg/hpgmg (miniGMG): not candidates; HeCBench and Rodinia (tests/realcorpus) and
olcf/cuda-training-series, harrism/mini-nbody, sandialabs/miniisosurface (bench/used_repos.txt) are
not candidates; cerati/p2r-tests / p2z-tests (heldout52's HEP mini-apps) are not; forks and variants
of a candidate are not (e-ago/lulesh2-cuda-async is LULESH's). Nothing of this stop's heldout74
(optics / holography), heldout75 (agent-based / swarm), heldout76 (atmosphere / ocean / climate /
hydrology: no miniWeather), heldout77 (game physics) or heldout78 (optimisation solvers). None below is
in bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. LLNL/LULESH                       Lagrangian shock hydrodynamics proxy app (its cuda/ version)
    2. UoB-HPC/miniBUDE                  molecular-docking energy-evaluation mini-app (BUDE's kernel)
    3. UoB-HPC/SNAP_MPI_CUDA             SNAP, the discrete-ordinates neutral-particle transport proxy
                                         (wavefront sweeps), its CUDA port
    4. ParRes/Kernels                    the Parallel Research Kernels (nstream, stencil, transpose,
                                         p2p synchronisation, dgemm) in CUDA
    5. UoB-HPC/BabelStream               the memory-bandwidth proxy (copy/mul/add/triad/dot) in CUDA
    6. UoB-HPC/arch                      the shared mesh / reduction / halo framework of UoB's mini-apps
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout67's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER, NCCL,
  NVSHMEM headers here) or the host compiler's search path, with the include dirs of the project's
  build; absent third-party headers (MPI, Kokkos, RAJA), generated headers and absent submodules do
  not resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read from
  the build files after the fetch and before any measure (the whole repository when the build names
  no single folder), less vendored folders, over the size cap, not resolving, or byte-for-byte copies;
  more than CAP = 12 gives 12 evenly spaced in path order. Include dirs, defines and flags from the
  project's own build (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left
  out). Self-contained check: the first three files taken (all if fewer) are compiled with `nvcc -c`
  and the project's flags; a project of which fewer than two (one if it gives one) compile, for a
  reason other than CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched,
  does not qualify or gives 0 files. Candidates are taken in order until the set holds at least
  STOP_FILES = 40 files or STOP_PROJECTS = 8 projects. If fewer than 4 projects qualify, the
  EXTENSION domain applies: CUDA hands-on exercise collections published by HPC centres and vendors
  as training material (outside every earlier set's course repositories: olcf/cuda-training-series
  and the university course repositories in bench/used_repos.txt are not candidates), its
  candidates named by domain only, none in bench/used_repos.txt, written and committed before they
  are fetched.
Outcome of the main domain (08:37 UTC, before any measure of kernelport): all six fetched. LULESH 0 (its newest
  snapshot holds lulesh.cc only: the cuda/ folder is gone), miniBUDE 0 (its CUDA model compiles src/main.cpp; no .cu),
  SNAP_MPI_CUDA 12 (10 of its first 10 resolve), ParRes/Kernels 0 (prk_cuda.h, which every Cxx11/*-cuda*.cu reaches,
  includes cublas_v2.h), BabelStream 0 (CUDAStream.cu includes nvml.h; ThrustStream.cu's chain does not resolve
  either), arch 0 (0 of 5 resolve: its .cu include the host app's headers). One project qualifies (< 4), so the
  EXTENSION applies; its candidates, named by domain only and committed before any of them is fetched (08:38 UTC):
    7. openhackathons-org/gpubootcamp    the OpenHackathons GPU bootcamp labs (its hpc/ CUDA C labs: Jacobi
                                         CFD multi-GPU, molecular-dynamics RDF)
    8. csc-training/CUDA                 CSC (Finland) CUDA course exercises and solutions
    9. FZJ-JSC/tutorial-multi-gpu        JSC / NVIDIA multi-GPU tutorial (Jacobi tasks and solutions)
   10. PawseySC/gpu-programming-essentials  Pawsey GPU programming course material
  NARROWED: NVIDIA/multi-gpu-programming-models is in bench/used_repos.txt (not a candidate); olcf/cuda-training-series
  likewise; a lab's archived/ copies are byte-for-byte or near copies and the rule's copy filter applies only to
  byte-for-byte ones (a caveat, said now).
Outcome of the EXTENSION (08:38 UTC, before any measure of kernelport): gpubootcamp 0 (its newest snapshot's hpc/ holds
  no .cu: the CUDA labs moved under archived/, outside the source folder named before the fetch), csc-training/CUDA 12
  (10 of its first 10 resolve; 33 .cu, 12 evenly spaced), tutorial-multi-gpu 3 (5 of its first 10 resolve: the
  NVSHMEM labs reach nvshmem.h; of the resolving files the tasks/ and solutions/ copies of a .master file are
  byte-for-byte copies), Pawsey 0 (HIP / C++ only). The set: 27 files in three projects (SNAP 12, CSC 12, JSC 3);
  the stops (40 files, 8 projects) are not reached and the candidates ran out. Check (`nvcc -c`, first three, 08:39
  UTC): SNAP 3/3, CSC 1/3 (stencil.cu and mandelbrot.cu call cudaThreadSynchronize, removed in CUDA 13: a removed
  API, so they stay and count only where the original compiles), JSC 3/3. No project DROPPED. Caveats, said and not
  acted on: 27 files (the brief asks 40); two of the three projects are training material (the EXTENSION), and the
  CSC files are small exercises with their solutions beside them (different files, not byte copies).
The set is measured on this branch's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout79_before.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    # newest snapshot: CMakeLists.txt / Makefile build lulesh.cc (OpenMP / MPI); its cuda/ folder is gone (no .cu)
    ("lulesh", "LLNL/LULESH", "BSD-style (see LICENSE.md)", [], [], [], ["-std=c++17"], "cuda/src/"),
    # newest snapshot: src/cuda/model.cmake compiles src/main.cpp as CUDA (no .cu in the repository)
    ("minibude", "UoB-HPC/miniBUDE", "Apache-2.0 (see LICENSE.txt)", ["LICENSE.txt"], [], [], ["-std=c++17"], "src/"),
    # src/Makefile: `nvcc $(CFLAGS_) -c` with CFLAGS_ = -O3 for every .cu (events, problem, source, sweep,
    # scalar_flux and kernels/*.cu); no license file in the repository
    ("snap", "UoB-HPC/SNAP_MPI_CUDA", "(none in the repository)", [], [], [], ["-std=c++17", "-O3"], "src/"),
    # Cxx11/Makefile: %-cuda / %-thrust: $(NVCC) $(CUDAFLAGS) $(CPPFLAGS); common/make.defs.cuda: CUDAFLAGS -g -O3
    # -std=c++20 --extended-lambda (sm_89 left out: the set's arch); prk_util.h / prk_cuda.h beside them
    ("prk", "ParRes/Kernels", "BSD-3-Clause-style (see COPYING)", ["COPYING"], ["Cxx11"], [],
     ["-std=c++20", "-O3", "--extended-lambda"], "Cxx11/"),
    # CMakeLists.txt + src/cuda/model.cmake / src/thrust/model.cmake: include dirs src and the model's folder,
    # definitions MEM=DEFAULT and STRIDE=GRID_STRIDE (register_definitions), -DUNROLL_FACTOR=4, --extended-lambda;
    # CUDA_ARCH left out (the set's arch); CMAKE_CXX_STANDARD 17
    ("babelstream", "UoB-HPC/BabelStream", "custom permissive (see LICENSE)", ["LICENSE"],
     ["src", "src/cuda", "src/thrust"], ["DEFAULT", "GRID_STRIDE", "UNROLL_FACTOR=4"],
     ["-std=c++17", "--extended-lambda"], "src/"),
    # no build file of its own: the mini-apps that use it (UoB-HPC/neutral's Makefile) compile arch/cuda/*.cu with
    # nvcc -O3 and -I. of the app's root; its .cu include their headers by relative path
    ("arch", "UoB-HPC/arch", "(see License.txt)", ["License.txt"], [], [], ["-std=c++17", "-O3"], "cuda/"),
    # EXTENSION (committed before these were fetched; include dirs / flags filled in after the fetch).
    # hpc/ labs: no build file (the notebooks run `nvcc` on each lab's .cu with an -arch only)
    ("gpubootcamp", "openhackathons-org/gpubootcamp", "Apache-2.0 (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"],
     "hpc/"),
    # exercises' Makefiles (mpi-ping-add-pong, dynamic-mandelbrot): NVCFLAGS -c -O2 (-arch=sm_35 left out), -I.
    ("csc-cuda", "csc-training/CUDA", "MIT (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17", "-O2"], ""),
    # each lab's Makefile: NVCC_FLAGS -DHAVE_CUB -dc -Xcompiler -fopenmp -lineinfo -DUSE_NVTX -std=c++14 (-> 17)
    ("jsc-multigpu", "FZJ-JSC/tutorial-multi-gpu", "MIT (see LICENSE)", ["LICENSE"], [], ["HAVE_CUB", "USE_NVTX"],
     ["-std=c++17", "-rdc=true", "-Xcompiler", "-fopenmp", "-lineinfo"], ""),
    # HIP / C++ course material only (no .cu)
    ("pawsey-gpu", "PawseySC/gpu-programming-essentials", "Apache-2.0 (see LICENSE)", ["LICENSE"], [], [],
     ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("seventy-ninth", "heldout79", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
