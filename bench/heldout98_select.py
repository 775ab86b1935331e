#!/usr/bin/env python3
"""How the ninety-eighth held-out set (bench/heldout98.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout98_select.py      # -> bench/heldout98.toml

RULE, written and committed (h/heldout98) before any repository was fetched or measured and before any file
listing was looked up. Not a domain: a SYSTEMATIC SAMPLE (stop 65's method, heldout94's template). The frame is the
stored index's repository listing `find_repos(name_contains="kernels")`, called at 21:04 UTC on 2026-12-07: 100
repositories, highest file_versions first, recorded below (FRAME) in the listed order (the listing said more may
match; the 100 listed are the frame). The sibling heldout99 samples the same frame's EVEN ranks; this set takes the
ODD ranks: the two are disjoint by construction, and the ranks depend only on main and the frame (no sibling's
progress is read; the sibling heldout97 samples another frame, "matmul").
  Drops, by name and listing alone (no file's text read, nothing fetched), each repository given the first reason
  that applies, checked against main at 1ef554d0 (21:07 UTC; to be checked again at 21:15 UTC, the outcome says):
    a. a repository in main's bench/used_repos.txt or a candidate of any bench/*_select.py on main (grep,
       case-insensitive, of each owner/name in bench/used_repos.txt and bench/*_select.py): ParRes/Kernels (a
       candidate of bench/heldout79_select.py, named in bench/heldout8_select.py); no other of the 100;
    b. NVIDIA's own (owner NVIDIA, NVlabs or NVIDIA-*) and copies of NVIDIA/cuda-samples: none by owner or name;
    c. a repository in ANY earlier frame (every FRAME list in main's bench/heldout*_select.py, stop 64's "flash-att"
       and "gemm" included): none (the same grep). A repository outside the earlier frames' 100 listed names was
       never eligible to them, so it is unseen;
    d. a repository whose stored listing shows no CUDA source: `find_files(repo=X, ext="cu")` and, where that shows
       none, `find_files(repo=X, ext="cuh")` both return zero paths (paths only; recorded in CUDA_LOOK after this
       commit and before any fetch). The looks go in frame order over the whole frame (each rank depends only on
       the looks before it; recorded);
    e. forks / copies: a taken repository whose taken files are byte-for-byte those of one taken before it adds
       nothing (0 files). Applied when files are taken; it does NOT renumber (ranks are fixed after (d), so
       heldout99's even ranks stay disjoint).
  Sample: number the repositories left after (a)-(d) 1, 2, 3, ... in frame order; take ranks 1, 3, 5, ... in order.
  No fallback pass: if the odd ranks of the frame do not reach STOP_FILES or STOP_PROJECTS, the set is what they give
  (not widened; said).
  QUALIFYING, files, cap and check: heldout94's (heldout80's rule, heldout24_select's qualifying check and
  vendored-folder filter) with CAP = 8 per repository, the FIRST 8 in path order: a repository qualifies if at least
  half of its first 10 `.cu` files by path (all if fewer) under its source folder have every `#include` they reach
  resolve in the repository, the CUDA toolkit (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND,
  cuSPARSE, cuSOLVER, NCCL, NVSHMEM headers here) or the host compiler's search path, with the include dirs of the
  project's build; absent third-party headers (torch, pybind11, cutlass/cute when an absent submodule, OpenCV, Eigen,
  MPI, Kokkos), generated headers and absent submodules do not resolve, and no stand-in headers are taken. Files:
  `.cu` only under the source folder read from the build files after the fetch and before any measure (the whole
  repository when the build names no single folder), less vendored folders (third_party, 3rdparty, external,
  extern), over the size cap, not resolving, or byte-for-byte copies. Include dirs, defines and flags from the
  project's own build (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left out; the
  project's sm_80/sm_90 arch kept where its kernels need it). Self-contained check: the first three files taken (all
  if fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two (one if it gives
  one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be
  fetched, does not qualify or gives 0 files. Sampled repositories are taken in order until the set holds at least
  STOP_FILES = 40 files or STOP_PROJECTS = 10 projects.
Outcome (21:05-21:09 UTC by this machine's clock, before any measure of kernelport): (a) drops ParRes/Kernels, (b)
  and (c) none (main 1ef554d0, still main's head at 21:16 UTC: the ranks are main's at 21:15); (d) drops 76
  (Android/Linux kernels, Julia, Swift, Rust, Mojo, Metal, NPU and web repositories whose stored listing holds no
  .cu/.cuh), 23 remain, ranked in frame order; this set takes the 12 odd ranks 1, 3, ..., 23 (CANDIDATES, in order).
  Fetch: three have no snapshot here (sfc-gh-goliaro/fastkernels-results,
  plotfi/tensara-kernels, sunjae0224/kernelscope). The newest snapshot of three holds no .cu at all (putao520/
  gllm-kernels, CANGA/ELMKernels, vyomakesh0728/reference-kernels: the listing's .cu were of older commits): 0 files.
  Qualifying (first 10 .cu by path): FlashRT-HF-kernels 9/10, huggingface/kernels 0/10 (torch/all.h, tvm/ffi,
  cutlass), Snowflake fastkernels 0/10 (torch, ATen), blackwell-kernels 0/6 (torch/extension.h),
  kernels-project-popcorn 5/10, GBSKernels 10/10. (e): none of the three taken is a copy of another. Check (`nvcc -c`,
  the first three, the project's flags): FlashRT 3/3 (sm_120, its build.toml's capability 12.0), popcorn 3/3,
  GBSKernels 3/3 (its CMake's sm_70 below CUDA 13's minimum left out, sm_80 kept): none dropped.
  The set: 24 files in three projects (flashrt-hf-kernels 8, popcorn-kernels-project 8, gbskernels 8). THE FRAME IS
  THIN: every odd rank was taken and the set stays under STOP_FILES (24 of 40) and STOP_PROJECTS (3 of 10); not
  widened. Most of the "kernels" frame is OS kernels and non-CUDA code; of the CUDA ones most are PyTorch extensions.
"""
from __future__ import annotations

