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
Outcome: (filled in after the commit of this RULE, before any measure of kernelport)
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
