#!/usr/bin/env python3
"""How the forty-fifth held-out set (bench/heldout45.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout45_select.py      # -> bench/heldout45.toml

RULE, written and committed (h/heldout45, 07:23 UTC, commit d1a6f992) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for computational number theory: prime sieves
(segmented sieve of Eratosthenes, prime counting), trial factoring of Mersenne numbers and trial
division of big integers, Collatz-conjecture verification, multi-limb big-integer arithmetic
outside cryptography. Not cryptography or its number theory (heldout30: FHE, lattice NTT,
post-quantum, zero-knowledge MSM / NTT, gmp-ecm, Pollard rho; NVlabs/CGBN is in
bench/used_repos.txt), not cryptocurrency mining or key search, not heldout33's discrete solvers
(SAT, TSP, sudoku, MCTS, cellular automata), nothing of heldout43's (materials, reacting flow,
solid mechanics) or heldout44's (networking, storage, video encoding, recommender kernels) domains,
none of their repositories. None below is in bench/used_repos.txt or named by an earlier
heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. primesearch/mfaktc                  trial factoring of Mersenne numbers (GPU sieve, 72/96-bit, Barrett)
    2. curtisseizert/CUDASieve             segmented sieve of Eratosthenes: prime counting and generation
    3. rogerdahl/cuda-collatz              Collatz conjecture: delay-record search (sieve, 64-bit cores)
    4. andreamatt/CUDA-collatz             Collatz conjecture: stopping-time verification
    5. kryc/cuda-primefac                  trial-division factorisation of integers up to 2^128 (wheel)
    6. JoshuaHKU/BigInteger-for-CUDA-GPU   multi-limb big-integer arithmetic: mul, div, modular exponentiation
    7. kryc/cuda-collatz                   Collatz conjecture: 128-bit path verification
    8. eccyy/CursedCUDA                    prime sieve on the GPU (bucketed, segmented)
    9. Gold18K/CUDA-Collatz-verifier       Collatz conjecture verification
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout42's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (GMP's gmp.h, MPI, primesieve), generated headers and absent submodules do not
  resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read from the
  build files after the fetch and before any measure (the whole repository when the build names no
  single folder), less vendored folders (third_party, 3rdparty, external, extern), over the size cap,
  not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order.
  Include dirs, defines and flags from the project's own build (`-std=c++17` where it asks for older;
  an -arch below CUDA 13's minimum left out). Self-contained check: the first three files taken (all
  if fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two
  (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED),
  as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are taken in
  order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects (the brief:
  at least 4 projects and 30 files). If fewer than 4 projects qualify, an EXTENSION (computational
  geometry: convex hulls, Delaunay / Voronoi outside gDel3D, polygon clipping, spatial joins; named by
  domain only, none in bench/used_repos.txt) is written and committed before its candidates are fetched.
Outcome of the rule (before any measure of kernelport, 07:26 UTC): candidates 1-9 all fetched. mfaktc 11
  (gpusieve.cu over the size cap), CUDASieve 7, cuda-collatz (Dahl) 1 (src/util absent; collatz_kernel.cu
  resolves), CUDA-collatz (andreamatt) 0 (2 of its first 10 resolve: its tests include ../utils sources by
  relative paths that resolve, the rest reach absent headers), cuda-primefac 1, BigInteger-for-CUDA-GPU 0 (its
  one unit reaches GPU/ headers absent from the repository), cuda-collatz (kryc) 2, CursedCUDA 3,
  CUDA-Collatz-verifier 2. Check (`nvcc -c`, first three files): mfaktc 2/3 (gpusieve_helper.cu is a fragment
  #included by gpusieve.cu: int96 undefined alone), CUDASieve 3/3, cuda-collatz (Dahl) 0/1 (texture<> references
  and cudaBindTexture, removed in CUDA 12: a removed API, so it stays and counts only if its original compiles),
  cuda-primefac 1/1, cuda-collatz (kryc) 1/2 and CursedCUDA 0/3 (code errors: DROPPED), CUDA-Collatz-verifier 2/2.
  The set: 22 files in five projects; five qualify, so no EXTENSION (the rule asks one under four). Caveat, said
  and not acted on: short of the brief's 30 files, and half of it is one project (mfaktc).
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout45_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    # src/Makefile: its .cu under src/ (tf_*.cu #include one another); NVCCFLAGS -I$(CUDA_DIR)/include
    # --ptxas-options=-v -Wno-deprecated-gpu-targets (the -gencode list left out), no -std: 17
    ("mfaktc", "primesearch/mfaktc", "GPL-3.0 (see COPYING)", ["COPYING"], [], [],
     ["-std=c++17", "-Wno-deprecated-gpu-targets"], "src/"),
    # makefile: INCLUDES -I ./include/ -I ./src/; -std=c++14 (-> 17); src/CUDASieve and samples/ (the whole repository)
    ("cudasieve", "curtisseizert/CUDASieve", "GPL-3.0 (see License)", ["License"], ["include", "src"], [],
     ["-std=c++17"], ""),
    # CMakeLists.txt: SOURCE_DIR src/gpu_ptx_full, include dirs it and src/util (absent); -std=c++11 (-> 17), -O3
    # (the sm_35/50/61 -gencode list left out: below CUDA 13's minimum)
    ("collatz-dahl", "rogerdahl/cuda-collatz", "MIT (see LICENSE)", ["LICENSE"], ["src/gpu_ptx_full", "src/util"], [],
     ["-std=c++17", "-O3"], "src/gpu_ptx_full/"),
    # no build file (run.bat): the whole repository
    ("collatz-matt", "andreamatt/CUDA-collatz", "GPL-3.0 (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    # README: nvcc -std=c++20 -O2 primefactors.cu
    ("primefac", "kryc/cuda-primefac", "(none in the repository)", [], [], [], ["-std=c++20", "-O2"], ""),
    # Makefile: nvcc -m64 -O2 -I. (the .cu rule); -std=c++17 (its CXXFLAGS)
    ("biginteger", "JoshuaHKU/BigInteger-for-CUDA-GPU", "MIT (see LICENSE)", ["LICENSE"], ["."], [],
     ["-std=c++17", "-O2"], ""),
    # CMakeLists.txt: include dir include/; CUDA_STANDARD 20; --expt-relaxed-constexpr; src/ and tests/ (gtest)
    ("collatz-kryc", "kryc/cuda-collatz", "(none in the repository)", [], ["include"], [],
     ["-std=c++20", "--expt-relaxed-constexpr"], ""),
    # no build file: the whole repository
    ("cursedcuda", "eccyy/CursedCUDA", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # no build file: main/
    ("collatz-gold", "Gold18K/CUDA-Collatz-verifier", "MIT (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"],
     "main/"),
]
# the self-contained check (`nvcc -c`, the build's flags, first three files): cuda-collatz (kryc) 1 of 2 (its
# collatz_kernel.cu instantiates LaunchCollatzKernel<2> twice), CursedCUDA 0 of 3 (new char[double], std::memset
# without <cstring>): code errors, not removed APIs
DROPPED = frozenset({"kryc/cuda-collatz", "eccyy/CursedCUDA"})


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("forty-fifth", "heldout45", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
