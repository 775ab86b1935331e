#!/usr/bin/env python3
"""How the eighty-third held-out set (bench/heldout83.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout83_select.py      # -> bench/heldout83.toml

RULE, written and committed (h/heldout83, 10:40 UTC) before any candidate was fetched or measured. Not a domain:
a SYSTEMATIC SAMPLE of what users bring. The frame is the stored index's repository listing
`find_repos(name_contains="cuda_")`, called at 10:39 UTC (2026-12-07): 100 repositories, highest file_versions
first, listed in FRAME below in the listed order (the listing said more may match; the 100 listed are the frame).
  Dropped BY NAME ALONE, before any sampling (DROP_BY_NAME below, each with its reason):
    - repositories in bench/used_repos.txt or named by an earlier bench/*_select.py, or by the sibling sets of this
      stop (heldout80's frame `cuda-` and set, heldout81's frame `gpu-` and set, heldout82's set):
      aduckinpants/cuda_newton_fractal, tkhenry-uofa/cuda_ultrasound_toolkit, CodeMonkey19940630/CUDA_Signal_Algorithm
      (a repository that only shares a generic name with a used one, e.g. xiaohuangyu/cuda_learning beside
      ifromeast/cuda_learning, is another repository and stays); no name of this frame contains "cuda-" or "gpu-";
    - NVIDIA's own repositories (owner NVIDIA or NVlabs) and forks / copies of NVIDIA/cuda-samples: none in this
      frame by name;
    - course project templates and copies count once, the first in frame order: no CIS565-style multi-year
      assignment is in this frame by name; the one distinctive repository name held twice, cuda_ndt_matcher
      (jerry73204/ then NEWSLabNTU/), counts once: NEWSLabNTU/cuda_ndt_matcher is dropped as its sibling
      (said here, before any look at either). Generic names held twice (cuda_study) are different projects and stay.
  Then dropped: repositories whose stored listing shows no .cu and no .cuh file (`find_files repo=X ext=cu` and
  `ext=cuh`: a look at paths only, no content, recorded in NO_CUDA_FILES after this commit and before any fetch).
  SAMPLE: of what remains, in frame order, every 4th repository starting with the 1st (remaining ranks 1, 5, 9,
  ...), taken in that order; if those run out before a stop, every 4th starting with the 3rd (ranks 3, 7, 11,
  ...), in order.
  QUALIFYING, files, cap and check: heldout80's rule (heldout24_select's qualifying check and vendored-folder
  filter) with this task's cap: a candidate qualifies if at least half of its first 10 `.cu` files by path (all if
  fewer) under its source folder have every `#include` they reach resolve in the repository, the CUDA toolkit (CUDA
  13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER, NCCL, NVSHMEM headers here) or the
  host compiler's search path, with the include dirs of the project's build; absent third-party headers (OpenCV, Qt,
  torch, Eigen, MPI, GL), generated headers and absent submodules do not resolve, and no stand-in headers are taken.
  Files: `.cu` only under the source folder read from the build files after the fetch and before any measure (the
  whole repository when the build names no single folder), less vendored folders (third_party, 3rdparty, external,
  extern), over the size cap, not resolving, or byte-for-byte copies; CAP = 8 per repository, the FIRST 8 in path
  order (not spaced). Include dirs, defines and flags from the project's own build (`-std=c++17` where it asks for
  older; an -arch below CUDA 13's minimum left out). A taken repository whose files are byte-for-byte those of one
  taken before it (a fork) adds nothing. Self-contained check: the first three files taken (all if fewer) are
  compiled with `nvcc -c` and the project's flags; a project of which fewer than two (one if it gives one) compile,
  for a reason other than CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not
  qualify or gives 0 files. Sampled repositories are taken in order until the set holds at least STOP_FILES = 40
  files or STOP_PROJECTS = 10 projects.
Outcome of the rule (10:40-10:45 UTC, before any measure of kernelport): 4 repositories dropped by name; the path look
  (NO_CUDA_FILES, frame order, through position 62: see PATH_LOOK_THROUGH) found 6 with no .cu/.cuh. First pass (ranks
  1, 5, 9, ...): cuda-pytorch 0 (4 of its first 10 resolve: torch, cublas), YuuKozlx/fdk_cuda_impl cannot be fetched,
  irregular-ops 8 (benchmark/: 10 of 10), deduplicator 0 (no .cu at its newest snapshot), raytracer-jt 0 (0 of 10: its
  gsl-lite / png++ submodules are absent), 120-days 8 (10 of 10), rcs-sim 7 (5 of 10: 7 resolve in src/), ocudu cannot
  be fetched: 23 files in three projects, below both stops, so the first pass went on (ranks 33, 37, ...):
  JackeyLove1/cuda_kernels cannot be fetched, cuda-interop 8 (project/cuda_kernels/: 10 of 10),
  wind12335/cpp_cuda_cmake_cutlass cannot be fetched, cuda-lbm 0 (0 of 4: curand / its own generated headers),
  minimal-cnn 8 (cpp/src/: 8 of 10; USE_CUBLAS=1 as its Makefile sets it), hydro-mpi 3 (3 of 4): 42 files in six
  projects, the 40-file stop. Self-contained check (nvcc -c, the first three files taken, 10:43-10:45 UTC):
  irregular-ops 3/3, 120-days 3/3, rcs-sim 3/3, cuda-interop 3/3, minimal-cnn 3/3, hydro-mpi 2/3
  (ComputationalScheme.cu reaches ComputationalScheme.hpp:82, `std::vector` with no <vector> included: a source
  error). No project DROPPED. Caveats, said and not acted on: irregular-ops' files are machine-generated benchmark
  kernels (an LLM-to-CUDA translation benchmark's test data: eight small elementwise / pooling kernels); 120-days is a
  learning diary; the sample never reached the second pass.
The set is measured on this branch's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout83_before.txt, Debian ROCm 5.2 alone, and bench/scoreboard_heldout83_before_rocmlibs.txt, with
rocThrust + hipCUB rocm-5.3.3).
"""
from __future__ import annotations