STOP_FILES, STOP_PROJECTS, CAP = 40, 10, 8
NOT_FETCHED = "(fetch: no snapshot of that repository can be had here)"

# find_repos(name_contains="kernels") at 21:04 UTC, 2026-12-07: the 100 names in listed order
FRAME = [
    "kernelslacker/trinity",
    "zenkernelsam/NotaHarmony",
    "nsiccha/ReactiveKernels.jl",
    "Coconutat/android_kernel_huawei_vtr_emui9_KernelSU",
    "sriharshapy/hexkernels",
    "tangkaisirna11-bot/KernelSUUU",
    "zastrozzi/KernelSwiftUtilities",
    "tiann/KernelSU",
    "ravindu644/Nethunter_APK_KernelSU",
    "Kernel360/f1-KernelSquare-frontend",
    "Nova-Kernels/kernel_xiaomi_pissarro",
    "flashrt-project/FlashRT-HF-kernels",
    "kokkos/kokkos-kernels",
    "pckernelsac/alpaca",
    "Kernel360/f1-KernelSquare-backend",
    "PHLens/kernelswift",
    "sfc-gh-goliaro/fastkernels-results",
    "Boffee/piper-kernels",
    "tracycam/gaudi-kernels",
    "Amazon-OSS-Kernels/android_kernel_mstar_t1",
    "huggingface/kernels-community",
    "harsh-nod/fe2o3-kernels",
    "putao520/gllm-kernels",
    "huawei-csl/pto-kernels",
    "opentela-ai/vkernels",
    "bergxing/brepkernelstudy",
    "huggingface/kernels",
    "vicgalle/metal-sci-kernels",
    "praveer13/kernelspace",
    "PTO-ISA/pto-kernels",
    "spectrometerHBH/TIRx-kernels",
    "ParRes/Kernels",
    "Snowflake-AI-Research/fastkernels",
    "mlc-ai/TIRx-kernels",
    "harshithkantamneni/moe-kernels",
    "plotfi/tensara-kernels",
    "samuelzxu/kernelsanders",
    "thyn-ai/mojo-kernels",
    "CANGA/ELMKernels",
    "Amazon-OSS-Kernels/android_kernel_common-android13_gki_aarch64",
    "ResearchComputer/xkernels",
    "trthatcher/MLKernels.jl",
    "RQM-Technologies-dev/tt-rqm-kernels",
    "refresh3939/ai-ran-npu-kernels",
    "HMD-Nokia-OSS-Kernels/android_kernel_hmd_arc",
    "filtron/MarkovKernels.jl",
    "THargreaves/BatchedKernels.jl",
    "DanecLacey/SmaxKernels",
    "DarrellThomas/blackwell-kernels",
    "Corn-Kernels/PlantsVsZombies-Group-63",
    "geometric-kernels/GeometricKernels",
    "vllm-project/vllm-xpu-kernels",
    "Hong-agent/K100LC-kernels",
    "pytorch-labs/popcorn-kernels",
    "jrfferreira/Kernelsys-public",
    "multikernel/kernelscript",
    "DrXuQian/Kernels",
    "iKernels/RelTextRank",
    "ucb-bar/radiance-kernels",
    "vyomakesh0728/reference-kernels",
    "HazyResearch/Megakernels",
    "manishklach/mlx-metal-kernels",
    "NCAR/NCARKernels",
    "prateekshukla1108/kernels-project-popcorn",
    "soran-ghaderi/worldkernels",
    "Mads-PeterVC/atomic-kernels",
    "pkp124/ulir-kernels",
    "zufangzhu/vllm-xpu-kernels",
    "amazingvince/gemma4-fa4-kernels",
    "HerokeTJ/KernelSnow-A336M",
    "larsbx/finite-math-kernels",
    "lablup/backend.ai-kernels",
    "ziliangpeng/kernels",
    "subho406/mlstm_kernels",
    "xenusos/KernelSourceLibOSTypes",
    "Amazon-OSS-Kernels/android_kernel_mediatek_mt8696",
    "kernelstudioai/legalbot",
    "avalontm/KernelSharp",
    "kernelslacker/x86info",
    "mivertowski/RustKernels",
    "ByteBloom-The-Kernels-Team/ByteBloom_Academy",
    "torch-spyre/spyre-kernels",
    "rodrigo-castellano/torch-kge-kernels",
    "hcompai/late-interaction-kernels",
    "zenkernelsam/macPad",
    "divineearthly/Divine-Earthly-Quantum-Vedic-Kernels",
    "nicoleching515/senescent_cell_kernels",
    "kernelsauce/turbo",
    "rmj95fgb7x-art/lex-liberatum-kernels",
    "liamdgee/deepkernels",
    "rotcev/cognitive-kernels",
    "sunjae0224/kernelscope",
    "splintersfury/KernelSight",
    "zhongjianhua163/BlackMoonKernelStaticLib",
    "LessUp/modern-ai-kernels",
    "TijnZeelenberg/scatteringkernels",
    "vlivashkin/pygkernels",
    "u9521/KernelSU",
    "LucasWilkinson/spmm-nano-kernels",
    "chaofanzhougit/GBSKernels",
]

