#!/usr/bin/env python3
"""How the thirty-fifth held-out set (bench/heldout35.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout35_select.py      # -> bench/heldout35.toml

RULE, written and committed (h/heldout35, 18:44 UTC) before any candidate was fetched or measured
(only the stored index's repository names and code search were looked up, to name candidates that
exist and hold CUDA sources), for GPU data structures and systems software: GPU B-trees / LSM trees,
dynamic memory allocators, hash tables and filters, concurrent queues, string matching
(Aho-Corasick, regex) for packet inspection. Hash tables and joins were touched by heldout6/8/22/28:
their repositories (warpcore, SlabHash and its SlabAlloc, BGHT, cuCollections, stdgpu,
SimpleGPUHashTable, the GPU-join studies, ...) are in bench/used_repos.txt or named by those rules
and are not candidates; forks of a candidate are not candidates.

  Candidates, in this order, named by domain only (none in bench/used_repos.txt nor named by an
  earlier heldout*_select.py, none chosen by how kernelport does on them):
    1. owensgroup/GpuBTree                 GPU B-tree (warp-cooperative insert / search)
    2. owensgroup/MVGpuBTree               multiversion GPU B-tree (snapshots, range queries)
    3. GPUPeople/Ouroboros                 dynamic GPU memory manager (chunk / page queues)
    4. canonizer/halloc                    GPU dynamic memory allocator (Halloc)
    5. prg-titech/dynasoar                 GPU object allocator with SOA layout (DynaSOAr)
    6. saltsystemslab/gallatin             GPU general-purpose memory allocator (Gallatin)
    7. saltsystemslab/warpSpeed            GPU concurrent hash tables (warp-cooperative probing)
    8. zhuqiweigit/DyCuckoo                dynamic GPU cuckoo hash table
    9. sujanamaithili/gpuLSM               GPU log-structured merge tree
   10. iassael/cuda-aho-corasick-wu-manber multi-pattern string matching (Aho-Corasick, Wu-Manber)
   11. kaushiksk/boyer-moore-aho-corasick-in-cuda  string matching (Boyer-Moore, Aho-Corasick)
   12. Krishna-10-7/aho-corasick-cuda-gpu  Aho-Corasick string matching on GPU
   13. GPUPeople/GPUMemManSurvey           survey of GPU memory managers (its own CUDA units)
   14. saltsystemslab/gpu-filters          GPU approximate-membership filters (quotient / Bloom)
   15. GPUPeople/faimGraph                 dynamic GPU graph data structure with its own memory manager
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout33's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuBLAS, cuRAND, cuFFT, cuSPARSE, cuDNN headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers, generated headers and absent submodules do not resolve, and no stand-in
  headers are taken. Files: `.cu` only under the source folder read from the build files after the
  fetch and before any measure (the whole repository when the build names no single folder), less
  vendored folders (third_party, 3rdparty, external, extern), over the size cap, not resolving, or
  byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order. Include dirs,
  defines and flags from the project's own build (`-std=c++17` where it asks for older; an -arch
  below CUDA 13's minimum left out). Self-contained check: the first three files taken (all if
  fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two
  (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out
  (DROPPED), as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are
  taken in order until the set holds at least STOP_FILES = 45 files or STOP_PROJECTS = 10 projects.
Outcome of the rule (18:48 UTC, before any measure of kernelport): GpuBTree 5 files, MVGpuBTree 12 (of 14),
  Ouroboros 1, halloc 2 (src/), dynasoar 0 (3 of its first 10 resolve: the rest reach SDL2 or the absent halloc /
  mallocMC submodules), gallatin 12 (of 36), warpSpeed 0 (0 of 10: gallatin by CPM and the warpcore / BGHT /
  SlabHash submodules are absent), DyCuckoo 0 (0 of 4: the CUDA samples' helper_cuda.h), gpuLSM 2, cuda-aho-corasick-
  wu-manber 5, boyer-moore-aho-corasick-in-cuda 11. Self-contained check (`nvcc -c`, the build's flags, 18:47 UTC):
  GpuBTree 0 of 3 (src/map/*.cu are pieces GpuBTree.h includes inside its class and namespace: not units; dropped,
  DROPPED); MVGpuBTree 3/3, gpuLSM 2/2, gallatin 2/3 (chaining_test.cu calls typed_atomic_* helpers its headers do
  not declare); Ouroboros 0/1 (cudaDeviceProp::clockRate, removed in CUDA 13), halloc 1/2 (utils.h's __shfl, removed
  in CUDA 9), cuda-aho-corasick-wu-manber 0/3 and boyer-moore-aho-corasick-in-cuda 1/3 (texture references, removed
  in CUDA 12): removals only, so they stay and count toward the done-when only where the original compiles. With
  GpuBTree dropped the 45-file stop is met at boyer-moore-aho-corasick-in-cuda: the set is 45 files in seven projects
  (MVGpuBTree 12, Ouroboros 1, halloc 2, gallatin 12, gpuLSM 2, cuda-aho-corasick-wu-manber 5,
  boyer-moore-aho-corasick-in-cuda 11); GPUMemManSurvey, gpu-filters and faimGraph are not reached.
  Krishna-10-7/aho-corasick-cuda-gpu cannot be fetched (no stored snapshot). Caveat, said and not acted on: most
  files that compile are tests and benchmarks of the data structures (the libraries are header-only).
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout35_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 45, 10

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    # CMakeLists.txt: gpu_btree's include dir src/, C++/CUDA 17, -lineinfo --expt-extended-lambda -O3 (CUDA_ARCHS
    # auto-detected: left out); test/ and unittests/ (gtest via FindGoogleTest) build: the whole repository
    ("gpubtree", "owensgroup/GpuBTree", "BSD-2-Clause", ["LICENSE"], ["src"], [],
     ["-std=c++17", "-lineinfo", "--expt-extended-lambda", "-O3"], ""),
    # CMakeLists.txt: include dirs include/ and external/ (rapidjson, fetched by CPM: absent), -Xcompiler=-std=c++17
    # -lineinfo -maxrregcount=70 --expt-extended-lambda --expt-relaxed-constexpr; test/ and benchmarks/ build
    ("mvgpubtree", "owensgroup/MVGpuBTree", "Apache-2.0", ["LICENSE"], ["include", "external"], [],
     ["-std=c++17", "-lineinfo", "-maxrregcount=70", "--expt-extended-lambda", "--expt-relaxed-constexpr"], ""),
    # CMakeLists.txt + BaseCMake.cmake: src/main.cu with include/, main_p's TEST_PAGES (the first target), -D_FORCE_INLINES
    # -DVERBOSE --expt-extended-lambda -use_fast_math --expt-relaxed-constexpr (sm_50..75 left out)
    ("ouroboros", "GPUPeople/Ouroboros", "MIT", ["LICENSE"], ["include"], ["TEST_PAGES", "_FORCE_INLINES", "VERBOSE"],
     ["-std=c++17", "--expt-extended-lambda", "-use_fast_math", "--expt-relaxed-constexpr"], "src/"),
    # makefile (default target: libhalloc.a from src/*.cu): -lineinfo -O3 -lib -rdc=true (sm_20..35 left out)
    ("halloc", "canonizer/halloc", "MIT (LICENSE.txt)", ["LICENSE.txt"], ["src"], [],
     ["-std=c++17", "-lineinfo", "-O3", "-rdc=true"], "src/"),
    # CMakeLists.txt with -DALLOCATOR=dynasoar: include dirs the root, lib/cub (submodule: absent; CUDA 13's cub) and
    # example/configuration/dynasoar; -std=c++11 (-> 17) -lineinfo --expt-extended-lambda -maxrregcount=64; example/
    ("dynasoar", "prg-titech/dynasoar", "MIT (LICENSE)", ["LICENSE"], [".", "lib/cub", "example/configuration/dynasoar"], [],
     ["-std=c++17", "-lineinfo", "--expt-extended-lambda", "-maxrregcount=64"], "example/"),
    # CMakeLists.txt + tests/CMakeLists.txt (GAL_TESTS): include/ and tests/, C++17 (GAL_DYNAMIC off)
    ("gallatin", "saltsystemslab/gallatin", "BSD-3-Clause", ["LICENSE"], ["include", "tests"], [], ["-std=c++17"],
     "tests/src/"),
    # CMakeLists.txt: include/ (gallatin by CPM, warpcore/BGHT/SlabHash submodules: absent), -rdc=true, C++17
    ("warpspeed", "saltsystemslab/warpSpeed", "(none in the repository)", [], ["include", "tests"], [],
     ["-std=c++17", "-rdc=true"], "tests/src/"),
    # dynamicHash{,_lock}/CMakeLists.txt: /usr/local/cuda/samples/common/inc (the CUDA samples' helpers: absent),
    # C++11 (-> 17), -O3 (compute_70 left out: nvcc's default)
    ("dycuckoo", "zhuqiweigit/DyCuckoo", "(none in the repository)", [], [], [], ["-std=c++17", "-O3"], ""),
    # Makefile: -w -Ikernels -Isrc --expt-relaxed-constexpr; src/main.cu and src/example.cu
    ("gpulsm", "sujanamaithili/gpuLSM", "MIT", ["LICENSE"], ["kernels", "src", "."], [],
     ["-std=c++17", "-w", "--expt-relaxed-constexpr"], "src/"),
    # Makefile: nvcc -O2 with the old NVIDIA GPU Computing SDK's include dirs (absent; sm_12 left out); cuda/*.cu
    ("cuda-ac-wm", "iassael/cuda-aho-corasick-wu-manber", "GPL-3.0", ["LICENSE.txt"], [], [], ["-std=c++17", "-O2"],
     "cuda/"),
    # no build file: src/*.cu compiled alone
    ("bm-ac-cuda", "kaushiksk/boyer-moore-aho-corasick-in-cuda", "(none in the repository)", [], [], [],
     ["-std=c++17"], "src/"),
    # not in the stored snapshots: cannot be fetched
    ("ac-cuda-gpu", "Krishna-10-7/aho-corasick-cuda-gpu", "", [], [], [], ["-std=c++17"], ""),
    # CMakeLists.txt: include dirs include/, frameworks/, externals/cub (submodule: absent; CUDA 13's cub); the tests and
    # src/ with the CUDA allocator (TEST_CUDA, its first configuration); --expt-extended-lambda --expt-relaxed-constexpr
    ("gpumemmansurvey", "GPUPeople/GPUMemManSurvey", "MIT", ["LICENSE"], ["include", "frameworks", "externals/cub"],
     ["TEST_CUDA"], ["-std=c++17", "--expt-extended-lambda", "--expt-relaxed-constexpr"], ""),
    # gqf/Makefile: nvcc -dc -x cu -rdc=true -I. -Iinclude (sm_70 left out); gqf/src (moderngpu/ is a vendored copy)
    ("gpu-filters", "saltsystemslab/gpu-filters", "GPL-3.0", ["LICENSE"], ["gqf", "gqf/include"], [],
     ["-std=c++17", "-rdc=true"], "gqf/src/"),
    # CMakeLists.txt: include/, include/algorithms, -D_FORCE_INLINES -DVERBOSE --expt-extended-lambda -use_fast_math
    # --expt-relaxed-constexpr (sm_50..75 left out)
    ("faimgraph", "GPUPeople/faimGraph", "(see its README)", [], ["include", "include/algorithms"],
     ["_FORCE_INLINES", "VERBOSE"], ["-std=c++17", "--expt-extended-lambda", "-use_fast_math", "--expt-relaxed-constexpr"],
     "src/"),
]
DROPPED = frozenset({"owensgroup/GpuBTree"})  # 0 of its first 3 in the self-contained check (Outcome says why)


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("thirty-fifth", "heldout35", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
