#!/usr/bin/env python3
"""How the ninety-seventh held-out set (bench/heldout97.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout97_select.py      # -> bench/heldout97.toml

RULE, written and committed (h/heldout97) before any repository was fetched or measured and before any file listing
was looked up. Not a domain: a SYSTEMATIC SAMPLE (stop 65; bench/heldout94_select.py's template, stop 64's drops).
The frame is the stored index's repository listing `find_repos(name_contains="matmul")`, called at 21:04 UTC on
2026-12-07: 100 repositories, highest file_versions first, recorded below (FRAME) in the listed order (the listing
said more may match; the 100 listed are the frame). By name much of it is not CUDA (Laravel apps, RTL accelerators,
Ascend / NPU, AVX / MPI / Fortran, "matmul-free" LLMs, a person's name holding "matmul"): drop (d) removes what holds no
CUDA source; the rule is not widened for that. heldout97 takes EVERY rank (its own frame; the siblings heldout98/99
share the "kernels" frame).
  Drops, each repository given the first reason that applies, ranks counted ONCE on a list that depends only on main
  (commit 1ef554d0, main's head at 21:04 UTC; checked again at 21:15 UTC, the outcome says) and the frame, never on a
  sibling's progress:
    a. a repository in main's bench/used_repos.txt or a candidate of any bench/*_select.py on main (grep,
       case-insensitive, of each owner/name): KnowingNothing/MatmulTutorial (used; heldout14's set);
    b. NVIDIA's own (owner NVIDIA, NVlabs, NVIDIA-*) and copies of NVIDIA/cuda-samples: none in this frame by owner or
       name;
    c. a repository that appears in any earlier frame (every FRAME list in main's bench/heldout*_select.py, stop 64's
       "flash-att" and "gemm" included): none besides MatmulTutorial (already (a)). Stop 63's string drops are replaced
       by this membership drop: a repository outside the earlier frames' 100 listed names was never eligible there, so
       it is unseen (gpu-matmul, cuda-matmul-lab, CUDA_matmul_opt stay);
    d. no `.cu`/`.cuh` in its stored listing: `find_files(repo=X, ext="cu")` and, where that shows no path,
       `find_files(repo=X, ext="cuh")` both show zero paths (paths only; recorded in CUDA_LOOK after this commit and
       before any fetch). Because this set takes every rank in order, the looks are made in frame order only as far as
       the sampling needs (ranks past the stop are not needed to number the ones before it);
    e. forks/copies: a repository whose taken files are byte-for-byte those of one taken before it adds nothing
       (0 files); applied when files are taken, it does not renumber.
  Sample: number what remains after (a)-(d) 1, 2, 3, ... in frame order and take ranks 1, 2, 3, ... in order. No
  fallback pass: if the frame runs out before STOP_FILES or STOP_PROJECTS, the set is what it gives (said, not widened).
  QUALIFYING, files, cap and check: heldout94's (heldout90's, heldout80's rule, heldout24_select's qualifying check
  and vendored-folder filter) with CAP = 8 per repository, the FIRST 8 in path order: a repository qualifies if at
  least half of its first 10 `.cu` files by path (all if fewer) under its source folder have every `#include` they
  reach resolve in the repository, the CUDA toolkit (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND,
  cuSPARSE, cuSOLVER, cuDNN, NCCL, NVSHMEM headers here) or the host compiler's search path, with the include dirs of
  the project's build; absent third-party headers (torch, pybind11, cutlass/cute when not in the repository, OpenCV,
  Eigen, MPI, OpenBLAS / MKL), generated headers and absent submodules do not resolve, and no stand-in headers are
  taken. Files: `.cu` only under the source folder read from the build files after the fetch and before any measure
  (the whole repository when the build names no single folder), less vendored folders (third_party, 3rdparty,
  external, extern), over the size cap, not resolving, or byte-for-byte copies. Include dirs, defines and flags from
  the project's own build (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left out; the
  project's sm_80/sm_90 arch kept where its kernels need it). Self-contained check: the first three files taken (all
  if fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two (one if it gives
  one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be
  fetched, does not qualify or gives 0 files. Sampled repositories are taken in order until the set holds at least
  STOP_FILES = 40 files or STOP_PROJECTS = 10 projects.
Outcome (21:05-21:12 UTC, before any measure of kernelport): (a) drops KnowingNothing/MatmulTutorial, (b) and (c) none
  (main 1ef554d0, still main's head at 21:12 UTC; the ranks are main's at 21:15); (d) over positions 1-90 (looked in
  frame order, in four batches, each only once the ranks before it fell short of the stop) leaves 27 ranks; much of the
  frame is not CUDA (Laravel, RTL, Ascend, AVX, Fortran, MPI, "matmul-free" LLM repositories), as said. Every rank in
  order: 1 YupengHan 0 (bf16_gemm_v1.cu over the size cap; cutlass_main.cu reaches CUTLASS, absent), 2 tkouya 0,
  3 joennlae 0 (their newest snapshots hold no .cu), 4 tongzhou80 8 (9 of its first 9 resolve), 5 Lonny154 (fetch: no
  snapshot), 6 te42kyfo 0 (4 of 9: cublas_v2.h, magma, ../../cub), 7 eddyabban2 0 (no .cu at its head),
  8 BenjaminW3 0 (0 of 4: mpi.h, alpaka), 9 1shinham1 0 (0 of 10: every file includes cublas_v2.h), 10 gglou 0
  (1 of 10: cublas_v2.h), 11 alexarmbr 7 (7 of 8), 12 Turakar 0 (0 of 7: torch), 13 deepsearock 3 (3 of 4),
  14 inkeaton 4 (4 of 4), 15 ridgerchu 0 (its .cu only under 3rdparty/), 16 lazyprop 1, 17 affjljoo3581 0 (0 of 5:
  torch), 18 akrivx 4 (4 of 4), 19 JohnnyLee15 (no snapshot), 20 asuka158 0 (torch), 21 Najeer-k11 (no snapshot),
  22 cs-giung 0 (its .cu only under third_party/), 23 niharj2 (no snapshot), 24 woodrowb96 3 (3 of 3), 25 Mariiagrm 0
  (1 of 6: cublas / CUTLASS), 26 agostini01 8 (9 of 10), 27 boopdotpng 5 (5 of 6): 43 files, the STOP_FILES stop
  reached with rank 27 (positions 91-100 not needed). (e): none of the nine taken is a copy of another. Check
  (`nvcc -c`, the first three of each, 21:11 UTC): mymatmul 3/3, matmul-playground 3/3, matmul-cuda-deepsea 1/3 (both
  failures are CUDA 13's removed cudaDeviceProp::clockRate / memoryClockRate in include/utils.cuh: kept, as the rule
  says), hpc-matmul 3/3, lazyprop 1/1, cuda-matmul-lab 3/3, woodrow 3/3, jetson-matmul 3/3, boop 3/3: none dropped.
  The set: 43 files in nine projects (mymatmul 8, matmul-playground 7, matmul-cuda-deepsea 3, hpc-matmul 4,
  lazyprop-matmul 1, cuda-matmul-lab 4, matmul-optimization-woodrow 3, jetson-matmul 8, cuda-matmuls-boop 5).
  Caveat: the matmul frame is mostly SGEMM tutorials (naive / tiled / register-blocked / wmma); six ranks fell to
  cuBLAS or torch headers that do not resolve here.
"""
from __future__ import annotations