# (a): a candidate of a select script on main; (b), (c): none
DROP_BY_NAME: dict[str, str] = {"ParRes/Kernels": "a (bench/heldout79_select.py candidate)"}
REMAINING_BEFORE_D = [r for r in FRAME if r not in DROP_BY_NAME]
assert len(FRAME) == 100 and len(REMAINING_BEFORE_D) == 99

# (d): the looks, 21:05-21:09 UTC (clock of this machine), after the RULE's commit 456d2bcb and before any fetch, in
# frame order over the whole frame (positions 1-100 less ParRes/Kernels). For each: "cu" (ext="cu" showed paths), "cuh"
# (ext="cu" showed none, ext="cuh" did: none here), "-" (both showed none: dropped). kernelslacker/trinity,
# nsiccha/ReactiveKernels.jl and kokkos/kokkos-kernels answered zero paths with "more matched than are listed" for both
# extensions: zero paths shown, so dropped as the RULE reads (Kokkos code is .cpp/.hpp; the other two are a
# syscall fuzzer and a Julia package). Snowflake-AI-Research/fastkernels' first look was by mistake scoped under a
# folder that does
# not exist (0 paths, meaningless); it was repeated at once without the folder (paths shown): that look counts.
CUDA_LOOK = {
    "kernelslacker/trinity": "-", "zenkernelsam/NotaHarmony": "-", "nsiccha/ReactiveKernels.jl": "-",
    "Coconutat/android_kernel_huawei_vtr_emui9_KernelSU": "-", "sriharshapy/hexkernels": "-",
    "tangkaisirna11-bot/KernelSUUU": "-", "zastrozzi/KernelSwiftUtilities": "-", "tiann/KernelSU": "-",
    "ravindu644/Nethunter_APK_KernelSU": "-", "Kernel360/f1-KernelSquare-frontend": "-",
    "Nova-Kernels/kernel_xiaomi_pissarro": "-", "flashrt-project/FlashRT-HF-kernels": "cu",
    "kokkos/kokkos-kernels": "-", "pckernelsac/alpaca": "-", "Kernel360/f1-KernelSquare-backend": "-",
    "PHLens/kernelswift": "cu", "sfc-gh-goliaro/fastkernels-results": "cu", "Boffee/piper-kernels": "-",
    "tracycam/gaudi-kernels": "-", "Amazon-OSS-Kernels/android_kernel_mstar_t1": "-",
    "huggingface/kernels-community": "cu", "harsh-nod/fe2o3-kernels": "-", "putao520/gllm-kernels": "cu",
    "huawei-csl/pto-kernels": "-", "opentela-ai/vkernels": "cu", "bergxing/brepkernelstudy": "-",
    "huggingface/kernels": "cu", "vicgalle/metal-sci-kernels": "-", "praveer13/kernelspace": "-",
    "PTO-ISA/pto-kernels": "-", "spectrometerHBH/TIRx-kernels": "cu", "Snowflake-AI-Research/fastkernels": "cu",
    "mlc-ai/TIRx-kernels": "cu", "harshithkantamneni/moe-kernels": "-", "plotfi/tensara-kernels": "cu",
    "samuelzxu/kernelsanders": "cu", "thyn-ai/mojo-kernels": "-", "CANGA/ELMKernels": "cu",
    "Amazon-OSS-Kernels/android_kernel_common-android13_gki_aarch64": "-", "ResearchComputer/xkernels": "-",
    "trthatcher/MLKernels.jl": "-", "RQM-Technologies-dev/tt-rqm-kernels": "-",
    "refresh3939/ai-ran-npu-kernels": "-", "HMD-Nokia-OSS-Kernels/android_kernel_hmd_arc": "-",
    "filtron/MarkovKernels.jl": "-", "THargreaves/BatchedKernels.jl": "-", "DanecLacey/SmaxKernels": "cu",
    "DarrellThomas/blackwell-kernels": "cu", "Corn-Kernels/PlantsVsZombies-Group-63": "-",
    "geometric-kernels/GeometricKernels": "-", "vllm-project/vllm-xpu-kernels": "-",
    "Hong-agent/K100LC-kernels": "-", "pytorch-labs/popcorn-kernels": "-", "jrfferreira/Kernelsys-public": "-",
    "multikernel/kernelscript": "-", "DrXuQian/Kernels": "cu", "iKernels/RelTextRank": "-",
    "ucb-bar/radiance-kernels": "-", "vyomakesh0728/reference-kernels": "cu", "HazyResearch/Megakernels": "cu",
    "manishklach/mlx-metal-kernels": "-", "NCAR/NCARKernels": "-", "prateekshukla1108/kernels-project-popcorn": "cu",
    "soran-ghaderi/worldkernels": "-", "Mads-PeterVC/atomic-kernels": "-", "pkp124/ulir-kernels": "-",
    "zufangzhu/vllm-xpu-kernels": "-", "amazingvince/gemma4-fa4-kernels": "-", "HerokeTJ/KernelSnow-A336M": "-",
    "larsbx/finite-math-kernels": "-", "lablup/backend.ai-kernels": "-", "ziliangpeng/kernels": "cu",
    "subho406/mlstm_kernels": "-", "xenusos/KernelSourceLibOSTypes": "-",
    "Amazon-OSS-Kernels/android_kernel_mediatek_mt8696": "-", "kernelstudioai/legalbot": "-",
    "avalontm/KernelSharp": "-", "kernelslacker/x86info": "-", "mivertowski/RustKernels": "-",
    "ByteBloom-The-Kernels-Team/ByteBloom_Academy": "-", "torch-spyre/spyre-kernels": "-",
    "rodrigo-castellano/torch-kge-kernels": "-", "hcompai/late-interaction-kernels": "-", "zenkernelsam/macPad": "-",
    "divineearthly/Divine-Earthly-Quantum-Vedic-Kernels": "-", "nicoleching515/senescent_cell_kernels": "-",
    "kernelsauce/turbo": "-", "rmj95fgb7x-art/lex-liberatum-kernels": "-", "liamdgee/deepkernels": "-",
    "rotcev/cognitive-kernels": "-", "sunjae0224/kernelscope": "cu", "splintersfury/KernelSight": "-",
    "zhongjianhua163/BlackMoonKernelStaticLib": "-", "LessUp/modern-ai-kernels": "cu",
    "TijnZeelenberg/scatteringkernels": "-", "vlivashkin/pygkernels": "-", "u9521/KernelSU": "-",
    "LucasWilkinson/spmm-nano-kernels": "-", "chaofanzhougit/GBSKernels": "cu",
}
assert list(CUDA_LOOK) == REMAINING_BEFORE_D  # the whole frame looked at
NO_CUDA_FILES = frozenset(r for r, v in CUDA_LOOK.items() if v == "-")


