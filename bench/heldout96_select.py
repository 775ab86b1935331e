#!/usr/bin/env python3
"""How the ninety-sixth held-out set (bench/heldout96.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout96_select.py      # -> bench/heldout96.toml

RULE, written and committed (h/heldout96, 28871016 at 18:26:44 UTC) before any repository was fetched or measured and before
any file listing was looked up. Not a domain: a SYSTEMATIC SAMPLE (stop 61's method; bench/heldout90_select.py's
template, stop 64's drops). The frame is the stored index's repository listing `find_repos(name_contains="gemm")`,
called at 18:26 UTC on 2026-12-07: 100 repositories, highest file_versions first, recorded below (FRAME) in the
listed order (the listing said more may match; the 100 listed are the frame). The frame is THIN: by name most of
it is "gemma" (the LLM) applications, "gemmi", "gemmini" (a RISC-V accelerator) and people's names, which drop (d)
removes; the rule is not widened for that. heldout96 takes EVERY rank (its own frame; the siblings heldout94/95 share
the "flash-att" frame).
  Drops, each repository given the first reason that applies, ranks counted ONCE on a list that depends only on main
  (commit cfb870fc) and the frame, never on a sibling's progress:
    a. a repository in main's bench/used_repos.txt or a candidate of any bench/*_select.py on main:
       LeiWang1999/tvm_gpu_gemm (used; heldout85's set);
    b. NVIDIA's own (owner NVIDIA, NVlabs, NVIDIA-*) and copies of NVIDIA/cuda-samples: none in this frame;
    c. a repository that appears in any earlier frame (every FRAME list in main's bench/heldout*_select.py): none
       besides tvm_gpu_gemm (already (a)). Stop 63's string drops are replaced by this membership drop: a repository
       outside the earlier frames' 100 listed names was never eligible there, so it is unseen;
    d. no `.cu`/`.cuh` in its stored listing: `find_files(repo=X, ext="cu")` and, where that shows no path,
       `find_files(repo=X, ext="cuh")` both show zero paths (paths only; recorded in NO_CUDA_FILES / CUDA_SHOWN after
       this commit and before any fetch). Because this set takes every rank in order, the look is made in frame order
       only as far as the sampling needs (ranks past the stop are not needed to number the ones before it);
    e. forks/copies: a repository whose taken files are byte-for-byte those of one taken before it adds nothing.
  Sample: number what remains 1, 2, 3, ... in frame order and take ranks 1, 2, 3, ... in order. No fallback pass.
  QUALIFYING, files, cap and check: heldout90's (heldout80's rule, heldout24_select's qualifying check and
  vendored-folder filter) with CAP = 8 per repository, the FIRST 8 in path order: a repository qualifies if at least
  half of its first 10 `.cu` files by path (all if fewer) under its source folder have every `#include` they reach
  resolve in the repository, the CUDA toolkit (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND,
  cuSPARSE, cuSOLVER, NCCL, NVSHMEM headers here) or the host compiler's search path, with the include dirs of the
  project's build; absent third-party headers (OpenCV, Qt, torch, Eigen, MPI, GL, CUTLASS when not in the
  repository), generated headers and absent submodules do not resolve, and no stand-in headers are taken. Files:
  `.cu` only under the source folder read from the build files after the fetch and before any measure (the whole
  repository when the build names no single folder), less vendored folders (third_party, 3rdparty, external,
  extern), over the size cap, not resolving, or byte-for-byte copies. Include dirs, defines and flags from the
  project's own build (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left out). Self-contained
  check: the first three files taken (all if fewer) are compiled with `nvcc -c` and the project's flags; a project of
  which fewer than two (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out
  (DROPPED), as does one that cannot be fetched, does not qualify or gives 0 files. Sampled repositories are taken in
  order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 10 projects; if the frame runs out
  first, the set is what it gives (said, not widened).
Outcome of the drops and the sampling (18:27-18:30 UTC, before any measure of kernelport): 1 repository dropped by
  (a) (LeiWang1999/tvm_gpu_gemm), none by (b) or (c); (d) leaves 9 of the 99 (CUDA_SHOWN): the frame is THIN, as
  said (Flutter/React/Python "gemma" apps, Gemmini RTL, crystallography, a Minecraft plugin...). Every rank:
  1 lighttransport/gemm 8 (7 of its first 10 resolve; cuda/gemm's CUTLASS and cuda/llm/mmq's vendor tests do not),
  2 pytorch/FBGEMM 0 (torch / ATen), 3 bytedance-iaas/AsymGEMM 0 (torch, CUTLASS submodule), 4 mmastrac/diffgemma 0
  (its newest snapshot holds no .cu), 5 david-t-martel/gemma-cpp-enhanced 2, DROPPED by the check (1 of 2 compile),
  6 ajou-aisa/llama.cpp-gemmini 0 (ggml-cuda's vendors/cuda.h includes cublas_v2.h), 7 Teeeio/Acagemm (fetch: no
  snapshot), 8 AichenF/DeepGEMM 0 and 9 Schilings/DeepGEMM 0 (deep_gemm's headers include CUTLASS / cute, a submodule
  absent). Check (`nvcc -c`, the first three of lt-gemm): 3/3. The frame runs out short of STOP_FILES and
  STOP_PROJECTS: the set is 8 files in ONE project (lt-gemm: a flash-attention-2 kernel file and seven llama.cpp-style
  quantised MMQ test drivers), not widened. Caveat: one project is a thin sample of "gemm" code; its figure says
  little alone and counts in the stop's pooled measure.
"""
from __future__ import annotations

