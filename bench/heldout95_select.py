#!/usr/bin/env python3
"""How the ninety-fifth held-out set (bench/heldout95.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout95_select.py      # -> bench/heldout95.toml

RULE, written and committed (h/heldout95, 18:26 UTC) before any repository was fetched or measured and before any
file listing was looked up. Not a domain: a SYSTEMATIC SAMPLE of what users bring (stop 64's method, heldout90's
template). The frame is the stored index's repository listing `find_repos(name_contains="flash-att")`, called at
18:26 UTC on 2026-12-07: 100 repositories, highest file_versions first, recorded below (FRAME) in the listed order
(the listing said more may match; the 100 listed are the frame). The sibling heldout94 samples the same frame at the
ODD ranks; this set takes the EVEN ranks 2, 4, 6, ...: disjoint by construction. The ranks are counted ONCE on a list
that depends only on the frame and main (cfb870fc, main's head when this rule was written; main's bench/ checked again
at 18:40 UTC), never on a sibling's progress.
  Drops, by name and listing alone (no file's text read, nothing fetched), each repository given the first reason
  that applies:
    a. a repository in main's bench/used_repos.txt or a candidate of any bench/*_select.py on main (a case-insensitive
       look for each frame name in main's bench/used_repos.txt, bench/*_select.py, bench/*.toml and README.md):
       none of the 100;
    b. NVIDIA's own repositories (owner NVIDIA, NVlabs, NVIDIA-*) and copies of NVIDIA/cuda-samples: none of the
       100 (jiayus-nvidia/flash-attention's owner is a person's account, not NVIDIA-*: it stays);
    c. a repository that appears in ANY earlier frame (every FRAME list in main's bench/heldout*_select.py): none of
       the 100. Stop 63's string drops ("cuda-", "gpu-", ...) are replaced by this membership drop: a repository
       outside the earlier frames' 100 listed names was never eligible, so it is unseen (ActiveSky/cuda-flash-attn
       and the other names holding "cuda" stay);
    d. a repository whose stored listing shows no CUDA source: `find_files(repo=X, ext="cu")` and
       `find_files(repo=X, ext="cuh")` both return zero paths (a look at paths only; recorded in CUDA_SHOWN /
       NO_CUDA_FILES after this commit and before any fetch; a look that says "more matched" with zero paths shown
       is read as written: zero);
    e. forks/copies: a taken repository whose taken files are byte-for-byte those of one taken before it adds
       nothing (it drops, and the next rank is taken).
  Sample: number the repositories left after (a)-(d) 1, 2, 3, ... in frame order; take ranks 2, 4, 6, ... in order
  (no fallback pass, no sibling drop). The rule stops there: if the even ranks do not reach STOP_FILES or
  STOP_PROJECTS, the set is what they give (not widened).
  QUALIFYING, files, cap and check: heldout90's (heldout80's rule, heldout24_select's qualifying check and
  vendored-folder filter) with CAP = 8 per repository, the FIRST 8 in path order: a repository qualifies if at least
  half of its first 10 `.cu` files by path (all if fewer) under its source folder have every `#include` they reach
  resolve in the repository, the CUDA toolkit (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND,
  cuSPARSE, cuSOLVER, NCCL, NVSHMEM headers here) or the host compiler's search path, with the include dirs of the
  project's build; absent third-party headers (torch, pybind11, CUTLASS/CuTe not in the repository, OpenCV, Eigen,
  MPI), generated headers and absent submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only
  under the source folder read from the build files after the fetch and before any measure (the whole repository
  when the build names no single folder), less vendored folders (third_party, 3rdparty, external, extern), over the
  size cap, not resolving, or byte-for-byte copies. Include dirs, defines and flags from the project's own build
  (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left out). Self-contained check: the first
  three files taken (all if fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer
  than two (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED), as
  does one that cannot be fetched, does not qualify or gives 0 files. Sampled repositories are taken in order until
  the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 10 projects.
The set is measured on this branch's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout95_before.txt, Debian ROCm 5.2 alone, and bench/scoreboard_heldout95_before_rocmlibs.txt,
with rocThrust + hipCUB rocm-5.3.3).
"""
from __future__ import annotations