def ranked() -> list[str]:
    """The repositories left after (a)-(d), in frame order: rank k is ranked()[k - 1]."""
    return [r for r in CUDA_LOOK if r not in NO_CUDA_FILES]


def sample() -> list[str]:
    """This set's ranks 1, 3, 5, ... in order (heldout99 takes 2, 4, 6, ...)."""
    return ranked()[0::2]


# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder) of each sampled
# repository, in sample() order: filled in after the fetch, from each build, before any measure.
CANDIDATES = [
    # no single build: one kernel-builder folder per kernel (its build.toml: include = ["csrc"], cuda-flags -O3
    # --use_fast_math, cuda-capabilities 12.0/12.1 for the first folder): the whole repository, each taken folder's
    # csrc as include dir, sm_120 (its kernels' capability)
    ("flashrt-hf-kernels", "flashrt-project/FlashRT-HF-kernels", "MIT", ["LICENSE"],
     ["MiniMaxAI-msa-blackwell/csrc", "adaptive-layernorm-producers/csrc"], [],
     ["-std=c++17", "-O3", "--use_fast_math", "-arch=sm_120"], ""),
    ("fastkernels-results", "sfc-gh-goliaro/fastkernels-results", NOT_FETCHED, [], [], [], [], ""),
    # the stored snapshot's newest commit holds no .cu (the listing's .cu were of older commits): 0 files
    ("gllm-kernels", "putao520/gllm-kernels", "(see the repository)", [], [], [], ["-std=c++17"], "src/cuda_kernels/"),
    # kernel-builder examples: every .cu reaches torch/all.h, tvm/ffi or cutlass (absent): 0 of its first 10
    ("hf-kernels", "huggingface/kernels", "Apache-2.0", ["LICENSE"], [], [], ["-std=c++17"], ""),
    # pyproject.toml (torch cpp_extension loads): every .cu reaches torch / ATen (absent): 0 of its first 10
    ("snowflake-fastkernels", "Snowflake-AI-Research/fastkernels", "Apache-2.0", ["LICENSE"], [], [],
     ["-std=c++17"], ""),
    ("tensara-kernels", "plotfi/tensara-kernels", NOT_FETCHED, [], [], [], [], ""),
    # the newest snapshot holds no .cu (src/cuda was removed; Kokkos now): 0 files
    ("elmkernels", "CANGA/ELMKernels", "BSD-3-Clause", ["LICENSE"], [], [], ["-std=c++17"], ""),
    # setup.py torch extensions: every .cu reaches torch/extension.h (absent): 0 of its 6
    ("blackwell-kernels", "DarrellThomas/blackwell-kernels", "(none in the repository)", [], [], [],
     ["-std=c++17"], ""),
    # the newest snapshot holds no .cu: 0 files
    ("reference-kernels", "vyomakesh0728/reference-kernels", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    # no build file: single-file programs at the root (nvcc file.cu): the whole repository
    ("popcorn-kernels-project", "prateekshukla1108/kernels-project-popcorn", "(none in the repository)", [], [], [],
     ["-std=c++17"], ""),
    ("kernelscope", "sunjae0224/kernelscope", NOT_FETCHED, [], [], [], [], ""),
    # core/CMakeLists.txt: CUDA 17, -O3, CUDA_SEPARABLE_COMPILATION, architectures 70 80 89 90 (70 is below CUDA
    # 13's minimum: left out; sm_80 taken); sources core/*.cu
    ("gbskernels", "chaofanzhougit/GBSKernels", "Apache-2.0", ["LICENSE"], ["core"], [],
     ["-std=c++17", "-O3", "-rdc=true", "-arch=sm_80"], "core/"),
]
DROPPED: frozenset[str] = frozenset()


def first_by_path(files: list[str]) -> list[str]:
    return files[:CAP]


if __name__ == "__main__":  # heldout24's qualifying check and loop, with this rule's cap (the first 8 by path)
    import heldout24_select as h24
    from heldout24_select import write_set
    assert [c[1] for c in CANDIDATES] == sample()[:len(CANDIDATES)], "CANDIDATES must follow sample() order"
    h24.spaced = first_by_path
    write_set("ninety-eighth", "heldout98", [c for c in CANDIDATES if c[2] != NOT_FETCHED], DROPPED,
              stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