STOP_FILES, STOP_PROJECTS, CAP = 40, 10, 8
NOT_FETCHED = "(fetch: no snapshot of that repository can be had here)"

# find_repos(name_contains="cuda_") at 10:39 UTC, 2026-12-07: the 100 names in listed order
FRAME = [
    "AnargyrosArg/complete_cuda_call_profiler",
    "JuShuai-gif/cuda_pytorch",
    "hibouwu/CUDA_optimazation",
    "aduckinpants/cuda_newton_fractal",
    "Qwicen/cuda_hlt",
    "Heng5384/CUDA_STO_PF",
    "YuuKozlx/fdk_cuda_impl",
    "AnargyrosArg/cuda_interception",
    "dskkato/ros2_cuda_ipc",
    "sonvule59/CUDA_and_OpenMP",
    "faheemmalik11/barracuda_project",
    "ShouyangDong/cuda_irregular_ops",
    "rahul238xaviers/cuda_training",
    "JeroenMampaey/DirectX11_CUDA_SPH_fluid_simulator",
    "starboy520/cuda_study",
    "bwelton/cuda_deduplicator",
    "zhils/cuda_kernel_optimization",
    "jirikopecky24/BARACUDA_FULL",
    "c0dezhou/cuda_api",
    "WFiIS-IS/CUDA_2025",
    "LukeTheGeneWriter/CUDA_RNAFold",
    "JonasToth/cuda_raytracer",
    "Edamame0011/MD_CUDA_refactored",
    "atkunja/cuda_force",
    "WilliamLewww/cuda_raytrace",
    "krmdel/120_days_of_CUDA_challenge",
    "bgd54/cuda_fot",
    "hubin8851/FEM_CUDA_Boost_V2",
    "tkhenry-uofa/cuda_ultrasound_toolkit",
    "jimmy01081122/HeCBench_CUDA_Optimization",
    "MarkJoson/rcs_cuda_sim",
    "EvangelosKatsavrias/CUDA_MLS",
    "Ajith-Kumar-Nelliparthi/Learning_CUDA_From_Scratch",
    "yalue/cuda_scheduling_examiner_mirror",
    "rahmanhabib010/vt_cuda_accelartaed_ocudu",
    "WilliamLewww/cuda_pbrt",
    "Jlisowskyy/CUDA_gpca_proj1",
    "e-choness/feature_extraction_cuda_elm",
    "arifulFSM/UTAC_RAFT_CUDA_CONVERSION",
    "JackeyLove1/cuda_kernels",
    "emittman/cuda_rpackage",
    "rajneel18/100_CUDA_Kernels",
    "Cagedcarrow/cuda_ik_accelerateion",
    "8KNewEra/cuda_interop",
    "juan-esteban-berger/cuda_networks",
    "MaximumBeings/multi_gpu_cuda_from_scratch",
    "sigrond/RayTracingCUDA_TJ",
    "wind12335/cpp_cuda_cmake_cutlass",
    "jerry73204/cuda_ndt_matcher",
    "fuchstraumer/CUDA_Noise",
    "chrisfrdly/Barracuda_3_Kalidax",
    "ziababar/cuda_programming_guide",
    "brunoyanjos/cuda_lbm",
    "nideyongbao/CUDA_GEMM",
    "tiernemi/Summer_Project_CUDA_SORT",
    "johnmaster/cuda_study",
    "s9213712/minimal_cuda_cnn",
    "stivalaa/cuda_satabsearch",
    "liangji-seu/project_1_my_cuda_vllm",
    "xormal/cuda_tempiler",
    "Eugene-Kolesnikov/NumericalHydrodynamicsCUDA_MPI",
    "yezijinn/jinn_cuda_aimbot",
    "CodeRichen/114_CUDA_OpenMP",
    "inJeans/cuda_dsmc",
    "Shnapa/Restoring_CUDA_Accuracy",
    "orest-hera/LNU-2025-CUDA_Newton_project",
    "xiaohuangyu/cuda_learning",
    "MaximumBeings/cuda_hammer_compiler_from_scratch",
    "Arkzeil/CUDA_ns-3.37",
    "XssZuiNB/CUDA_3D",
    "eltonfabricio10/cuda_lang_pt_BR",
    "hyunkoome/Study_CUDA_Programming",
    "rwatling/CUDA_Programming",
    "YangletLiu/cuTensor_CUDA_Library_for_Transform_based_Tensors",
    "chefxxx/CUDA_sudoku_solver",
    "Mintinson/cuda_practice",
    "kkrzychu/baracuda_app",
    "giacomotrinca/cuda_pspin",
    "BhargavKumarNath/custom_cuda_kernals",
    "usc-robosub/barracuda_ws",
    "Lawrencium77/cuda_mlp",
    "fbonnet08/SysProg_Cuda_Nova",
    "mdavis36/CUDA_Particle-Simulator",
    "LiuYiyang-Canton/cuda_llm_ops",
    "warunafernando/AprilTag_CUDA_X86",
    "hubin8851/FEMCal_CUDA_MPI_Boost",
    "ChunPingWang/cuda_30day_course",
    "alepot55/triton_vs_cuda_fsa",
    "CodeMonkey19940630/CUDA_Signal_Algorithm",
    "nnamu-cl/cuda_qmc_exploration",
    "FLigthart/CUDA_Raytracer",
    "theProgrammingBox/CUDA_C-_Tests",
    "NEWSLabNTU/cuda_ndt_matcher",
    "ningyd98/cuda_aftershock_prediction",
    "Zhou1-666/CUDA_srtp",
    "a1noack/cuda_neural_net",
    "hhhzewei/cuda_tutorial_example",
    "iosmers/Cuda_Tutorial",
    "Siyuan414/cuda_ml_infer_practice",
    "neah1/hetsort_cuda_shellsort",
]