STOP_FILES, STOP_PROJECTS, CAP = 40, 10, 8
NOT_FETCHED = "(fetch: no snapshot of that repository can be had here)"

# find_repos(name_contains="flash-att") at 18:26 UTC, 2026-12-07: the 100 names in listed order
FRAME = [
    "Dao-AILab/flash-attention",
    "AshunFeiyu/flash-attention3",
    "Tagesanbruch/flash-attn-rtl",
    "philipturner/metal-flash-attention",
    "AICL-Lab/diy-flash-attention",
    "hcwhan/flash-attn-ck-rocm-gfx120x-build",
    "robvankathmp/universal-metal-flash-attention",
    "gabrieldemarmiesse/flash-attn-mojo",
    "ActiveSky/cuda-flash-attn",
    "zzhhjjj/gemma-triton-flash-attn",
    "danieleschmidt/dp-flash-attention",
    "LessUp/cuflash-attn",
    "iuliet716/flash-attention-cuda-from-scratch",
    "drakerfire98/flash-attention-windows-5090-fa4-shim",
    "wenssir/flash-attention",
    "tfan2437/flash-attention-lab",
    "jianshuqiang-cpu/flash-attention-npu",
    "MinghuasLab/flash-attention-npu",
    "DrXuQian/flash-attention-for-sail",
    "SNAPKITTYAGENT9NOVA/flash-attention-rtl",
    "ssiu/flash-attention-turing",
    "danieleschmidt/Photonic-Flash-Attention",
    "cs15b047/Flash-Attention",
    "Minghuas/flash-attention-npu",
    "PaddlePaddle/flash-attention",
    "kiwmn/flash-attention-cuda-lab",
    "graphcore-research/flash-attention",
    "t-head/flash-attention-for-sail",
    "hao-ai-lab/flash-attention-fp4",
    "drew-chen/flash-attention",
    "yuvaraj1997/Flash-Attendance-System",
    "ai-bond/flash-attention-v100",
    "vllm-project/flash-attention",
    "Tugbars/Flash-Attention-PTX-CUDA",
    "baoqiwen/flash-attention",
    "littsk/flexible-flash-attention",
    "chelokot/flash-attention-rdna3",
    "youssefelbaz32/flash-attention-accelerator",
    "w4096/mini-flash-attention",
    "mjun0812/flash-attention-prebuild-wheels",
    "petrpan26/flash-attention",
    "amazon-science/dualkv-flash-attn-for-rl",
    "ishovkun/flash-attention",
    "chun-wan/flash-attention",
    "AItoBit/flash-attention-from-scratch",
    "HUSRCF/flash-attn-rocm-rdna3",
    "heuwlwenmcconick439/metal-flash-attention-plus",
    "amaye15/flash-attention-cpu",
    "66RING/tiny-flash-attention",
    "amdpilot-org/flash-attention",
    "jiayus-nvidia/flash-attention",
    "vasqu/flash-attention",
    "aghasalim/flash-attention-from-scratch",
    "santiweide/flash-attention-impls",
    "LiMMMXXX/flash-attn-accelerator",
    "joenaess/flash-attention",
    "muse-coder/flash-attention",
    "zhinianqin/flash-attention-v100",
    "AlexWortega/flash-attn-volta",
    "DrXuQian/flash-attention-annotated",
    "GMichailov/Flash-Attention-CUDA-C",
    "agupt0318/flash-attention-cuda",
    "tomx5/flash-attention",
    "AICL-Lab/cuflash-attn",
    "imperatormk/metal-flash-attention",
    "open-infra-ai/cuflash-attn",
    "softmax1/Flash-Attention-Softmax-N",
    "zhuangzi105/flash-attention",
    "vinayakgautam01/flash-attention-from-scratch",
    "Coloured-glaze/flash-attention-v100_vllm",
    "petrpan26/ring-flash-attention",
    "shrvan30/flash-attention-cuda",
    "yihanghu/flash-attention-npu",
    "aligoldenhat/flash-attention-from-scratch",
    "aden-zhao/eager-flash-attention",
    "seetaresearch/flash-attention",
    "xuanyuandy/flash-attention",
    "zhuzilin/ring-flash-attention",
    "RulinShao/sink-flash-attention-kernel",
    "konfoton/Flash-Attention",
    "sealad886/flash-attention",
    "VocabVictor/flash-attention-plus",
    "YdrMaster/learn-flash-attn",
    "amapara27/flash-attention",
    "ayush-os/flash-attn-one-cuda",
    "bghira/universal-metal-flash-attention",
    "ekulo/flash-attention-homework",
    "ghopgaurav/flash-attn-lab",
    "HuyNguyen-hust/flash-attn-101",
    "lifchrs/CUDA-Flash-Attention",
    "tobiasvanderwerff/flash-attention",
    "Repeerc/flash-attention-v2-RDNA3-minimal",
    "vlupilin/flash-attention",
    "SuperMarioYL/flash-attn-mps",
    "beginlner/flash-attention",
    "sat-wik/flash-attn-rs",
    "zml/flash-attention",
    "mohymabrouk/flash-attention-cuda",
    "raulniconico/Flash-Attention-Assignment",
    "AuruTus/toy-flash-attn",
]
assert len(FRAME) == 100, len(FRAME)
# (a), (b), (c): none of the 100 (the RULE says how each was looked up)
DROP_BY_NAME: dict[str, str] = {}
REMAINING_BEFORE_D = [r for r in FRAME if r not in DROP_BY_NAME]
# (d): find_files(repo=X, ext="cu") and ext="cuh", paths only, 18:27-18:35 UTC, after the RULE's commit d28ae886 and
# before any fetch, in frame order over frame positions 1-50 (enough for the even ranks to pass the stops; positions
# 51-100 are looked at only if the sample runs past rank 28, recorded then). Of the 50, 22 show neither .cu nor .cuh.
LOOKED = FRAME[:50]
NO_CUDA_FILES: frozenset[str] = frozenset({
    "AshunFeiyu/flash-attention3", "Tagesanbruch/flash-attn-rtl", "philipturner/metal-flash-attention",
    "AICL-Lab/diy-flash-attention", "hcwhan/flash-attn-ck-rocm-gfx120x-build",
    "robvankathmp/universal-metal-flash-attention", "gabrieldemarmiesse/flash-attn-mojo", "ActiveSky/cuda-flash-attn",
    "zzhhjjj/gemma-triton-flash-attn", "danieleschmidt/dp-flash-attention",
    "drakerfire98/flash-attention-windows-5090-fa4-shim", "jianshuqiang-cpu/flash-attention-npu",
    "MinghuasLab/flash-attention-npu", "SNAPKITTYAGENT9NOVA/flash-attention-rtl",
    "danieleschmidt/Photonic-Flash-Attention", "Minghuas/flash-attention-npu", "graphcore-research/flash-attention",
    "yuvaraj1997/Flash-Attendance-System", "chelokot/flash-attention-rdna3", "mjun0812/flash-attention-prebuild-wheels",
    "heuwlwenmcconick439/metal-flash-attention-plus", "amaye15/flash-attention-cpu",
})
CUDA_SHOWN: tuple[str, ...] = tuple(r for r in LOOKED if r not in NO_CUDA_FILES)
assert len(CUDA_SHOWN) == 28, len(CUDA_SHOWN)


def remaining() -> list[str]:
    """Ranks 1..28: the repositories of frame positions 1-50 left after (a)-(d), in frame order."""
    return [r for r in REMAINING_BEFORE_D if r in CUDA_SHOWN]


def sample() -> list[str]:
    """The sampled repositories in the order they are taken: the EVEN ranks 2, 4, 6, ... (heldout94 takes 1, 3, ...)"""
    return remaining()[1::2]


# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder) of each sampled
# repository, in sample() order: filled in after the fetch, before any measure.
CANDIDATES: list = []
DROPPED: frozenset[str] = frozenset()


def first_by_path(files: list[str]) -> list[str]:
    return files[:CAP]


if __name__ == "__main__":  # heldout24's qualifying check and loop, with this rule's cap (the first 8 by path)
    import heldout24_select as h24
    from heldout24_select import write_set
    assert [c[1] for c in CANDIDATES] == [r for r in sample() if r in {c[1] for c in CANDIDATES}], \
        "CANDIDATES must follow sample() order"
    h24.spaced = first_by_path
    write_set("ninety-fifth", "heldout95", [c for c in CANDIDATES if c[2] != NOT_FETCHED], DROPPED,
              stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
