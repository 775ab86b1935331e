#!/usr/bin/env python3
"""How the ninetieth held-out set (bench/heldout90.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout90_select.py      # -> bench/heldout90.toml

RULE, written and committed (h/heldout90, 15:40 UTC) before any repository was fetched or measured and before any
file listing was looked up. Not a domain: a SYSTEMATIC SAMPLE of what users bring (stop 61's method, heldout89's
template). The frame is the stored index's repository listing `find_repos(name_contains="cuda")`, called at
15:38 UTC on 2026-12-07: 100 repositories, highest file_versions first, recorded below (FRAME) in the listed order
(the listing said more may match; the 100 listed are the frame). The sibling heldout91 samples the same frame from
rank 3 (ranks 3, 7, 11, ...): the two sets are disjoint by construction.
  Drops, by name and listing alone (no file's text read, nothing fetched), recorded in DROP_BY_NAME / NO_CUDA_FILES,
  each repository given the first reason that applies:
    a. a repository in bench/used_repos.txt or a candidate of an earlier bench/*_select.py (main's and this stop's
       sibling worktrees /work/wt/heldout9*): 22 in this frame (two of them without a (c) string:
       hhergeth/CudaTracerLib, in bench/used_repos.txt, and NBAlexis/CudaLatticeGauge, heldout52's candidate);
    b. NVIDIA's own repositories (owner NVIDIA or NVlabs) and forks / copies of NVIDIA/cuda-samples (by name):
       NVIDIA/cuda-quantum, NVIDIA/cuda-python, rbarfinezhadfeli0/cuda-samples, NVIDIA/libcudacxx, NVIDIA/grcuda,
       NVIDIA/cudaqx (NVIDIA/cuda-samples and NVIDIA/CUDALibrarySamples fall to (a) first);
    c. a name containing an earlier frame's string "cuda-", "gpu-", "cuda_", "-cuda", "gpu_", "_gpu", "-gpu", "hpc",
       "parallel", case-insensitive: 32 more (computed into DROP_BY_NAME);
    d. a repository whose stored listing shows no CUDA source: `find_files(repo=X, ext="cu")` and
       `find_files(repo=X, ext="cuh")` both return zero paths (a look at paths only; recorded in NO_CUDA_FILES after
       this commit and before any fetch);
    e. course project templates count once: the first such repository in frame order stays, its siblings (the same
       assignment, other students / years) drop. By name none of the 40 left after (a)-(c) is a sibling of another;
       a taken repository whose taken files are byte-for-byte those of one taken before it (a fork) adds nothing
       (heldout80's rule).
  After (a)-(c), 40 names remain (REMAINING_BEFORE_D, frame order). Sample: number the repositories left after (d)
  1, 2, 3, ... in frame order; take ranks 1, 5, 9, ... (every 4th starting with the 1st), in order; while the set
  holds too few, continue with ranks 2, 6, 10, ... (heldout91 takes 3, 7, ... then 4, 8, ...). The rule stops
  there: if the two passes do not reach STOP_FILES or STOP_PROJECTS, the set is what they give (not widened).
  QUALIFYING, files, cap and check: heldout89's (heldout80's rule, heldout24_select's qualifying check and
  vendored-folder filter) with CAP = 8 per repository, the FIRST 8 in path order: a repository qualifies if at least
  half of its first 10 `.cu` files by path (all if fewer) under its source folder have every `#include` they reach
  resolve in the repository, the CUDA toolkit (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND,
  cuSPARSE, cuSOLVER, NCCL, NVSHMEM headers here) or the host compiler's search path, with the include dirs of the
  project's build; absent third-party headers (OpenCV, Qt, torch, Eigen, MPI, GL), generated headers and absent
  submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read from
  the build files after the fetch and before any measure (the whole repository when the build names no single
  folder), less vendored folders (third_party, 3rdparty, external, extern), over the size cap, not resolving, or
  byte-for-byte copies. Include dirs, defines and flags from the project's own build (`-std=c++17` where it asks for
  older; an -arch below CUDA 13's minimum left out). Self-contained check: the first three files taken (all if
  fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two (one if it gives
  one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be
  fetched, does not qualify or gives 0 files. Sampled repositories are taken in order until the set holds at least
  STOP_FILES = 40 files or STOP_PROJECTS = 10 projects.
Outcome of the drops and the passes (15:38-15:47 UTC, before any measure of kernelport): 60 repositories dropped by
  name ((a) 22, (b) 6, (c) 32), 19 by the path look (d: Java/Kotlin apps, Rust crates without .cu, a text editor,
  dashboards, an SDR app...; 2 of those looks were truncated listings showing zero paths, named above CUDA_SHOWN),
  21 remain, numbered in frame order. First pass (ranks 1, 5, 9, 13, 17, 21): AkshDesai04/CUDA 8 (10 of its first 10
  resolve; code_samples/Fundamentals_ErrorCheck_01*.cu, the first 8 by path), ernestyalumni/HrdwCCppCUDA 4 (4 of 6; the
  two gtest units do not resolve), sgrauerg6/cudaBeliefProp 0 (2 of 5 resolve: not qualifying), pest88-spec/keycuda
  (fetch: no snapshot), atsanroger/bridge_cuda 8 (10 of 10), pavadik/tacuda 8 (10 of 10): 28 files. Second pass (ranks
  2, 6, 10, 14, ...): JuliaGPU/CUDA.jl 7 (7 of 7; empty.cu is empty), rsasaki0109/CudaRobotics 0 (1 of 10: OpenCV,
  Eigen), wsttiger/cudaqx 0 (3 of 10: CUDA-Q and TensorRT headers), RichardEllicott/CudaTextureGen 8 (6 of 10):
  43 files, past STOP_FILES. Check (`nvcc -c`, the first three, 15:46 UTC): 3/3, HrdwCCppCUDA 2/3 (stack_sh.cu is a
  note with undeclared names: the source's), 3/3, 3/3, 3/3, 3/3: none dropped. The set: 43 files in six projects
  (akshdesai-cuda 8, hrdwccppcuda 4, bridge-cuda 8, tacuda 8, cuda-jl 7, cudatexturegen 8). Caveats, said and not
  acted on: AkshDesai04/CUDA is an LLM-generated question/answer set (its 8 are variants of one error-checking
  exercise); CUDA.jl's 7 are the tiny PTX fixtures of a Julia package's tests; wsttiger/cudaqx is by name a copy of
  NVIDIA/cudaqx (drop (b) names cuda-samples copies only: it stayed, and gave 0 files).
The set is measured on this branch's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout90_before.txt, Debian ROCm 5.2 alone, and bench/scoreboard_heldout90_before_rocmlibs.txt,
with rocThrust + hipCUB rocm-5.3.3).
"""
from __future__ import annotations

