#!/usr/bin/env python3
"""How the eighty-ninth held-out set (bench/heldout89.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout89_select.py      # -> bench/heldout89.toml

RULE, written and committed (h/heldout89, 13:09 UTC, commit dbc90994) before any repository was fetched or measured and before any
file listing was looked up. Not a domain: a SYSTEMATIC SAMPLE of what users bring (stop 61's method, heldout85's
template). The frame is the stored index's repository listing `find_repos(name_contains="parallel")`, called at
13:09 UTC on 2026-12-07: 100 repositories, highest file_versions first, recorded below (FRAME) in the listed order
(the listing said more may match; the 100 listed are the frame).
  Drops, by name and listing alone (no file's text read, nothing fetched), recorded in DROP_BY_NAME / NO_CUDA_FILES:
    a. a repository in bench/used_repos.txt or named by an earlier bench/*_select.py RULE (main's and this stop's
       sibling worktrees heldout86 / heldout87 / heldout88): none in this frame;
    b. NVIDIA's own repositories (owner NVIDIA or NVlabs) and forks / copies of NVIDIA/cuda-samples (by name): none;
    c. a name containing an earlier frame's string "cuda-", "gpu-", "cuda_", "-cuda", "gpu_" or an earlier sibling's
       string this stop "_gpu" (heldout86), "-gpu" (heldout87), "hpc" (heldout88), case-insensitive:
       VictorEijkhout/TheArtOfHPC_vol2_parallelprogramming ("hpc");
    d. a repository whose stored listing shows no CUDA source: `find_files(repo=X, ext="cu")` and
       `find_files(repo=X, ext="cuh")` both return zero paths (a look at paths only; recorded in NO_CUDA_FILES after
       this commit and before any fetch);
    e. course project templates count once: the first such repository in frame order stays, its siblings (the same
       assignment, other students / years) drop. By name: learning-process/parallel_programming_course,
       parallel101/course, canbula/ParallelProgramming and libbyshoop/csinparallel are courses with no sibling in this
       frame: they stay. Two names repeat a repository name: mindspore-ai/hyper-parallel (rank 2) and
       zhangfeiran/hyper-parallel (rank 84), rwl/ParallelColt (rank 41) and chenting0615/ParallelColt (rank 59): a
       name alone does not make a fork, so they stay; a taken repository whose taken files are byte-for-byte those
       of one taken before it (a fork) adds nothing (heldout80's rule).
  Sample: number the remaining repositories 1, 2, 3, ... in frame order; take ranks 1, 5, 9, ... (every 4th
  starting with the 1st), in order; while the set holds too few, continue with ranks 3, 7, 11, ..., then ranks
  2, 6, 10, ..., then ranks 4, 8, 12, ... (each every 4th, in order).
  QUALIFYING, files, cap and check: heldout85's (heldout80's rule, heldout24_select's qualifying check and
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
  STOP_FILES = 40 files or STOP_PROJECTS = 10 projects. If the frame is too thin to reach either, the set is what
  the four passes give: the rule is not widened after this commit.
Outcome of the drops and the passes (13:09-13:17 UTC, before any measure of kernelport): 1 repository dropped by name
  (c), 92 by the path look (d: Java/Rust/JS/Julia/Python/Fortran projects, crypto, cluster tooling...; 7 of those looks
  were truncated listings showing zero paths, named above NO_CUDA_FILES), 7 remain, numbered in frame order:
    1 absrocks/Alya-parallel-level  2 skywxlker-ops/TensorParallelismBeta  3 parallel101/course
    4 YongleEncyclopedia/parallel-global-stiffness-assembly-research-and-implementation
    5 blacksherry0831/slicOutDoorParallelCollection.Spiral  6 parallelcodefoundry/ParEval-Repo  7 libbyshoop/csinparallel
  THE FRAME IS THIN: 7 repositories with CUDA source, so the four passes take all seven, in the order 1, 5, 3, 7, 2, 6, 4.
  First pass (ranks 1, 5): Alya 0 (4 of its first 10 resolve: its .cu are all vendored libraries under Thirdparties/,
  reaching MPI, AMGX, cuBLAS, cuSPARSE, NVIDIA IndeX), slic-outdoor 2 (2 of 2; SlicKernel.cu does not resolve). Second
  pass (3, 7): parallel101/course 8 (7 of 10; the first 8 by path are lesson 08/00_hello/01-08), csinparallel 8 (8 of
  10; dev/ and modules/ hold byte copies of some, counted once). Third pass (2, 6): TensorParallelismBeta 8 (10 of 10,
  DTensor/MyBlas/examples/*), ParEval-Repo 8 (6 of 10: XSBench's six and microXOR's two, copies of the benchmarks the
  ParEval study ports). Fourth pass (4): stiffness-assembly 7 (7 of 7): 41 files, past STOP_FILES. Check (`nvcc -c`, the
  first three, 13:15 UTC): 2/2, 3/3, 3/3, tensor-parallelism 3/3 with its build's -arch=sm_86 (mma .m16n8k16 needs
  sm_80), pareval 3/3, stiffness 3/3: none dropped. The set: 41 files in six projects (slic-outdoor 2, parallel101 8,
  csinparallel 8, tensor-parallelism 8, pareval-repo 8, stiffness-assembly 7). Caveats, said and not acted on:
  parallel101's 8 are one lesson's successive hello-world steps; csinparallel's are teaching modules; ParEval-Repo's
  targets are copies of XSBench and microXOR (not in bench/used_repos.txt); tensor-parallelism's 8 are MyBlas's
  examples (repro programs), not its library kernels.
The set is measured on this branch's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout89_before.txt, Debian ROCm 5.2 alone, and bench/scoreboard_heldout89_before_rocmlibs.txt,
with rocThrust + hipCUB rocm-5.3.3).
"""
from __future__ import annotations