STOP_FILES, STOP_PROJECTS, CAP = 40, 10, 8
NOT_FETCHED = "(fetch: no snapshot of that repository can be had here)"

# find_repos(name_contains="gemm") at 18:26 UTC, 2026-12-07: the 100 names in listed order
FRAME = [
    "PavlidisLab/Gemma",
    "lighttransport/gemm",
    "matsgemmeke/battlegrounds-reloaded",
    "magnetarai-founder/MedStation-MedGemma_Impact",
    "TaylorAmarelTech/gemma4_comp",
    "bendourthe/Gemma-Code",
    "pytorch/FBGEMM",
    "DenisovAV/flutter_gemma",
    "shaunandgemma/study-tracker",
    "SamGinzburg/strix-halo-int4-gemms",
    "zoubaax/gemma-hackathon",
    "morganmcg1/gemma-challenge-senpai",
    "BinaryStudioAcademy/bsa-winter-2023-2024-resumegemm",
    "PavlidisLab/gemma-ui",
    "matsgemmeke/battlegrounds-plugin",
    "GemmaAA1/etalia-open",
    "lucylow/02-10-26-medgemma",
    "project-gemmi/gemmi",
    "bytedance-iaas/AsymGEMM",
    "gemmadanks/hebog",
    "ucb-bar/gemmini-mlir",
    "ManSio/gemma_agent",
    "mmastrac/diffgemma",
    "SamuelMarks/gemma-4-sql",
    "gemmyconnectltd/onegemmy",
    "pjordanandrsn/grouped-nf4-gemm",
    "nbltrust/gemma-ios",
    "gemmaknits/Eschler",
    "david-t-martel/gemma-cpp-enhanced",
    "ysfpcm/OpenGemma",
    "gemmaruby633-spec/EAOS",
    "ajou-aisa/llama.cpp-gemmini",
    "francescogemma/MyShelfie",
    "Teeeio/Acagemm",
    "ROCm/MIOpenGEMM",
    "xbill9/gemma4-dev",
    "VNG-Realisatie/GEMMA-GGM-bedrijfsobjectenwiki",
    "ba-rem26007/gemma4-legacy-replay",
    "nbltrust/gemma-android",
    "nullgemm/globuf",
    "ucb-bar/mx-gemmini-mlir",
    "LyalinDotCom/GemmaDesktop",
    "screamkface/ClinDiary-Gemma4Good",
    "junhao-elastix/elastix_gemm",
    "google/gemma.cpp",
    "adidshaft/ross-gemma4",
    "CheickDiakite-yikes/gemma4-capability-map",
    "AichenF/DeepGEMM",
    "ziggemma1/aether-study-app",
    "dsi-icl/gemma-shop",
    "ElixirTrials/medgemma-hackathon",
    "gmottajr/video-audio-process-nextJs-gemma3-wisper",
    "SeHuibixiaoxing/gemmini-rocc-tests",
    "Ughuuu/GemMaker",
    "KGEmmanuel/richblok-app",
    "cofin/mogemma",
    "ucb-bar/gemmini",
    "official-GEMM/gemm-server",
    "SomeB1oody/gemmkit",
    "ibrahim7860/Gemma-Guardian",
    "Layr-Labs/mlxfast-gemma4-26b-a4b-engine",
    "clearseclabs/system-over-model-gemma",
    "preshit-gupta/OncoGemma-v6",
    "wordingone/gemma-architect",
    "Seo-Jangwon/gemma4_raman",
    "SPONGEMM/XpongeCPP",
    "CoffeeVampir3/Mojo-Gemma4-CPU",
    "GemminAI/sensos",
    "nickorsk2017/gemma-4-chat-harness",
    "RishiJain905/Gemma-E4B-Finance-RAG",
    "whoamaiii/kreativiummedgemma-v2",
    "MechInterpreter/jacobian-lens-gemma",
    "gdgshanghai/Gemma4-Hackathon-ShangHai",
    "gemmology-dev/gemmology.dev",
    "romanchykov-webdev/gemma",
    "Ascend/fbgemm-ascend",
    "mattmireles/gemma-tuner-multimodal",
    "bkttt0429/GemmaFit",
    "devaigemm-pro/wind_farm",
    "jorgemmsilva/wasp",
    "ConorFWild/pandda_2_gemmi",
    "lukifer23/GemmaFischer",
    "sunbos/Gemma4-Hackathon-ShangHai",
    "LeiWang1999/tvm_gpu_gemm",
    "whitesungun876/Gemma4-Hackathon-ShangHai",
    "kpratik41/nl2sql-gspo-gemma4",
    "M-Ilays/GemmaQA",
    "VNG-Realisatie/GEMMA-kenniswerkplek",
    "smtgemma/melikaahmadian",
    "google-deepmind/gemma",
    "ndimoforaretas/local-gemma-rag",
    "paulhondola/gemm-bench",
    "Schilings/DeepGEMM",
    "rbitts/worldmm-smvqa-gemma4-e2b",
    "smtgemma/labisengineer7-frontend",
    "Gemmus/C_language",
    "priyanshuchawda/gemma_control",
    "IronBCC/gemma4-31B-Coder",
    "atqaamir/AgriGemma",
    "dogemmorpg-png/void-covenant",
]