STOP_FILES, STOP_PROJECTS, CAP = 40, 10, 8
NOT_FETCHED = "(fetch: no snapshot of that repository can be had here)"

# find_repos(name_contains="cuda") at 15:38 UTC, 2026-12-07: the 100 names in listed order
FRAME = [
    "NVIDIA/cuda-quantum",
    "titan/oxicuda",
    "dbmdz/cudami",
    "AkshDesai04/CUDA",
    "robcholz/barracuda",
    "AnargyrosArg/complete_cuda_call_profiler",
    "JuliaGPU/CUDA.jl",
    "JuShuai-gif/cuda_pytorch",
    "MCLD/ocuda",
    "sora5801/cuda-cpp-healthcare-projects",
    "NVIDIA/cuda-python",
    "ciresnave/baracuda",
    "ademeure/QuickRunCUDA",
    "CVCUDA/CV-CUDA",
    "b3p3k0/dirracuda",
    "josnelihurt/learning-cuda",
    "UTING-4517/aerial-cuda-accelerated-ran",
    "hibouwu/CUDA_optimazation",
    "Barracudach/dump",
    "NBAlexis/CudaLatticeGauge",
    "ernestyalumni/HrdwCCppCUDA",
    "aduckinpants/cuda_newton_fractal",
    "billacuda/LarisVMS",
    "dozeri83/gaussian-splatting-cuda",
    "maracuda/Treller",
    "Qwicen/cuda_hlt",
    "Heng5384/CUDA_STO_PF",
    "bzhng-development/summary-of-some-paper-in-cuda",
    "NVIDIA/CUDALibrarySamples",
    "xiangzhang-coding/cuda-learning-site",
    "ssoj13/cuda-rust-windows",
    "hhergeth/CudaTracerLib",
    "pitchingcoachu/pcudashboard",
    "kirjner/napari-cuda",
    "Cudael/quiz",
    "rsasaki0109/CudaRobotics",
    "MrNeRF/gaussian-splatting-cuda",
    "kfernandez31/cuda-volprim",
    "goldbar123467/openttd-cuda-rl",
    "ecoPrimals/barraCuda",
    "kevmtan/electroCUDA",
    "sdodlapati3/cuda-lab",
    "Mern-Unbeatable/baracuda260",
    "iteathen/CUDA-MCGS",
    "Lulzx/cuda-metal",
    "cudamin/EmbyNian",
    "JohnBaracuda/com.baracuda.runtime-monitoring",
    "garrick247/opencuda",
    "MinhGiang241/app_cudan_demego",
    "sgrauerg6/cudaBeliefProp",
    "rbarfinezhadfeli0/cuda-samples",
    "YuuKozlx/fdk_cuda_impl",
    "sora5801/cuda-cpp-robotics-projects",
    "shadygm/gaussian-splatting-cuda",
    "JanuszL/CV-CUDA",
    "EricSolshkov/stardis-cuda",
    "ece4500group18/cuda-sycl-benchmark",
    "LegendaryBo/texas-cuda-ai1",
    "iteathen/CUDA-JS",
    "NVIDIA/cuda-samples",
    "NVIDIA/libcudacxx",
    "SamG-Coder/cuda-webshader",
    "Alexey-T/CudaText",
    "ConnorBaker/cuda-packages",
    "wsttiger/cudaqx",
    "ryr246810/CUDA",
    "alexoz12v2/cuda-optix-pathtracing",
    "xavigibert/ShearCuda",
    "zl2brg/cudaSDR",
    "AnargyrosArg/cuda_interception",
    "ucudal/PII_2021_2_Equipo7",
    "pest88-spec/keycuda",
    "NVIDIA/grcuda",
    "kmeirlaen/gaussian-splatting-cuda",
    "RichardEllicott/CudaTextureGen",
    "dskkato/ros2_cuda_ipc",
    "m1bcodes/CudaMONSEL",
    "AnshMittal1811/CUDAX365",
    "BBuf/how-to-optim-algorithm-in-cuda",
    "Cuda-Chen/leetcode_pratice",
    "sonvule59/CUDA_and_OpenMP",
    "Rust-GPU/Rust-CUDA",
    "Stars1233/aerial-cuda-accelerated-ran",
    "sztlink/turboquant-cuda-bench",
    "atsanroger/bridge_cuda",
    "forkni/cuda-link",
    "sony/nnabla-ext-cuda",
    "CIS5650-Fall-2025/Project3-CUDA-Path-Tracer",
    "Barracuda09/SATPI",
    "faheemmalik11/barracuda_project",
    "Brent-Newsom-NVIDIA/nvidia-cuda-wiki",
    "mlverse/cuda.ml",
    "Reuzola/modern-cpp-cuda-path-tracer-with-rust-harness",
    "Kobzol/cuda-profile",
    "HaoyangChen23/CUDABeaver",
    "brian-team/brian2cuda",
    "jiriklepl/fortran-to-cuda",
    "NVIDIA/cudaqx",
    "pavadik/tacuda",
    "pest88-spec/keycuda-p1-perf-002",
]