STOP_FILES, STOP_PROJECTS, CAP = 40, 10, 8
NOT_FETCHED = "(fetch: no snapshot of that repository can be had here)"

# find_repos(name_contains="matmul") at 21:04 UTC, 2026-12-07: the 100 names in listed order
FRAME = [
    "Oxelra-AI/Qiushi-Engine-Matmul-Research",
    "YupengHan/matmul_optimizer",
    "solven-eu/matmulcatalog",
    "tkouya/bncmatmul",
    "nathanwbrei/matmatmult",
    "joennlae/halutmatmul",
    "arbenson/fast-matmul",
    "UOR-Foundation/uor-matmul",
    "tongzhou80/mymatmul",
    "Icyjerry/batchmatmul-maxsum-ascendc",
    "PhotonicGluon/Keras-MatMulLess",
    "RobinGTM/matmul",
    "revaldirahmatmulya/laravel-schooling",
    "priyatam19/mlir-matmul-blas-lowering",
    "cornell-cs5220-f15/matmul-",
    "yj-matmul/practice_coding",
    "tboerstad/agentic_matmul",
    "Lonny154/Matmul-Inspector",
    "VuDaiDuong-325/int8-matmul-accelerator",
    "te42kyfo/skinny_matmul",
    "memyselfandglitch/matmul-to-paged-attention",
    "matmulai/foliolab",
    "happyme531/rknpu2_matmul_open",
    "r-i-g/SmirnovFastMatMul",
    "KnowingNothing/MatmulTutorial",
    "eddyabban2/matmulfreellm",
    "nitishingde/hh3-matmul-demo",
    "alexlopashev/beyond-matmul",
    "BenjaminW3/matmul",
    "PaulBellette/matmul_rank_flow",
    "Mattiwos/ternary_matmul_afu",
    "defending1/fast-matmul",
    "aebarthyi/matmulfree_KRIA",
    "danielamorais/distributed-matmul",
    "1shinham1/CUDA_matmul_opt",
    "gglou/gpu-matmul",
    "alexarmbr/matmul-playground",
    "jyuwaaw/SoC-based-MatMul-Accelerator-and-DNN-Accelerator",
    "Turakar/kernel-matmul",
    "salamatmuldashov/ADS",
    "blueonline07/matmul",
    "LordVoldebug/fastmatmul",
    "tanakamura/matmul-bench",
    "MagicBowen/matmul",
    "danieltyukov/matmul-ppa-testchip",
    "deepsearock/Matmul_cuda",
    "jlylekim/matmul-optim",
    "andrewcampi/in_network_matmul_and_llm_inference",
    "inkeaton/HPC-MATMUL",
    "pgratz1/pcie-matmul-rtl2gds",
    "ridgerchu/matmulfreellm",
    "lazyprop/matmul",
    "salamatmuldashov/pp2",
    "salykova/matmul.c",
    "sparsematmul/Adaptive-DDoS",
    "jweissenberger/FastMatMulNN",
    "josephine-situ/fast-matmul-search",
    "quezak/pwir-mpi-matmul",
    "liubrandon/matmul-AVX512",
    "affjljoo3581/Experiments-PyTorch-CUDA-Extension-for-Sparse-MatMul",
    "akrivx/cuda-matmul-lab",
    "Flash-sheep/moe-matmulfree",
    "IrakliGurgenidze/Matmul",
    "SpencerTSmith/Mixed-Sparse-Format-Matmul-Research",
    "ali-raza-0076/DB_Project_MatMul",
    "oskarweb/MatMultBenchmark",
    "boundless-oceans/batch-matmul-max-sum",
    "Han-16/FastMatMul",
    "olavbm/matmul-benchmark",
    "StevendiwenZhu/matmul_free_accelerator",
    "JohnnyLee15/CUDA-MatMul-Optimization",
    "asuka158/torch_matmul_bench",
    "gha3mi/formatmul",
    "fabP258/FastMatMul",
    "ken-matsui/fast-matmul",
    "Najeer-k11/matmul-free",
    "pebblesandweeds/gpu_matmul",
    "shines77/fast_matmult",
    "aebarthyi/matmulfreellmCPU",
    "cs-giung/matmuls",
    "unsolved-labs/matmul-rank47-local-obstructions",
    "PrabathBK/Systolic_Array_Matmul_for_Gemma3_Acc",
    "niharj2/matmul",
    "daltunay/matmul",
    "revaldirahmatmulya/laravel-arsip-digital-sekolah",
    "woodrowb96/Matmul-Optimization",
    "jinlixiao/matmul",
    "theZiz/matmul",
    "Mariiagrm/Python_Matmul_Benchmark",
    "agostini01/jetson-matmul-benchmark",
    "boopdotpng/cuda-matmuls",
    "matmulmiller/TRANSONIC",
    "DBJDBJ/dbj_matmul",
    "kizilkayaom/riscv-matmul-accel",
    "AntoineTilloy/explicit-matmul-schemes",
    "Bergvca/sp_matmul_rs",
    "Chaalie/hpc-sparse-matmul",
    "mtb0x1/llvm-matmul-intrinsic-with-rust",
    "rahmatmulyadifadillah/TI-B",
    "YuXiang-ZhuanSun/ascend_matmul_tiling_analyzer",
]