# (a): in main's bench/used_repos.txt or a candidate of a bench/*_select.py on main (cfb870fc)
USED_OR_CANDIDATE = ("LeiWang1999/tvm_gpu_gemm",)
# (b): owner NVIDIA / NVlabs / NVIDIA-*, or a copy of NVIDIA/cuda-samples: none in this frame
NVIDIA_OWN: tuple[str, ...] = ()
# (c): in an earlier FRAME list of main's bench/heldout*_select.py: none besides (a)'s
IN_EARLIER_FRAME: tuple[str, ...] = ()
DROP_BY_NAME: dict[str, str] = {r: "(a): used or an earlier set's candidate" for r in USED_OR_CANDIDATE}
DROP_BY_NAME.update({r: "(b): NVIDIA's own or a cuda-samples copy" for r in NVIDIA_OWN})
DROP_BY_NAME.update({r: "(c): in an earlier frame" for r in IN_EARLIER_FRAME})
REMAINING_BEFORE_D = [r for r in FRAME if r not in DROP_BY_NAME]
assert len(FRAME) == 100 and len(REMAINING_BEFORE_D) == 99, len(REMAINING_BEFORE_D)
# (d): find_files(repo=X, ext="cu"), then ext="cuh" where that showed no path; paths only; 18:27-18:29 UTC, after the
# RULE's commit 28871016 (18:26:44); positions 1-35 looked before any fetch, 36-100 after the first fetches (the first
# seven ranks gave 10 files, so the sampling needed the whole frame). The .cuh look was made for positions 1-60; for
# 61-100 it was skipped where the .cu look showed none: the rule takes `.cu` files only, so such a repository gives 0
# files whether (d) drops it or not, and every rank is taken (the numbering moves no choice). Two looks (PavlidisLab/Gemma, SamGinzburg/strix-halo-int4-gemms) said "more
# files matched than are listed" with zero paths shown, for both extensions: the rule reads the zero paths as written
# (heldout90's reading) and drops them.
LOOKED = FRAME
CUDA_SHOWN = (
    "lighttransport/gemm", "pytorch/FBGEMM", "bytedance-iaas/AsymGEMM", "mmastrac/diffgemma",
    "david-t-martel/gemma-cpp-enhanced", "ajou-aisa/llama.cpp-gemmini", "Teeeio/Acagemm", "AichenF/DeepGEMM",
    "Schilings/DeepGEMM",
)
NO_CUDA_FILES: frozenset[str] = frozenset(r for r in LOOKED if r in REMAINING_BEFORE_D) - set(CUDA_SHOWN)


def remaining() -> list[str]:
    """Ranks 1, 2, 3, ...: the nine repositories of the frame left after (a)-(d)."""
    return [r for r in REMAINING_BEFORE_D if r in LOOKED and r not in NO_CUDA_FILES]


def sample() -> list[str]:
    """Every rank, in order."""
    return remaining()


# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder) of each sampled
# repository, in sample() order: filled in after the fetch, before any measure.
CANDIDATES = [
    # cuda/*/Makefile: nvcc -cubin -arch=sm_120(a) -std=c++17 -O3 each .cu alone; cuda/llm's MMQ builds add
    # -Immq_vendor and an upstream llama.cpp checkout (absent); cuda/gemm's adds CUTLASS (absent); sources under cuda/
    ("lt-gemm", "lighttransport/gemm", "MIT", ["LICENSE"], ["cuda", "cuda/llm/mmq_vendor"], [],
     ["-std=c++17", "-O3", "-arch=sm_120a"], "cuda/"),
    # fbgemm_gpu/CMakeLists.txt: a PyTorch extension (torch / ATen headers, absent); include dirs fbgemm_gpu/include,
    # include; C++20; sources under fbgemm_gpu/
    ("fbgemm", "pytorch/FBGEMM", "BSD-3-Clause", ["LICENSE"], ["fbgemm_gpu/include", "include"], [],
     ["-std=c++20"], "fbgemm_gpu/"),
    # CMakeLists.txt / setup.py: a PyTorch extension, include dirs asym_gemm/include, third-party/cutlass (submodule,
    # absent), C++17 -O3 -DENABLE_FAST_DEBUG; sources under csrc/
    ("asymgemm", "bytedance-iaas/AsymGEMM", "MIT", ["LICENSE"], ["asym_gemm/include", "include"],
     ["ENABLE_FAST_DEBUG"], ["-std=c++17", "-O3"], "csrc/"),
    # its newest snapshot holds no .cu (a Rust crate now): 0 files
    ("diffgemma", "mmastrac/diffgemma", "(see the repository)", [], [], [], ["-std=c++17"], ""),
    # gemma/backends/cuda/CMakeLists.txt: CUDA 17, its own folder, GEMMA_ENABLE_CUB, GEMMA_ENABLE_COOPERATIVE_GROUPS
    ("gemma-cpp-enhanced", "david-t-martel/gemma-cpp-enhanced", "(see the repository)", [],
     ["gemma/backends/cuda", "gemma/backends"], ["GEMMA_ENABLE_CUB", "GEMMA_ENABLE_COOPERATIVE_GROUPS"],
     ["-std=c++17"], "gemma/backends/cuda/"),
    # ggml/src/ggml-cuda/CMakeLists.txt (llama.cpp's): include dirs ggml/include, ggml/src, ggml/src/ggml-cuda,
    # GGML_USE_CUDA, C++17; its vendors/cuda.h includes cublas_v2.h (absent here); sources under ggml/src/ggml-cuda/
    ("llama-cpp-gemmini", "ajou-aisa/llama.cpp-gemmini", "MIT", ["LICENSE"],
     ["ggml/include", "ggml/src", "ggml/src/ggml-cuda"], ["GGML_USE_CUDA"], ["-std=c++17", "-O3"],
     "ggml/src/ggml-cuda/"),
    ("acagemm", "Teeeio/Acagemm", NOT_FETCHED, [], [], [], [], ""),
    # CMakeLists.txt / setup.py (a PyTorch extension, JIT kernels): include dirs deep_gemm/include,
    # third-party/cutlass (submodule, absent), third-party/fmt; CUDA 20, -O3 -DENABLE_FAST_DEBUG; sources under csrc/
    ("deepgemm-aichenf", "AichenF/DeepGEMM", "MIT", ["LICENSE"], ["deep_gemm/include"], ["ENABLE_FAST_DEBUG"],
     ["-std=c++20", "-O3"], "csrc/"),
    ("deepgemm-schilings", "Schilings/DeepGEMM", "MIT", ["LICENSE"], ["deep_gemm/include"], ["ENABLE_FAST_DEBUG"],
     ["-std=c++20", "-O3"], "csrc/"),
]
# self-contained check (nvcc -c, the project's flags, 18:30 UTC): gemma-cpp-enhanced gives two files and one compiles
# (cuda_attention.cu:303, `half * float` matches more than one operator*: the source's, not a CUDA 13 removal)
DROPPED: frozenset[str] = frozenset({"david-t-martel/gemma-cpp-enhanced"})


def first_by_path(files: list[str]) -> list[str]:
    return files[:CAP]


if __name__ == "__main__":  # heldout24's qualifying check and loop, with this rule's cap (the first 8 by path)
    import heldout24_select as h24
    from heldout24_select import write_set
    assert [c[1] for c in CANDIDATES] == sample()[:len(CANDIDATES)], "CANDIDATES must follow sample() order"
    h24.spaced = first_by_path
    write_set("ninety-sixth", "heldout96", [c for c in CANDIDATES if c[2] != NOT_FETCHED], DROPPED,
              stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
