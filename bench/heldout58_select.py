#!/usr/bin/env python3
"""How the fifty-eighth held-out set (bench/heldout58.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout58_select.py      # -> bench/heldout58.toml

RULE, written and committed (h/heldout58, 20:45 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for GPU microbenchmarks and architecture
characterisation: memory-hierarchy probes (pointer-chasing latency, cache / TLB / shared-memory
bank-conflict probes, bandwidth kernels), instruction latency and throughput microbenchmarks
(clock64-timed loops, FMA / SFU / integer throughput, tensor-core and shuffle timing), atomics and
synchronisation cost probes (barriers, grid sync, warp vote, atomic contention), occupancy and
scheduling probes, research repositories that "dissect" a GPU generation. NARROWED where it
overlaps: heldout8 took RRZE-HPC/gpu-benches (stream, caches, latency, roofline) and ekondis/mixbench
(mixed compute/memory), heldout14 took Yinghan-Li/YHs_Sample (SGEMM with the memory microbenchmarks
it was tuned with), heldout22 took burtscher/Indigo3Suite (a graph-analytics "microbenchmark"
suite, not this domain): none of them is a candidate; benchmark SUITES of applications (Rodinia-like,
zjin-lcf/HeCBench, sgrauerg/polybenchgpu in bench/used_repos.txt) are not this domain; nothing of
this stop's heldout59 (data mining / clustering) or heldout60 (parallel primitives: sort / scan /
histogram). Forks and copies of a candidate are not candidates (LuoYZ1028/dissectingtensorcores and
edisonchan/DissectingTensorCores beside sunlex0717/DissectingTensorCores). None below is in
bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. sjfeng1999/gpu-arch-microbenchmark   memory latency / bandwidth, cache line size, shared and register
                                            bank conflicts, warp and block scheduling probes
    2. YKTian-x2b/AmpereArchViaMicroBenchMark  dissecting Ampere: TLB, L1/L2 latency and bandwidth, shared memory,
                                            instruction cache, register banks, warp scheduling
    3. ekondis/gpumembench                  cache, constant-memory and shared-memory bandwidth benchmarks
    4. neozhang307/SyncMicrobenchmark       synchronisation cost: explicit barriers (block, grid, multi-grid),
                                            implicit barriers (kernel launch, CUDA graphs)
    5. tony1223yu/GPGPU_MicroBenchmark_Suite  arithmetic latency / dependency, cache hierarchy, in-flight accesses
    6. sunlex0717/DissectingTensorCores     tensor-core (mma) latency and throughput
    7. yushinliu/cuda-ptx-microbenchmark    instruction latency / throughput, caches, shared-memory banks,
                                            tensor cores (PTX)
    8. woodun/9_Microbenchmarks             cache size / line / prefetch and unified-memory page-fault probes
    9. passlab/CUDAMicroBench               memory-access and divergence microbenchmarks (misalignment, bank
                                            conflicts, texture, shuffle, unified memory)
   10. DrXuQian/cuda-blackwell-microbenchmarks  Blackwell instruction and memory microbenchmarks
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (torch, Eigen, MPI, CUPTI, NVML), generated headers and absent submodules do not
  resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read from the
  build files after the fetch and before any measure (the whole repository when the build names no
  single folder), less vendored folders (third_party, 3rdparty, external, extern), over the size cap,
  not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order.
  Include dirs, defines and flags from the project's own build (`-std=c++17` where it asks for older;
  an -arch below CUDA 13's minimum left out; an -arch the code needs, sm_80+ for mma / cp.async,
  kept). Self-contained check: the first three files taken (all if fewer) are compiled with `nvcc -c`
  and the project's flags; a project of which fewer than two (one if it gives one) compile, for a
  reason other than CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched,
  does not qualify or gives 0 files. Candidates are taken in order until the set holds at least
  STOP_FILES = 40 files or STOP_PROJECTS = 8 projects (the brief: at least 4 projects and 30 files).
  If fewer than 4 projects qualify, an EXTENSION (GPU performance-model and profiling research code:
  roofline kernels, occupancy calculators' probe kernels, instrumentation examples; named by domain
  only, none in bench/used_repos.txt) is written and committed before its candidates are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout58_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("gpu-arch-ubench", "sjfeng1999/gpu-arch-microbenchmark", "", [], [], [], ["-std=c++17"], ""),
    ("ampere-ubench", "YKTian-x2b/AmpereArchViaMicroBenchMark", "", [], [], [], ["-std=c++17"], ""),
    ("gpumembench", "ekondis/gpumembench", "", [], [], [], ["-std=c++17"], ""),
    ("sync-ubench", "neozhang307/SyncMicrobenchmark", "", [], [], [], ["-std=c++17"], ""),
    ("gpgpu-ubench-suite", "tony1223yu/GPGPU_MicroBenchmark_Suite", "", [], [], [], ["-std=c++17"], ""),
    ("dissecting-tc", "sunlex0717/DissectingTensorCores", "", [], [], [], ["-std=c++17"], ""),
    ("ptx-ubench", "yushinliu/cuda-ptx-microbenchmark", "", [], [], [], ["-std=c++17"], ""),
    ("nine-ubench", "woodun/9_Microbenchmarks", "", [], [], [], ["-std=c++17"], ""),
    ("cudamicrobench", "passlab/CUDAMicroBench", "", [], [], [], ["-std=c++17"], ""),
    ("blackwell-ubench", "DrXuQian/cuda-blackwell-microbenchmarks", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("fifty-eighth", "heldout58", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