STOP_FILES, STOP_PROJECTS, CAP = 40, 10, 8
NOT_FETCHED = "(fetch: no snapshot of that repository can be had here)"

# find_repos(name_contains="parallel") at 13:09 UTC, 2026-12-07: the 100 names in listed order
FRAME = [
    "onparallel/parallel-claude-test",
    "mindspore-ai/hyper-parallel",
    "astubbs/parallel-consumer",
    "onparallel/typed-typst",
    "orxfun/orx-parallel",
    "yshaaban/parallel-code",
    "Parallel-in-Time/pySDC",
    "absrocks/Alya-parallel-level",
    "aws/aws-parallelcluster-cookbook",
    "aws/aws-parallelcluster",
    "quazirafi/Parallel-Non-Parallel-Files",
    "ParallelCoinTeam/parallelcoin",
    "Clar17y/parallel-forge",
    "Parallels/prl-devops-service",
    "NaokiEto/Parallel_Computing",
    "jzvcpe-goat/parallel-universe-novel",
    "JuliaParallel/Dagger.jl",
    "Parallel-NetCDF/PnetCDF",
    "pimpcapital/ParallelGit",
    "parallel-finance/paraspace-core",
    "Algebraic-Programming/OneStopParallel",
    "5dlabs/cto-parallel-test",
    "parallelno/v6llvmc",
    "selmetwa/parallel-arabic",
    "Parallel-Solutions/mailing-agent",
    "ixiaoyy/ParallelLines",
    "KommuSoft/ParallelHyFlex",
    "amphp/parallel",
    "ameritusweb/ParallelReverseAutoDiff",
    "kyungminlee/epblas-parallel",
    "confluentinc/parallel-consumer",
    "parallel-p/please",
    "JuliaParallel/PETSc.jl",
    "skywxlker-ops/TensorParallelismBeta",
    "Reimnop/ParallelAnimationSystem",
    "matsim-vsp/parallel_qsim_rust",
    "parallel101/course",
    "libretro/parallel-n64",
    "Parallelogramist/game",
    "parallel-domain/pd-sdk",
    "rwl/ParallelColt",
    "limengzhe27-boop/parallel-life",
    "parallel-studio/ParallelStudioPrismic",
    "blaeser/parallelchecker",
    "MateiMirica/LLVM-Parallelization",
    "parallelbgls/Modbus.Net",
    "canbula/ParallelProgramming",
    "Parallel-Development/Parallel",
    "kasper0406/parallel-ss-dep",
    "LostInHustle/PortMasters2.2-Parallel-Release",
    "KomplexKapharnaum/KXKM_Batterie_Parallelator",
    "RcppCore/RcppParallel",
    "parallelpro/yrec",
    "miadisabelle/mia-parallel-code",
    "aiparallel0/Web-and-Desktop-Apps",
    "parallelinc/laravel-data-json-schemas",
    "parallella/pal",
    "learning-process/parallel_programming_course",
    "chenting0615/ParallelColt",
    "parallelworks/foundation",
    "mistraparutenaste/Parallel-World-AIPartner",
    "paralleldrive/aidd",
    "parallelno/Vector06c",
    "parallel-finance/parallel",
    "ParallelMC/ParallelUtils",
    "langxin11/parallel_gripper_tactile",
    "isakkouty/SmartParallel",
    "JuliaParallel/MPI.jl",
    "chenghaoYang/parallel-search-skill",
    "YongleEncyclopedia/parallel-global-stiffness-assembly-research-and-implementation",
    "maurociancio/parallel-editor",
    "suhaibo666/autoparallel",
    "komorowskilab/Parallel-ROSETTA",
    "VictorEijkhout/TheArtOfHPC_vol2_parallelprogramming",
    "parallelworks/interactive_session",
    "Parallel-news/Permacast-v2.5",
    "KSXGitHub/parallel-disk-usage",
    "ParallelStudios1/realtor-portal",
    "parallel32/ncdd",
    "emiliobresolin/parallel-truth-fingerprint-prototype",
    "blacksherry0831/slicOutDoorParallelCollection.Spiral",
    "parallelno/Devector",
    "zhangfeiran/hyper-parallel",
    "parallelcodefoundry/ParEval-Repo",
    "tuda-parallel/FTIO",
    "AlchemistXC/ParallelBayes",
    "Parallel-in-Time/PFASST",
    "djeada/Parallel-And-Concurrent-Programming",
    "EslamAdel/OpenCLParallelRendering",
    "demiangomez/Parallel.GAMIT",
    "parallelsio/core-modules",
    "mood-agency/a-parallel",
    "parallel-web/parallel-cookbook",
    "functionally/infovis-parallel",
    "aiparallel0/kaggle2",
    "parallelogram-dev/parallelogram-js",
    "annamel/acroparallels2016",
    "libbyshoop/csinparallel",
    "natnael340/llm-parallel-bench",
    "IVCenter/ParallelRaytracing",

]

