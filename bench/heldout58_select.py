#!/usr/bin/env python3
"""How the fifty-eighth held-out set (bench/heldout58.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout58_select.py      # -> bench/heldout58.toml

RULE, written and committed (h/heldout58, 20:38 UTC, commit d8885425) before any candidate was fetched or measured
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
Outcome of the rule (before any measure of kernelport, 20:43 UTC): candidates 1-10 all fetched; the stop (40
  files) is reached after five: gpu-arch-microbenchmark 8, AmpereArchViaMicroBenchMark 12 (of 30 resolving, evenly
  spaced to CAP), gpumembench 3, SyncMicrobenchmark 11, GPGPU_MicroBenchmark_Suite 7 (CudaCode/; InFlightAccessTest.cu,
  520 KB, is over the size cap) = 41 files in five projects; candidates 6-10 not taken. Check (`nvcc -c`, first
  three files): gpu-arch 3/3, Ampere 3/3, gpumembench 0/3 (common/lcutil.h reads cudaDeviceProp::clockRate and
  memoryClockRate, removed in CUDA 13: a removed API, so it stays and its files count only where the original
  compiles: none), SyncMicrobenchmark 0/3 (cudaLaunchParams / cudaLaunchCooperativeKernelMultiDevice and
  cooperative_groups::multi_grid_group, removed in CUDA 13: stays; only Reduction/grid_reduction.cu compiles),
  GPGPU suite 2/3 (DeviceInfo/Query.cu reads the removed clockRate / deviceOverlap). No project DROPPED. All 41 by
  nvcc -c with the project flags: 26 compile (gpu-arch 7 of 8: schedule/block_schedule.cu calls an undefined
  get_global_warpid and redeclares bDim1, a bug of the file; Ampere 12; gpumembench 0; Sync 1; GPGPU suite 6).
  Caveats, said and not acted on: 26 files count (the brief asks 30); the GPGPU suite's five
  MatrixMultiplication/ steps are matmul optimisation steps of a microbenchmark suite, not probes; several Ampere
  files are named *_YHs (after heldout14's YHs_Sample probes) though none of those was taken by the spacing.
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
    # CMakeLists.txt: -gencode sm_70/75/80 (sm_80 kept, the others below it), include dir utils/ (its turingas
    # submodule is absent; only compile_sass.py uses it)
    ("gpu-arch-ubench", "sjfeng1999/gpu-arch-microbenchmark", "(none in the repository)", [], ["utils"], [],
     ["-std=c++17", "-arch=sm_80"], ""),
    # README's nvcc lines: -gencode compute_86/sm_86, -I../Utils (the top-level Utils/), -lcuda
    ("ampere-ubench", "YKTian-x2b/AmpereArchViaMicroBenchMark", "(none in the repository)", [], ["Utils"], [],
     ["-std=c++17", "-arch=sm_86"], ""),
    # */Makefile: NVFLAGS -O2 -ftz=true -I../common; NVCODE compute_20..52 (below CUDA 13's minimum, left out)
    ("gpumembench", "ekondis/gpumembench", "GPL-2.0 (see LICENSE)", ["LICENSE"], ["common"], [],
     ["-std=c++17", "-O2", "-ftz=true"], ""),
    # */Makefile: -x cu -dc (relocatable device code), -gencode sm_60..90 (sm_80 kept: the sleep kernels need
    # sm_70's __nanosleep), Reduction/ -std=c++17 -rdc=true
    ("sync-ubench", "neozhang307/SyncMicrobenchmark", "(none in the repository)", [], [], [],
     ["-std=c++17", "-rdc=true", "-arch=sm_80"], ""),
    # CudaCode/*/Makefile: nvcc (CUDA 6.5) with -I of the vendored PAPI/papi-5.4.1/src, its testlib and PAPI/
    # (the wrapper); the source folder is CudaCode/ (the rest of the repository is OpenCL)
    ("gpgpu-ubench-suite", "tony1223yu/GPGPU_MicroBenchmark_Suite", "(none in the repository)", [],
     ["PAPI/papi-5.4.1/src", "PAPI/papi-5.4.1/src/testlib", "PAPI"], [], ["-std=c++17"], "CudaCode/"),
    # microbench/common/common.mk: TargetSM 89, --define-macro ILPconfig=1,ITERS=999,MEAN=0.0,STDDEV=1.0,
    # -I $(CUDA_PATH)/samples/common/inc (the CUDA samples' helpers, absent: not an include dir here); the
    # ptxas cache options (-Xptxas -dlcm=cv -dscm=wt) change no source meaning and are left out
    ("dissecting-tc", "sunlex0717/DissectingTensorCores", "(none in the repository)", [], [],
     ["ILPconfig=1", "ITERS=999", "MEAN=0.0", "STDDEV=1.0"], ["-std=c++17", "-arch=sm_89"], "microbench/"),
    # CMakeLists.txt: CMAKE_CUDA_ARCHITECTURES 89, include dir include/, -O3 (Release); the kernels' library is src/
    ("ptx-ubench", "yushinliu/cuda-ptx-microbenchmark", "MIT (see LICENSE)", ["LICENSE"], ["include"], [],
     ["-std=c++17", "-O3", "-arch=sm_89"], "src/"),
    # (flags read only if the stops are not reached before it)
    ("nine-ubench", "woodun/9_Microbenchmarks", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    ("cudamicrobench", "passlab/CUDAMicroBench", "BSD (see LICENSE_BSD.txt)", ["LICENSE_BSD.txt"], [], [],
     ["-std=c++17"], ""),
    ("blackwell-ubench", "DrXuQian/cuda-blackwell-microbenchmarks", "(see LICENSE)", ["LICENSE"], [], [],
     ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("fifty-eighth", "heldout58", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
