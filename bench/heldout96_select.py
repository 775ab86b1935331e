#!/usr/bin/env python3
"""How the ninety-sixth held-out set (bench/heldout96.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout96_select.py      # -> bench/heldout96.toml

RULE, written and committed (h/heldout96, about 18:35 UTC) before any repository was fetched or measured and before
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
Outcome of the drops and the sampling: recorded below after this commit.
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