_USED = "in bench/used_repos.txt / named by an earlier select script"
_SIB = "a second copy of a distinctive repository name earlier in the frame (counts once)"
DROP_BY_NAME = {
    "aduckinpants/cuda_newton_fractal": _USED, "tkhenry-uofa/cuda_ultrasound_toolkit": _USED,
    "CodeMonkey19940630/CUDA_Signal_Algorithm": _USED,
    "NEWSLabNTU/cuda_ndt_matcher": _SIB,
}
# repositories whose stored listing shows no .cu and no .cuh (find_files ext=cu and ext=cuh, paths only), recorded
# after the RULE's commit 179e46bd and before any fetch (10:39-10:40 UTC). The look went in frame order through frame
# position 35 (rahmanhabib010/vt_cuda_accelartaed_ocudu, remaining rank 29: the eighth repository of the first pass),
# and, when those eight gave 23 files in three projects (below both stops), on in frame order through position 59
# (liangji-seu/project_1_my_cuda_vllm) by the same paths-only test, before any repository past position 35 was
# fetched (10:42 UTC; a look at paths cannot depend on a measure), and when ranks 33-49 brought the set to 39 files
# in five projects, through position 62 (yezijinn/jinn_cuda_aimbot) before rank 53 was fetched (10:47 UTC).
# PATH_LOOK_THROUGH records how far.
PATH_LOOK_THROUGH = "yezijinn/jinn_cuda_aimbot"
NO_CUDA_FILES: frozenset[str] = frozenset({
    "AnargyrosArg/complete_cuda_call_profiler",
    "faheemmalik11/barracuda_project",
    "jirikopecky24/BARACUDA_FULL",
    "WFiIS-IS/CUDA_2025",
    "WilliamLewww/cuda_pbrt",
    "chrisfrdly/Barracuda_3_Kalidax",
})