DROP_BY_NAME = {
    "VictorEijkhout/TheArtOfHPC_vol2_parallelprogramming": "(c): its name holds 'hpc' (heldout88's frame, this stop)",
}
# repositories whose stored listing shows no .cu and no .cuh (find_files ext=cu and ext=cuh, paths only, 13:10-13:17 UTC,
# after the RULE's commit dbc90994 and before any fetch): 92 of the 99 left after DROP_BY_NAME. For 7 of them
# the look said "more files matched than are listed" with zero paths shown (onparallel/parallel-claude-test, Parallel-in-Time/pySDC, aws/aws-parallelcluster, ParallelCoinTeam/parallelcoin, NaokiEto/Parallel_Computing, Parallel-NetCDF/PnetCDF, ameritusweb/ParallelReverseAutoDiff):
# the rule reads the zero paths as written (no CUDA source shown) and drops them; said, not acted on.
# the 7 whose look showed .cu paths (all others of the 99 showed none, .cuh included): NO_CUDA_FILES is the rest
CUDA_SHOWN = (
    "absrocks/Alya-parallel-level",
    "skywxlker-ops/TensorParallelismBeta",
    "parallel101/course",
    "YongleEncyclopedia/parallel-global-stiffness-assembly-research-and-implementation",
    "blacksherry0831/slicOutDoorParallelCollection.Spiral",
    "parallelcodefoundry/ParEval-Repo",
    "libbyshoop/csinparallel",
)
NO_CUDA_FILES: frozenset[str] = frozenset(FRAME) - set(DROP_BY_NAME) - set(CUDA_SHOWN)


def remaining() -> list[str]:
    return [r for r in FRAME if r not in DROP_BY_NAME and r not in NO_CUDA_FILES]


def sample() -> list[str]:
    """The sampled repositories in the order they are taken: ranks 1, 5, 9, ... then 3, 7, ..., 2, 6, ..., 4, 8, ..."""
    rest = remaining()
    return rest[0::4] + rest[2::4] + rest[1::4] + rest[3::4]


# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder) of each sampled
# repository, in sample() order: include dirs, defines and flags from each project's own build, read after the
# fetch and before any measure. A repository `fetch` could not bring is listed with NOT_FETCHED.
CANDIDATES = [
    # Alya (Fortran): its .cu all lie under Thirdparties/ and Utils/Thirdparties/ (PLEPP, ninja, inviz); whole tree
    ("alya", "absrocks/Alya-parallel-level", "(see the repository)", [], [], [], ["-std=c++17"], ""),
    # trunk/ProjectCode/SGVcode/CuiLib/CMakeLists.txt: ADD_SUBDIRECTORY(cudaLib) if NEED_CUDA; no CUDA flags
    ("slic-outdoor", "blacksherry0831/slicOutDoorParallelCollection.Spiral", "(none in the repository)", [], [], [],
     ["-std=c++17"], "trunk/ProjectCode/SGVcode/CuiLib/cudaLib/"),
    # each lesson's CMakeLists.txt: CMAKE_CXX_STANDARD 17, include dirs . and ../../include, CUDA options
    # --extended-lambda --expt-relaxed-constexpr (08/10_stencil and later); no single folder: the whole repository
    ("parallel101", "parallel101/course", "see LICENSE", ["LICENSE"], [], [],
     ["-std=c++17", "--extended-lambda", "--expt-relaxed-constexpr"], ""),
    # per-module Makefiles: NVCCFLAGS -O2 -DNO_DEBUG; no single folder: the whole repository
    ("csinparallel", "libbyshoop/csinparallel", "(none in the repository)", [], [], ["NO_DEBUG"], ["-std=c++17", "-O2"],
     ""),
    # DTensor/Makefile: NVCC_FLAGS -std=c++17 -Xcompiler -fPIC -O3 -g -G -arch=sm_86 (kept: not below CUDA 13's
    # minimum; -g -G device debug left out), -I . tensor process_group dnn memory bridge Tensor-Implementations/include; DTensor/MyBlas/Makefile
    # -Iinclude; sources under DTensor/
    ("tensor-parallelism", "skywxlker-ops/TensorParallelismBeta", "(none in the repository)", [],
     ["DTensor", "DTensor/tensor", "DTensor/process_group", "DTensor/dnn", "DTensor/memory", "DTensor/bridge",
      "DTensor/Tensor-Implementations/include", "DTensor/MyBlas/include"], [],
     ["-std=c++17", "-Xcompiler", "-fPIC", "-O3", "-arch=sm_86"], "DTensor/"),
    # targets/*/cuda/repo/Makefile (each target's own): -std=c++14 (-> 17) -O3, microXOR(h) -I include, SimpleMOC
    # include/, -arch=sm_$(SM_VERSION) / $(CUDA_ARCH), both sm_80 by default (kept); the CUDA targets under targets/
    ("pareval-repo", "parallelcodefoundry/ParEval-Repo", "(none at the root; llm.c's MIT LICENSE in its target)",
     ["targets/llm.c/cuda/repo/LICENSE"],
     ["targets/microXOR/cuda/repo/include", "targets/microXORh/cuda/repo/include",
      "targets/SimpleMOC-kernel/cuda/repo/include"], [], ["-std=c++17", "-O3", "-arch=sm_80"], "targets/"),
    # parallel_global_stiffness_assembly/cpu_parallel_stiffness_assembly/CMakeLists.txt: include dir include/
    ("stiffness-assembly", "YongleEncyclopedia/parallel-global-stiffness-assembly-research-and-implementation",
     "(none in the repository)", [], ["parallel_global_stiffness_assembly/cpu_parallel_stiffness_assembly/include"],
     [], ["-std=c++17"], ""),
]
DROPPED: frozenset[str] = frozenset()


def first_by_path(files: list[str]) -> list[str]:
    return files[:CAP]


if __name__ == "__main__":  # heldout24's qualifying check and loop, with this rule's cap (the first 8 by path)
    import heldout24_select as h24
    from heldout24_select import write_set
    assert [c[1] for c in CANDIDATES] == sample()[:len(CANDIDATES)], "CANDIDATES must follow sample() order"
    h24.spaced = first_by_path
    write_set("eighty-ninth", "heldout89", [c for c in CANDIDATES if c[2] != NOT_FETCHED], DROPPED,
              stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