# (a): in main's bench/used_repos.txt or a candidate of a bench/*_select.py on main (1ef554d0)
USED_OR_CANDIDATE = ("KnowingNothing/MatmulTutorial",)
# (b): owner NVIDIA / NVlabs / NVIDIA-*, or a copy of NVIDIA/cuda-samples: none in this frame
NVIDIA_OWN: tuple[str, ...] = ()
# (c): in an earlier FRAME list of main's bench/heldout*_select.py: none besides (a)'s
IN_EARLIER_FRAME: tuple[str, ...] = ()
DROP_BY_NAME: dict[str, str] = {r: "(a): used or an earlier set's candidate" for r in USED_OR_CANDIDATE}
DROP_BY_NAME.update({r: "(b): NVIDIA's own or a cuda-samples copy" for r in NVIDIA_OWN})
DROP_BY_NAME.update({r: "(c): in an earlier frame" for r in IN_EARLIER_FRAME})
REMAINING_BEFORE_D = [r for r in FRAME if r not in DROP_BY_NAME]
assert len(FRAME) == 100 and len(REMAINING_BEFORE_D) == 99, len(REMAINING_BEFORE_D)
# (d): find_files(repo=X, ext="cu"), then ext="cuh" where that showed no path; paths only; 21:05-21:09 UTC, after the
# RULE's commit b2a3358f, in frame order, positions 1-34 (before any fetch: the first ten ranks). "cu" / "cuh": paths
# shown; "-": both showed none (dropped). solven-eu/matmulcatalog's looks said "more files matched than are listed"
# with zero paths shown, for both extensions: the rule reads the zero paths as written (heldout90's reading) and drops it.
CUDA_LOOK = {
    "Oxelra-AI/Qiushi-Engine-Matmul-Research": "-", "YupengHan/matmul_optimizer": "cu", "solven-eu/matmulcatalog": "-",
    "tkouya/bncmatmul": "cu", "nathanwbrei/matmatmult": "-", "joennlae/halutmatmul": "cu", "arbenson/fast-matmul": "-",
    "UOR-Foundation/uor-matmul": "-", "tongzhou80/mymatmul": "cu", "Icyjerry/batchmatmul-maxsum-ascendc": "-",
    "PhotonicGluon/Keras-MatMulLess": "-", "RobinGTM/matmul": "-", "revaldirahmatmulya/laravel-schooling": "-",
    "priyatam19/mlir-matmul-blas-lowering": "-", "cornell-cs5220-f15/matmul-": "-", "yj-matmul/practice_coding": "-",
    "tboerstad/agentic_matmul": "-", "Lonny154/Matmul-Inspector": "cu", "VuDaiDuong-325/int8-matmul-accelerator": "-",
    "te42kyfo/skinny_matmul": "cu", "memyselfandglitch/matmul-to-paged-attention": "-", "matmulai/foliolab": "-",
    "happyme531/rknpu2_matmul_open": "-", "r-i-g/SmirnovFastMatMul": "-", "eddyabban2/matmulfreellm": "cu",
    "nitishingde/hh3-matmul-demo": "-", "alexlopashev/beyond-matmul": "-", "BenjaminW3/matmul": "cu",
    "PaulBellette/matmul_rank_flow": "-", "Mattiwos/ternary_matmul_afu": "-", "defending1/fast-matmul": "-",
    "aebarthyi/matmulfree_KRIA": "-", "danielamorais/distributed-matmul": "-", "1shinham1/CUDA_matmul_opt": "cu",
    "gglou/gpu-matmul": "cu",
    # positions 35-49, looked up at 21:15-21:17 UTC (the first ten ranks gave 8 files: the sampling needed more); no
    # fetch of these before the look. alexarmbr's .cu look was made with under="src" (it showed paths: counts as shown)
    "alexarmbr/matmul-playground": "cu", "jyuwaaw/SoC-based-MatMul-Accelerator-and-DNN-Accelerator": "-",
    "Turakar/kernel-matmul": "cu", "salamatmuldashov/ADS": "-", "blueonline07/matmul": "-",
    "LordVoldebug/fastmatmul": "-", "tanakamura/matmul-bench": "-", "MagicBowen/matmul": "-",
    "danieltyukov/matmul-ppa-testchip": "-", "deepsearock/Matmul_cuda": "cu", "jlylekim/matmul-optim": "-",
    "andrewcampi/in_network_matmul_and_llm_inference": "-", "inkeaton/HPC-MATMUL": "cu",
    # positions 50-61, looked up after ranks 11-14 were taken (22 files in 4 projects: the sampling needed more)
    "pgratz1/pcie-matmul-rtl2gds": "-", "ridgerchu/matmulfreellm": "cu", "lazyprop/matmul": "cu",
    "salamatmuldashov/pp2": "-", "salykova/matmul.c": "-", "sparsematmul/Adaptive-DDoS": "-",
    "jweissenberger/FastMatMulNN": "-", "josephine-situ/fast-matmul-search": "-", "quezak/pwir-mpi-matmul": "-",
    "liubrandon/matmul-AVX512": "-", "affjljoo3581/Experiments-PyTorch-CUDA-Extension-for-Sparse-MatMul": "cu",
    "akrivx/cuda-matmul-lab": "cu",
    # positions 62-90, looked up after ranks 15-18 were taken (27 files in 6 projects: the sampling needed more)
    "Flash-sheep/moe-matmulfree": "-", "IrakliGurgenidze/Matmul": "-",
    "SpencerTSmith/Mixed-Sparse-Format-Matmul-Research": "-", "ali-raza-0076/DB_Project_MatMul": "-",
    "oskarweb/MatMultBenchmark": "-", "boundless-oceans/batch-matmul-max-sum": "-", "Han-16/FastMatMul": "-",
    "olavbm/matmul-benchmark": "-", "StevendiwenZhu/matmul_free_accelerator": "-",
    "JohnnyLee15/CUDA-MatMul-Optimization": "cu", "asuka158/torch_matmul_bench": "cu", "gha3mi/formatmul": "-",
    "fabP258/FastMatMul": "-", "ken-matsui/fast-matmul": "-", "Najeer-k11/matmul-free": "cu",
    "pebblesandweeds/gpu_matmul": "-", "shines77/fast_matmult": "-", "aebarthyi/matmulfreellmCPU": "-",
    "cs-giung/matmuls": "cu", "unsolved-labs/matmul-rank47-local-obstructions": "-",
    "PrabathBK/Systolic_Array_Matmul_for_Gemma3_Acc": "-", "niharj2/matmul": "cu", "daltunay/matmul": "-",
    "revaldirahmatmulya/laravel-arsip-digital-sekolah": "-", "woodrowb96/Matmul-Optimization": "cu",
    "jinlixiao/matmul": "-", "theZiz/matmul": "-", "Mariiagrm/Python_Matmul_Benchmark": "cu",
    "agostini01/jetson-matmul-benchmark": "cu", "boopdotpng/cuda-matmuls": "cu",
}
assert list(CUDA_LOOK) == REMAINING_BEFORE_D[:len(CUDA_LOOK)], "the looks go in frame order"
NO_CUDA_FILES = frozenset(r for r, v in CUDA_LOOK.items() if v == "-")