_EARLIER = ("cuda-", "gpu-", "cuda_", "-cuda", "gpu_", "_gpu", "-gpu", "hpc", "parallel")
# (a): in bench/used_repos.txt (main's or a sibling's /work/wt/heldout9*) or a candidate of an earlier bench/*_select.py
USED_OR_CANDIDATE = (
    "JuShuai-gif/cuda_pytorch", "sora5801/cuda-cpp-healthcare-projects", "CVCUDA/CV-CUDA",
    "josnelihurt/learning-cuda", "NBAlexis/CudaLatticeGauge", "aduckinpants/cuda_newton_fractal",
    "NVIDIA/CUDALibrarySamples", "ssoj13/cuda-rust-windows", "hhergeth/CudaTracerLib",
    "MrNeRF/gaussian-splatting-cuda", "goldbar123467/openttd-cuda-rl", "iteathen/CUDA-MCGS",
    "YuuKozlx/fdk_cuda_impl", "sora5801/cuda-cpp-robotics-projects", "LegendaryBo/texas-cuda-ai1",
    "NVIDIA/cuda-samples", "SamG-Coder/cuda-webshader", "BBuf/how-to-optim-algorithm-in-cuda",
    "Cuda-Chen/leetcode_pratice", "Rust-GPU/Rust-CUDA", "jiriklepl/fortran-to-cuda",
    "pest88-spec/keycuda-p1-perf-002",
)
# (b): owner NVIDIA / NVlabs, or a copy of NVIDIA/cuda-samples by name
NVIDIA_OWN = (
    "NVIDIA/cuda-quantum", "NVIDIA/cuda-python", "rbarfinezhadfeli0/cuda-samples", "NVIDIA/libcudacxx",
    "NVIDIA/grcuda", "NVIDIA/cudaqx",
)
DROP_BY_NAME: dict[str, str] = {r: "(a): used or an earlier set's candidate" for r in USED_OR_CANDIDATE}
DROP_BY_NAME.update({r: "(b): NVIDIA's own or a cuda-samples copy" for r in NVIDIA_OWN})
DROP_BY_NAME.update({r: "(c): its name holds an earlier frame's string" for r in FRAME
                     if r not in DROP_BY_NAME and any(s in r.lower() for s in _EARLIER)})
