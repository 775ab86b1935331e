#!/usr/bin/env python3
"""How the sixty-second held-out set (bench/heldout62.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout62_select.py      # -> bench/heldout62.toml

RULE, written and committed (h/heldout62, 23:29 UTC, commit 6e7e482b) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for random number generation and sampling: pseudo-random
generator libraries and implementations (Mersenne twister for GPUs, counter-based Philox, xorshift, PCG,
LCG, skip-ahead / jump-ahead), quasi-random sequences, GPU statistical tests of generators, and sampling
primitives built on them (Gaussian / Poisson / half-precision samplers, random points in shapes, random
permutations and shuffles). Monte Carlo APPLICATIONS (finance, physics, transport, MCMC) are not this
domain: earlier sets took them. NARROWED where it overlaps: heldout53 took Monte Carlo / quasi-Monte Carlo
multi-dimensional integration (VEGAS), so integrators are left out here (a pi-by-Monte-Carlo EXAMPLE inside a
generator library stays, as part of that library); heldout24 took LLM sampling / top-k, heldout46 and
heldout39 random agents / RL environments, none taken here; fangq/mcx and the other photon-transport codes
(their RNG headers) are applications and are left out; nothing of this stop's heldout61 (neural-network
training) or heldout63 (OR metaheuristics and scheduling). None below is in bench/used_repos.txt or named by
an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. MersenneTwister-Lab/MTGP             Mersenne twister for graphic processors (MTGP32/64, jump-ahead)
    2. djns99/CUDA-Shuffle                  random permutations: bijective-function shuffles, randomness tests
    3. kshitijl/curand-done-right           counter-based (Philox) generation without state, with examples
    4. enp1s0/curand_fp16                   half-precision uniform / normal generators on top of cuRAND
    5. rcarrascoc/GPU-random-generator      random points: uniform / normal / on-sphere samplers (2-D, 3-D)
    6. Yannnnnnnnnnnn/cuda_random           device and host cuRAND generation examples
    7. ptheywood/curand-benchmarking        cuRAND generator (XORWOW, Philox, MRG32k3a, ...) benchmark
    8. tdd11235813/test_curandpoisson       Poisson sampler test (cuRAND's Poisson draws)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  cuRAND: this domain draws with cuRAND's device and host APIs, which this machine's CUDA 13 lacks
  (curand_kernel.h absent). As heldout39's EXTENSION did, CUDA 13's cuRAND headers count as part of the CUDA
  toolkit: NVIDIA's own package from PyPI, nvidia-curand 10.4.5.25 (`pip download --no-deps nvidia-curand`),
  its nvidia/cu13/include/ unpacked as it ships to /work/heldout62_env/curand-include (its licenses/ beside
  it), no stand-in and no edit. The qualifying check reads it as a system include dir, and every project's nvcc
  flags get `-isystem /work/heldout62_env/curand-include` (the HIP ports reach hipRAND / rocRAND, which this
  machine's ROCm holds: /usr/include/hiprand, /usr/include/rocrand).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub, and the cuRAND headers above; no cuFFT, cuBLAS, cuSPARSE, cuSOLVER
  headers here) or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (torch, Eigen, MPI, gtest, google benchmark), generated headers and absent submodules do
  not resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read from the
  build files after the fetch and before any measure (the whole repository when the build names no
  single folder), less vendored folders (third_party, 3rdparty, external, extern), over the size cap,
  not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order.
  Include dirs, defines and flags from the project's own build (`-std=c++17` where it asks for older;
  an -arch below CUDA 13's minimum left out). Self-contained check: the first three files taken (all
  if fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two
  (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED),
  as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are taken in
  order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects. If fewer than 4
  projects qualify, an EXTENSION (bootstrap / permutation tests and resampling statistics; named by domain
  only, none in bench/used_repos.txt) is written and committed before its candidates are fetched.
Outcome of the rule (before any measure of kernelport, 23:33 UTC): candidates 1-8 all fetched. MTGP 9 (7 of its
  first 10 resolve; mtgp32-jump-host.cu and the two sample-jump*-host.cu reach absent headers), CUDA-Shuffle 0 (0 of 3:
  gtest, google benchmark and moderngpu are absent vendor/ submodules), curand-done-right 0 (2 of 5: the moderngpu
  submodule is absent), curand_fp16 2, GPU-random-generator 6, cuda_random (Yannnnnnnnnnnn) 3, curand-benchmarking 0
  (its NVTXUtil.cuh reaches nvToolsExt.h, NVTX 2, which CUDA 13 no longer ships, read textually beside nvtx3's),
  test_curandpoisson 1: 21 files in five projects; five qualify, so no EXTENSION (the rule asks one under four).
  Check (`nvcc -c`, first three files): MTGP 0/3 (every unit includes mtgp-util.cuh, which calls
  cudaThreadSynchronize and declares texture references, both removed from CUDA 13: a removed API, so it stays and
  its files count only where the original compiles), curand_fp16 2/2, GPU-random-generator 3/3, cuda_random 3/3,
  test_curandpoisson 0/1 (cudaDeviceProp::memoryClockRate / clockRate, removed in CUDA 13: it stays). No project
  DROPPED. The stops (40 files, 8 projects) are not reached and only 11 of the 21 files compile with nvcc.
SECOND EXTENSION, written and committed (h/heldout62, 23:38 UTC) after the rule was applied and the check run, before
  any measure of kernelport (only repository names and file lists looked up): the same domain, three more candidates
  named by domain only, taken by the same rule, cuRAND reading and check, in this order, until the stops:
    9. jundaf2/GPU-Philox                   a Philox-4x32-10 counter-based generator (CUDA kernel, Python binding)
   10. nicolag97/cudarand                   a device random number generator and its output test
   11. nemoNoboru/CUDARandomStream          a GPU random stream behind a Ruby extension
Outcome of the SECOND EXTENSION (before any measure of kernelport, 23:34 UTC): candidates 9-11 fetched. GPU-Philox 0
  (philox.cu includes pybind11, absent), cudarand (nicolag97) 2, CUDARandomStream 1. Check: cudarand 1/2 (OutputTest.cu
  line 163, `RNG_CombinedGenerator generator_();` declares a function (the most vexing parse), whose address line 164 takes as an RNG *: an
  error in the code, not a CUDA 13 removal) -> DROPPED; CUDARandomStream 1/1. The candidates run out: 22 files in six
  projects, 12 of which compile with `nvcc -c` (curand_fp16 2, GPU-random-generator 6, cuda_random 3,
  CUDARandomStream 1; MTGP's 9 and test_curandpoisson's 1 use APIs CUDA 13 removed). Caveats, said and not acted on:
  a thin set (12 files count; the brief asks 30), four of the six projects are small cuRAND users, and MTGP is 9
  of the 22.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout62_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

import heldout2_select
from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# CUDA 13's cuRAND headers (PyPI nvidia-curand 10.4.5.25, nvidia/cu13/include as it ships) count as the toolkit's
CURAND = Path("/work/heldout62_env/curand-include")
CURAND_FLAGS = ["-isystem", str(CURAND)]

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    # cuda-sample/Makefile: nvcc -m64 -D__STDC_FORMAT_MACROS -D__STDC_CONSTANT_MACROS -I../ (the repository root);
    # the root's .c/.cpp are host code (no .cu outside cuda-sample/)
    ("mtgp", "MersenneTwister-Lab/MTGP", "BSD-3-Clause (see LICENSE.txt)", ["LICENSE.txt"], ["."],
     ["__STDC_FORMAT_MACROS", "__STDC_CONSTANT_MACROS"], ["-std=c++17", "-m64"], "cuda-sample/"),
    # CMakeLists.txt: --std=c++17, include dirs include/, vendor/moderngpu/src (an absent submodule) and the root;
    # test/: --expt-extended-lambda, test/include; gtest and google benchmark (vendor/ submodules, absent);
    # the -gencode list left out
    ("cuda-shuffle", "djns99/CUDA-Shuffle", "MIT (see LICENSE)", ["LICENSE"], ["include", "vendor/moderngpu/src", "."],
     [], ["-std=c++17", "--expt-extended-lambda"], ""),
    # Makefile: nvcc --expt-extended-lambda -std=c++11 (-> 17) -Isrc [-Iexamples/moderngpu/src, an absent submodule]
    ("curand-done-right", "kshitijl/curand-done-right", "(none in the repository)", [], ["src", "examples/moderngpu/src"],
     [], ["-std=c++17", "--expt-extended-lambda"], ""),
    # CMakeLists.txt: CUDA 17, include/, CUDA_SEPARABLE_COMPILATION (-rdc=true); src/ and tests/; the arch list left out
    ("curand-fp16", "enp1s0/curand_fp16", "MIT (see LICENSE)", ["LICENSE"], ["include"], [], ["-std=c++17", "-rdc=true"],
     ""),
    # Makefiles (root, 2D/, 3D/): nvcc -Xcompiler -fopenmp -DUSE_GPU -O3 -lcurand
    ("gpu-random-points", "rcarrascoc/GPU-random-generator", "(none in the repository)", [], [], ["USE_GPU"],
     ["-std=c++17", "-O3", "-Xcompiler", "-fopenmp"], ""),
    # CMakeLists.txt: CUDA_ADD_EXECUTABLE, no flags
    ("cuda-random-yann", "Yannnnnnnnnnnn/cuda_random", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # CMakeLists.txt: CUDA 11 (-> 17), -Xcompiler -Wall, -lineinfo, CUDA_SEPARABLE_COMPILATION (-rdc=true), include/
    ("curand-bench", "ptheywood/curand-benchmarking", "(none in the repository)", [], ["include"], [],
     ["-std=c++17", "-Xcompiler", "-Wall", "-lineinfo", "-rdc=true"], "src/"),
    # src/CMakeLists.txt: -std=c++11 (-> 17); compute_30 left out
    ("curand-poisson", "tdd11235813/test_curandpoisson", "Apache-2.0 (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"],
     "src/"),
    # SECOND EXTENSION (flags read after the fetch)
    # CMakeLists.txt: CUDA 14 (-> 17), a pybind11 module (philox.cu includes pybind11, absent here)
    ("gpu-philox", "jundaf2/GPU-Philox", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # makefile: nvcc -std=c++11 (-> 17) -Wno-deprecated-gpu-targets -dc (-rdc=true: RNG.cu's device functions)
    ("cudarand-nicolag", "nicolag97/cudarand", "(none in the repository)", [], [], [], ["-std=c++17", "-rdc=true"], ""),
    # ext/randomStream/extconf.rb: a Ruby mkmf extension linking lib/'s librandomstream; no nvcc flags in the repository
    ("cuda-random-stream", "nemoNoboru/CUDARandomStream", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
]
# fewer than 2 of its 2 files in the self-contained check, for a reason other than CUDA 13's removed APIs (Outcome says why)
DROPPED = frozenset({"nicolag97/cudarand"})


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    if CURAND not in heldout2_select.SYSTEM:  # cuRAND resolves as a toolkit header does
        heldout2_select.SYSTEM.append(CURAND)
    with_curand = [c[:6] + (c[6] + CURAND_FLAGS,) + c[7:] for c in CANDIDATES]
    write_set("sixty-second", "heldout62", with_curand, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