def ranked() -> list[str]:
    """The repositories left after (a)-(d), in frame order: rank k is ranked()[k - 1] (as far as the looks went)."""
    return [r for r in CUDA_LOOK if r not in NO_CUDA_FILES]


def sample() -> list[str]:
    """Every rank 1, 2, 3, ... in order (this set's own frame)."""
    return ranked()


# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder) of each sampled
# repository, in sample() order: filled in after the fetch, from each build, before any measure.
NO_CU_AT_HEAD = "(its newest snapshot holds no .cu: 0 files)"
CANDIDATES = [
    # CMakeLists.txt: src/kernels/bf16_gemm_v1.cu with include/, CUDA 17, CUDA_ARCHITECTURES 86 by default, -lineinfo;
    # src/runner/cutlass_main.cu only with ENABLE_CUTLASS_RUNNER (CUTLASS fetched at configure time: absent)
    ("matmul-optimizer", "YupengHan/matmul_optimizer", "(none in the repository)", [], ["include"], [],
     ["-std=c++17", "-lineinfo", "-arch=sm_86"], "src/"),
    ("bncmatmul", "tkouya/bncmatmul", NO_CU_AT_HEAD, ["LICENSE"], [], [], ["-std=c++17"], ""),
    ("halutmatmul", "joennlae/halutmatmul", NO_CU_AT_HEAD, ["LICENSE.txt"], [], [], ["-std=c++17"], ""),
    # mymatmul/gpu/_pycuda_loader.py: nvcc -arch=sm_89 -O3 --std=c++17 --cubin each .cu alone; sources under
    # mymatmul/gpu/ (hopper/ and blackwell/ kernels ask sm_90a / sm_100a in their own headers' comments; the loader's
    # sm_89 kept as the build says)
    ("mymatmul", "tongzhou80/mymatmul", "(none in the repository)", [], [], [], ["-std=c++17", "-O3", "-arch=sm_89"],
     "mymatmul/gpu/"),
    ("matmul-inspector", "Lonny154/Matmul-Inspector", NOT_FETCHED, [], [], [], [], ""),
    # Makefile: nvcc -std=c++11 -O3 -arch=sm_60 (below CUDA 13's minimum: left out) with -DPARM=1 -DPARN=1
    # -DTSMTTSM=1 -DDR=1 -DFIX3 -DFIX_FB -DCUBLAS -DVERBOSE_ERRORS (its GIT_BRANCH_NAME define left out: a shell
    # command's output); microbenches/ and svqb/ have their own Makefiles: the whole repository
    ("skinny-matmul", "te42kyfo/skinny_matmul", "(none in the repository)", [], [],
     ["PARM=1", "PARN=1", "TSMTTSM=1", "DR=1", "FIX3", "FIX_FB", "CUBLAS", "VERBOSE_ERRORS"], ["-std=c++17", "-O3"], ""),
    ("matmulfreellm-eddy", "eddyabban2/matmulfreellm", NO_CU_AT_HEAD, ["LICENSE"], [], [], ["-std=c++17"], ""),
    # benchmark/CMakeLists.txt + cmake/common.cmake: include/, sources src/ (src/par/*.cu: alpaka's and CUDA's)
    ("benjaminw3-matmul", "BenjaminW3/matmul", "LGPL-3.0", ["COPYING", "COPYING.LESSER"], ["include"], [],
     ["-std=c++17"], "src/"),
    # two folders, each its own Makefile (CUDA_matmul_opt/: -arch=sm_89 -I include -lineinfo -Xcompiler -fopenmp;
    # FlashAttention-implementation/: -std=c++20 -O3 -I. -Iinclude -Isrc): the whole repository, the first's flags
    ("cuda-matmul-opt", "1shinham1/CUDA_matmul_opt", "(none in the repository)", [],
     ["CUDA_matmul_opt/include", "FlashAttention-implementation", "FlashAttention-implementation/include",
      "FlashAttention-implementation/src"], [], ["-std=c++17", "-lineinfo", "-arch=sm_89", "-Xcompiler", "-fopenmp"], ""),
    # Justfile: nvcc -O3 -I./src -arch=sm_120 src/run_<kernel>.cu with benchmark.cu utils.cu cublas_matmul.cu
    ("gpu-matmul", "gglou/gpu-matmul", "(none in the repository)", [], ["src"], [], ["-std=c++17", "-O3", "-arch=sm_120"],
     "src/"),
    # CMakeLists.txt: GLOB src/kernel*.cu (the kernels library) plus src/cublas_benchmark.cu and src/main.cu, CXX 17,
    # CUDA_ARCHITECTURES 75, --expt-relaxed-constexpr --generate-line-info; sources under src/
    ("matmul-playground", "alexarmbr/matmul-playground", "(none in the repository)", [], [], [],
     ["-std=c++17", "--expt-relaxed-constexpr", "-lineinfo", "-arch=sm_75"], "src/"),
    # kernel_matmul/compile.py: torch.utils.cpp_extension.load of native/common plus native/<name>/ sources with
    # -DKM_* defines chosen per configuration at run time (none fixed), -O3; sources under native/
    ("kernel-matmul", "Turakar/kernel-matmul", "(none in the repository)", [], ["native"], [], ["-std=c++17", "-O3"],
     "native/"),
    # CMakeLists.txt: src/{comparison,cpu,cublas,error}.cu each an executable, include/, CUDA_ARCHITECTURES 70 (below
    # CUDA 13's minimum: left out), -O3 -Xptxas -dlcm=ca --use_fast_math -lineinfo
    ("matmul-cuda-deepsea", "deepsearock/Matmul_cuda", "(none in the repository)", [], ["include"], [],
     ["-std=c++17", "-O3", "--use_fast_math", "-lineinfo"], "src/"),
    # Makefile builds only the C / OpenMP / MPI programs; the .cu files (src/, src/templates/, src/tests/cuda/) have no
    # build: plain nvcc, the whole repository
    ("hpc-matmul", "inkeaton/HPC-MATMUL", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # its newest snapshot's only .cu lie under 3rdparty/ (vendored: not taken)
    ("matmulfreellm-ridgerchu", "ridgerchu/matmulfreellm", NO_CU_AT_HEAD, ["LICENSE"], [], [], ["-std=c++17"], ""),
    # Makefile: nvcc -O3 -std=c++17 gpu.cu
    ("lazyprop-matmul", "lazyprop/matmul", "(none in the repository)", [], [], [], ["-std=c++17", "-O3"], ""),
    # sparse/kernel.py: torch.utils.cpp_extension.load of sparse/native/*.cc / *.cu, -U__CUDA_NO_HALF_OPERATORS__;
    # no single folder at the head (native/, sparse/native/, the root): the whole repository
    ("sparse-matmul-ext", "affjljoo3581/Experiments-PyTorch-CUDA-Extension-for-Sparse-MatMul", "(none in the repository)",
     [], [], [], ["-std=c++17", "-U__CUDA_NO_HALF_OPERATORS__"], ""),
    # CMakeLists.txt: src/kernels/*.cu in the cuda_matmul_lab library, include/ and src/, CUDA 20 (CXX 23),
    # CUDA_ARCHITECTURES left to the user (native)
    ("cuda-matmul-lab", "akrivx/cuda-matmul-lab", "MIT", ["LICENSE"], ["include", "src"], [], ["-std=c++20"],
     "src/kernels/"),
    ("cuda-matmul-opt-johnny", "JohnnyLee15/CUDA-MatMul-Optimization", NOT_FETCHED, [], [], [], [], ""),
    # its one .cu includes torch / ATen and the vendored CUTLASS (third_party/): a PyTorch extension
    ("torch-matmul-bench", "asuka158/torch_matmul_bench", "(none in the repository)", [],
     ["dots3_gemm_mxfp8_bench/third_party/cutlass/include"], [], ["-std=c++17"], "dots3_gemm_mxfp8_bench/"),
    ("matmul-free-najeer", "Najeer-k11/matmul-free", NOT_FETCHED, [], [], [], [], ""),
    # its newest snapshot's only .cu lies under third_party/ (vendored: not taken)
    ("matmuls-csgiung", "cs-giung/matmuls", NO_CU_AT_HEAD, ["LICENSE"], [], [], ["-std=c++17"], ""),
    ("matmul-niharj2", "niharj2/matmul", NOT_FETCHED, [], [], [], [], ""),
    # CMakeLists.txt: src/*.cu, include/, CUDA 17, CUDA_ARCHITECTURES 75
    ("matmul-optimization-woodrow", "woodrowb96/Matmul-Optimization", "(none in the repository)", [], ["include"], [],
     ["-std=c++17", "-arch=sm_75"], "src/"),
    # no single build: each folder's cuda_executor.sh / ejecutador.sh runs nvcc -O3 -arch=sm_89 -lcublas on its .cu
    # (the cute folder with a CUTLASS checkout, absent): the whole repository
    ("python-matmul-bench", "Mariiagrm/Python_Matmul_Benchmark", "(none in the repository)", [], [], [],
     ["-std=c++17", "-O3", "-arch=sm_89"], ""),
    # CMakeLists.txt (+ src/kernels/*/CMakeLists.txt): include/, CUDA_ARCHITECTURES 87, -O3, USE_OPENMP; sources src/
    ("jetson-matmul", "agostini01/jetson-matmul-benchmark", "(none in the repository)", [], ["include"], ["USE_OPENMP"],
     ["-std=c++17", "-O3", "-arch=sm_87"], "src/"),
    # Makefile: nvcc -gencode arch=compute_120,code=sm_120 -I utils/ -O3 -use_fast_math; the whole repository
    ("cuda-matmuls-boop", "boopdotpng/cuda-matmuls", "MIT", ["LICENSE"], ["utils"], [],
     ["-std=c++17", "-O3", "-use_fast_math", "-arch=sm_120"], ""),
]
DROPPED: frozenset[str] = frozenset()


def first_by_path(files: list[str]) -> list[str]:
    return files[:CAP]


if __name__ == "__main__":  # heldout24's qualifying check and loop, with this rule's cap (the first 8 by path)
    import heldout24_select as h24
    from heldout24_select import write_set
    assert [c[1] for c in CANDIDATES] == sample()[:len(CANDIDATES)], "CANDIDATES must follow sample() order"
    h24.spaced = first_by_path
    write_set("ninety-seventh", "heldout97", [c for c in CANDIDATES if c[2] not in (NOT_FETCHED, NO_CU_AT_HEAD)],
              DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