REMAINING_BEFORE_D = [r for r in FRAME if r not in DROP_BY_NAME]
assert len(REMAINING_BEFORE_D) == 40, len(REMAINING_BEFORE_D)
# (d): find_files(repo=X, ext="cu") and ext="cuh", paths only, 15:39-15:40 UTC, after the RULE's commit 037b85a8 (15:39:28) and
# before any fetch: 19 of the 40 show neither. For 2 of them (dbmdz/cudami, Alexey-T/CudaText) the look said "more
# files matched than are listed" with zero paths shown: the rule reads the zero paths as written and drops them.
# The 21 whose look showed .cu paths; NO_CUDA_FILES is the rest.
CUDA_SHOWN = (
    "AkshDesai04/CUDA", "JuliaGPU/CUDA.jl", "ciresnave/baracuda", "ademeure/QuickRunCUDA", "ernestyalumni/HrdwCCppCUDA",
    "rsasaki0109/CudaRobotics", "kevmtan/electroCUDA", "garrick247/opencuda", "sgrauerg6/cudaBeliefProp",
    "wsttiger/cudaqx", "ryr246810/CUDA", "xavigibert/ShearCuda", "pest88-spec/keycuda", "RichardEllicott/CudaTextureGen",
    "m1bcodes/CudaMONSEL", "AnshMittal1811/CUDAX365", "atsanroger/bridge_cuda", "mlverse/cuda.ml",
    "HaoyangChen23/CUDABeaver", "brian-team/brian2cuda", "pavadik/tacuda",
)
NO_CUDA_FILES: frozenset[str] = frozenset(REMAINING_BEFORE_D) - set(CUDA_SHOWN)


def remaining() -> list[str]:
    return [r for r in REMAINING_BEFORE_D if r not in NO_CUDA_FILES]


def sample() -> list[str]:
    """The sampled repositories in the order they are taken: ranks 1, 5, 9, ... then 2, 6, 10, ..."""
    rest = remaining()
    return rest[0::4] + rest[1::4]


# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder) of each sampled
# repository, in sample() order: filled in after the fetch, before any measure.
CANDIDATES = [
    # no build file at all (an LLM-generated question/answer set of CUDA programs): the whole repository
    ("akshdesai-cuda", "AkshDesai04/CUDA", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # no single build: Constructicon/LongHaul/Source/CMakeLists.txt (INCLUDE_DIRECTORIES its own folder, -std=c++20)
    # builds two of the six .cu; the others sit beside notes with no build: the whole repository
    ("hrdwccppcuda", "ernestyalumni/HrdwCCppCUDA", "MIT", ["LICENSE"], ["Constructicon/LongHaul/Source"], [],
     ["-std=c++20"], ""),
    # BeliefProp/LinuxMakeAndRunBPCUDA/Makefile + common.mk: -I src -I src/beliefprop, -DUNIX -DOPTIMIZED_CUDA_RUN
    # -DUSE_BFLOAT16_FOR_HALF_PRECISION, -O3 -std=c++20 (-arch=native left out: no GPU here); sources under src/
    ("cudabeliefprop", "sgrauerg6/cudaBeliefProp", "GPL-2.0 (COPYING)", ["COPYING"],
     ["src", "src/beliefprop", "src/benchmarks"], ["UNIX", "OPTIMIZED_CUDA_RUN", "USE_BFLOAT16_FOR_HALF_PRECISION"],
     ["-std=c++20", "-O3"], "src/"),
    ("keycuda", "pest88-spec/keycuda", NOT_FETCHED, [], [], [], [], ""),
    # src/lib_alt_Accel/BridgeCUDA/Makefile and CMakeLists.txt: -O3 -std=c++11 (-> 17) -rdc=true --disable-warnings
    # -DUSE_GROUP_SU3, -gencode sm_80 (first of 80/86/90); include dirs src, src/lib, src/lib_alt, src/lib_alt_Accel
    ("bridge-cuda", "atsanroger/bridge_cuda", "GPL-3.0", ["LICENSE.txt"],
     ["src/lib_alt_Accel/BridgeCUDA", "src", "src/lib", "src/lib_alt", "src/lib_alt_Accel"], ["USE_GROUP_SU3"],
     ["-std=c++17", "-O3", "-rdc=true", "--disable-warnings", "-arch=sm_80"], "src/lib_alt_Accel/BridgeCUDA/"),
    # CMakeLists.txt: CUDA 17, separable compilation, include/, --expt-relaxed-constexpr; sources under src/
    ("tacuda", "pavadik/tacuda", "(none in the repository)", [], ["include"], [],
     ["-std=c++17", "-rdc=true", "--expt-relaxed-constexpr"], "src/"),
    # second pass (ranks 2, 6, ...): test/core/ptx/Makefile and examples/driver/Makefile, `nvcc -ptx` each .cu with
    # no flags (-arch=sm_20 left out: below CUDA 13's minimum); no single folder: the whole repository
    ("cuda-jl", "JuliaGPU/CUDA.jl", "MIT", ["LICENSE.md"], [], [], ["-std=c++17"], ""),
    # CMakeLists.txt (the root's build; ros2_ws/ is a separate ROS package): CUDA 14 (-> 17), include dirs ./include
    # and Eigen / OpenCV (absent here), --expt-relaxed-constexpr; sources under src/
    ("cudarobotics", "rsasaki0109/CudaRobotics", "MIT", ["LICENSE.md"], ["include"], [],
     ["-std=c++17", "--expt-relaxed-constexpr"], "src/"),
    # CMakeLists.txt: add_subdirectory(libs/core) and libs/<lib>; libs/qec/CMakeLists.txt CXX 20,
    # CUDAQX_QEC_INCLUDE_DIR libs/qec/include, libs/core/include; CUDA_STANDARD 17 for the realtime .cu; sources libs/
    ("cudaqx", "wsttiger/cudaqx", "Apache-2.0", ["LICENSE", "NOTICE"], ["libs/qec/include", "libs/core/include"], [],
     ["-std=c++17"], "libs/"),
    # CMakeLists.txt: CUDA 17, GLOB_RECURSE src/main, src/core, src/kernels *.cu; include dirs src/include, src/core,
    # src/kernels; no CUDA flags; sources under src/
    ("cudatexturegen", "RichardEllicott/CudaTextureGen", "LGPL-3.0-or-later", ["LICENSE"],
     ["src/include", "src/core", "src/kernels"], [], ["-std=c++17"], "src/"),
]
DROPPED: frozenset[str] = frozenset()


def first_by_path(files: list[str]) -> list[str]:
    return files[:CAP]


if __name__ == "__main__":  # heldout24's qualifying check and loop, with this rule's cap (the first 8 by path)
    import heldout24_select as h24
    from heldout24_select import write_set
    assert [c[1] for c in CANDIDATES] == sample()[:len(CANDIDATES)], "CANDIDATES must follow sample() order"
    h24.spaced = first_by_path
    write_set("ninetieth", "heldout90", [c for c in CANDIDATES if c[2] != NOT_FETCHED], DROPPED,
              stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