def remaining() -> list[str]:
    return [r for r in FRAME if r not in DROP_BY_NAME and r not in NO_CUDA_FILES]


def sample() -> list[str]:
    """The sampled repositories in the order they are taken: ranks 1, 5, 9, ... then 3, 7, 11, ..."""
    rest = remaining()
    return rest[0::4] + rest[2::4]


# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder) of each sampled
# repository, in sample() order: include dirs, defines and flags from each project's own build, read after the
# fetch and before any measure. A repository `fetch` could not bring is listed with NOT_FETCHED.
CANDIDATES = [
    # CMakeLists.txt: include_directories(./include), CMAKE_CXX_STANDARD 17, CUDA_SEPARABLE_COMPILATION ON; it builds
    # ops/ and pytorch_bind/ (base/ commented out, bandwidth/build.sh: nvcc -arch sm_XX -Xptxas=-v): no single folder
    ("cuda-pytorch", "JuShuai-gif/cuda_pytorch", "(none in the repository)", [], ["include"], [],
     ["-std=c++17", "-rdc=true"], ""),
    ("fdk", "YuuKozlx/fdk_cuda_impl", NOT_FETCHED, [], [], [], [], ""),
    # benchmark/utils.py run_cuda_compilation: nvcc -Xcompiler -fPIC -shared -arch=sm_80 FILE (its .cu lie under
    # benchmark/: data/cuda_code_test and optimization/cuda)
    ("irregular-ops", "ShouyangDong/cuda_irregular_ops", "(none in the repository)", [], [], [],
     ["-std=c++17", "-Xcompiler", "-fPIC", "-arch=sm_80"], "benchmark/"),
    # newest snapshot: no .cu (CMakeLists.txt builds C++ only)
    ("deduplicator", "bwelton/cuda_deduplicator", "see LICENSE", ["LICENSE"], [], [], ["-std=c++17"], ""),
    # CMakeLists.txt: include dirs src, lib, lib/gsl-lite/include, lib/png-plusplus (submodules, absent);
    # CUDA_NVCC_FLAGS --std=c++11 (-> 17) --expt-extended-lambda -DTHRUST_DEBUG -DGSL_UNENFORCED_ON_CONTRACT_VIOLATION;
    # it builds src/, test/ and benchmark/: no single folder
    ("raytracer-jt", "JonasToth/cuda_raytracer", "(none in the repository)", [],
     ["src", "lib", "lib/gsl-lite/include", "lib/png-plusplus"], ["THRUST_DEBUG", "GSL_UNENFORCED_ON_CONTRACT_VIOLATION"],
     ["-std=c++17", "--expt-extended-lambda"], ""),
    # no build file: each day's README compiles its .cu with a bare `nvcc X.cu -o X`
    ("120-days", "krmdel/120_days_of_CUDA_challenge", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # CMakeLists.txt: CMAKE_CUDA_STANDARD 20, include dir include, CUDA_SEPARABLE_COMPILATION ON, sources under src/
    ("rcs-sim", "MarkJoson/rcs_cuda_sim", "see LICENSE", ["LICENSE"], ["include"], [], ["-std=c++20", "-rdc=true"],
     "src/"),
    ("ocudu", "rahmanhabib010/vt_cuda_accelartaed_ocudu", NOT_FETCHED, [], [], [], [], ""),
    # first pass continued (ranks 33, 37, ...): ranks 1-29 gave 23 files in three projects
    ("jl-kernels", "JackeyLove1/cuda_kernels", NOT_FETCHED, [], [], [], [], ""),
    # project/cuda_kernels/cuda_clean_compile.bat: nvcc -c each *.cu there, -gencode sm_61..sm_120 (sm_61 below CUDA
    # 13's minimum, the rest an arch list: left out), -Xcompiler "/MD /utf-8" (MSVC options, left out), --use_fast_math;
    # cuda_interop.pro CONFIG += c++17
    ("cuda-interop", "8KNewEra/cuda_interop", "(none in the repository)", [], [], [], ["-std=c++17", "--use_fast_math"],
     "project/cuda_kernels/"),
    ("cmake-cutlass", "wind12335/cpp_cuda_cmake_cutlass", NOT_FETCHED, [], [], [], [], ""),
    # MR_LBM/src/compile.sh: nvcc -gencode (the GPU's own compute capability) -rdc=true --ptxas-options=-v -O3 --restrict
    # *.cu -lcudadevrt -lcurand (the .cu in MR_LBM/src/)
    ("cuda-lbm", "brunoyanjos/cuda_lbm", "(none in the repository)", [], [], [], ["-std=c++17", "-rdc=true", "-O3", "--restrict"],
     "MR_LBM/src/"),
    # cpp/Makefile: CFLAGS -O3 -Xcompiler -fPIC -arch=sm_86 -DUSE_CUBLAS=1 (USE_CUBLAS ?= 1), INCS -Iinclude, SRCS src/*.cu
    ("minimal-cnn", "s9213712/minimal_cuda_cnn", "(none in the repository)", [], ["cpp/include"], ["USE_CUBLAS=1"],
     ["-std=c++17", "-O3", "-Xcompiler", "-fPIC", "-arch=sm_86"], "cpp/src/"),
    # ComputationalModel/Makefile and ComputationalScheme/Makefile: NVCCFLAGS -c -arch=sm_30 (below CUDA 13's minimum,
    # left out) -O3 -std=c++11 (-> 17) --compiler-options '-fPIC', INCLUDE_PATH -I./../ (the repository root) besides
    # MPI / CUDA install dirs; two folders: the whole repository
    ("hydro-mpi", "Eugene-Kolesnikov/NumericalHydrodynamicsCUDA_MPI", "(none in the repository)", [], ["."], [],
     ["-std=c++17", "-O3", "-Xcompiler", "-fPIC"], ""),
]
DROPPED: frozenset[str] = frozenset()


def first_by_path(files: list[str]) -> list[str]:
    return files[:CAP]


if __name__ == "__main__":  # heldout24's qualifying check and loop, with this rule's cap (the first 8 by path)
    import heldout24_select as h24
    from heldout24_select import write_set
    assert [c[1] for c in CANDIDATES] == sample()[:len(CANDIDATES)], "CANDIDATES must follow sample() order"
    h24.spaced = first_by_path
    write_set("eighty-third", "heldout83", [c for c in CANDIDATES if c[2] != NOT_FETCHED], DROPPED,
              stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
