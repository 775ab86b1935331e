#!/usr/bin/env python3
"""How the eightieth held-out set (bench/heldout80.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout80_select.py      # -> bench/heldout80.toml

RULE, written and committed (h/heldout80, 10:21 UTC, commit b5558b5d) before any candidate was fetched or measured. Not a domain:
a SYSTEMATIC SAMPLE of what users bring. The frame is the stored index's repository listing
`find_repos(name_contains="cuda-")`, called at 10:21 UTC (2026-12-07): 100 repositories, highest file_versions
first, listed in FRAME below in the listed order (the listing said more may match; the 100 listed are the frame).
  Dropped BY NAME ALONE, before any sampling (DROP_BY_NAME below, each with its reason):
    - repositories in bench/used_repos.txt or named by an earlier bench/*_select.py (NVIDIA/cuda-samples,
      rbarfinezhadfeli0/cuda-samples, L4L4-K/cuda-samples, NVIDIA/cuda-quantum, amccaskey/cuda-quantum,
      garymacindoe/cuda-cholesky, brucefan1983/CUDA-Programming, JatinKhare/cuda-course);
    - NVIDIA's own repositories (owner NVIDIA or NVlabs) and forks / copies of them, known by the repository name
      of an NVIDIA one (cuda-samples, cuda-quantum, cuda-oxide, aerial-cuda-accelerated-ran: NVIDIA's Aerial RAN);
      Brent-Newsom-NVIDIA/nvidia-cuda-wiki is a personal account, not NVIDIA's, and stays;
    - course project templates count once: the CIS565 / CIS5650 "Project3-CUDA-Path-Tracer" assignment (seven
      repositories of this frame: six course years and one student copy) is one project, and heldout25's RULE
      already named its base code (CIS565-Fall-2015/Project3-CUDA-Path-Tracer), so the "first such one" of this
      frame is already taken and all seven are dropped as siblings of a named repository (said here, before any
      look at them).
  Then dropped: repositories whose stored listing shows no .cu and no .cuh file (`find_files repo=X ext=cu` and
  `ext=cuh`: a look at paths only, no content, recorded in NO_CUDA_FILES after this commit and before any fetch).
  SAMPLE: of what remains, in frame order, every 4th repository starting with the 1st (remaining ranks 1, 5, 9,
  ...), taken in that order; if those run out before a stop, every 4th starting with the 3rd (ranks 3, 7, 11,
  ...), in order. A repository also in heldout81's frame (`find_repos(name_contains="gpu-")`) is this set's.
  QUALIFYING, files, cap and check: heldout79's rule (heldout24_select's qualifying check and vendored-folder
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
Outcome of the rule: (filled in after the path look and the fetch, before any measure of kernelport).
"""
from __future__ import annotations

STOP_FILES, STOP_PROJECTS, CAP = 40, 10, 8

# find_repos(name_contains="cuda-") at 10:21 UTC, 2026-12-07: the 100 names in listed order
FRAME = [
    "NVIDIA/cuda-quantum",
    "sora5801/cuda-cpp-healthcare-projects",
    "NVIDIA/cuda-python",
    "UTING-4517/aerial-cuda-accelerated-ran",
    "xiangzhang-coding/cuda-learning-site",
    "ssoj13/cuda-rust-windows",
    "kfernandez31/cuda-volprim",
    "goldbar123467/openttd-cuda-rl",
    "sdodlapati3/cuda-lab",
    "iteathen/CUDA-MCGS",
    "Lulzx/cuda-metal",
    "rbarfinezhadfeli0/cuda-samples",
    "sora5801/cuda-cpp-robotics-projects",
    "ece4500group18/cuda-sycl-benchmark",
    "LegendaryBo/texas-cuda-ai1",
    "iteathen/CUDA-JS",
    "NVIDIA/cuda-samples",
    "SamG-Coder/cuda-webshader",
    "ConnorBaker/cuda-packages",
    "alexoz12v2/cuda-optix-pathtracing",
    "Cuda-Chen/leetcode_pratice",
    "Stars1233/aerial-cuda-accelerated-ran",
    "sztlink/turboquant-cuda-bench",
    "forkni/cuda-link",
    "CIS5650-Fall-2025/Project3-CUDA-Path-Tracer",
    "Brent-Newsom-NVIDIA/nvidia-cuda-wiki",
    "Reuzola/modern-cpp-cuda-path-tracer-with-rust-harness",
    "Kobzol/cuda-profile",
    "pest88-spec/keycuda-p1-perf-002",
    "CIS565-Fall-2023/Project3-CUDA-Path-Tracer",
    "Clocktown/CUDA-3D-Hydraulic-Erosion-Simulation-with-Layered-Stacks",
    "Stanislav-Sartasov/CUDA-Fingerprinting",
    "eyalroz/cuda-api-wrappers",
    "TheVekT/Cuda-Launcher",
    "O1dDing/CUDA-Orbital-Visualisation",
    "discovery-unicamp/brkga-cuda-experiments",
    "CUDA-me-impressed/CuMat-Compiler",
    "liuyuanhong1/cuda-2024",
    "uurl/cuda-oxide",
    "NVlabs/cuda-oxide",
    "Enigmatisms/cuda-pt",
    "ddavis528-personal/custom-cuda-core",
    "garymacindoe/cuda-cholesky",
    "pacoccino/barracuda-pictures",
    "TurboGunner/CUDA-Simulation",
    "lcmialichi/php-cuda-ext",
    "Felix-Zhenghao/cuda-optimizer",
    "RubySunset/cuda-rpc",
    "chopsticks-user/Ray-Tracing-with-Vulkan-and-Cuda-in-Cpp",
    "barracudanetworks/barracuda-cudawaf",
    "deepreinforce-ai/CUDA-L2",
    "CIS565-Fall-2022/Project3-CUDA-Path-Tracer",
    "sekstini/CUDA-L1",
    "mmccraw98/dpCUDA-v2",
    "piotrekfus91/cuda-image-recognition",
    "NVIDIA/numba-cuda-mlir",
    "CIS565-Fall-2017/Project3-CUDA-Path-Tracer",
    "alex-lt-kong/cuda-motion",
    "manishklach/pmpp-cuda-study",
    "xlnx/cuda-raytracer",
    "amccaskey/cuda-quantum",
    "cuda-tech/woden-deprecated",
    "YdrMaster/cuda-driver",
    "troycheng/cuda-optimized-skill",
    "LeonineKing1199/cuda-stuff",
    "radna0/cuda-norm",
    "Asycuda-development/web-report-front-end",
    "ahmet-f-gumustas/cuda-advanced-projects",
    "aduckinpants/cuda-fractal-engine-state-tool",
    "strategist614/cuda-operator",
    "kernrj/cuda-sdr",
    "linjunhui/cuda-learning",
    "ddavis528-personal/custom-cuda-complier",
    "Vallabh-NTC/CUDA-for-ML-acceleration",
    "ConnorBaker/cuda-redist-find-features",
    "Dooces/nethra-cuda-runner",
    "h6294443/shape-cuda-v1.2",
    "TennisGazelle/CUDA-CapsuleNetwork-Methods",
    "drjanosch42/cuda-mpqs",
    "JatinKhare/cuda-course",
    "LessUp/cuda-kernel-academy",
    "brucefan1983/CUDA-Programming",
    "marekrydlewski/cuda-na-kiju",
    "jdgsmallwood/cuda-spatial-filtering",
    "yuancaoyaoHW/CUDA-ops-leaning",
    "swapnilghorpade/cuda-fingerprinting",
    "shivnarainms22/Cuda-Engine",
    "uv-xiao/cuda-kernel-uv",
    "Olajide-Badejo/CUDA-Kernel-Library",
    "CIS565-Fall-2020/Project3-CUDA-Path-Tracer",
    "Aayushongit/cuda-learning",
    "chh22331/CUDA-PBF-fluid-sim",
    "charlesAcmen/Project3-CUDA-Path-Tracer",
    "derossm/cuda-doom",
    "CIS565-Fall-2021/Project3-CUDA-Path-Tracer",
    "L4L4-K/cuda-samples",
    "invisibleroads/find-buildings-cuda-convnet",
    "tungsheng/cuda-kernel-lab",
    "Unity-Technologies/barracuda-release",
    "mikepapadim/tornadovm-devoxx2026-cuda-demos",
]

_USED = "in bench/used_repos.txt / named by an earlier select script"
_NV = "NVIDIA's own (NVIDIA / NVlabs)"
_NVCOPY = "a copy of an NVIDIA repository (same name)"
_CIS = "CIS565 path-tracer course template: heldout25 named its base code"
DROP_BY_NAME = {
    "NVIDIA/cuda-quantum": _NV, "NVIDIA/cuda-python": _NV, "NVIDIA/cuda-samples": _NV, "NVlabs/cuda-oxide": _NV,
    "NVIDIA/numba-cuda-mlir": _NV,
    "UTING-4517/aerial-cuda-accelerated-ran": _NVCOPY, "Stars1233/aerial-cuda-accelerated-ran": _NVCOPY,
    "rbarfinezhadfeli0/cuda-samples": _NVCOPY, "L4L4-K/cuda-samples": _NVCOPY, "uurl/cuda-oxide": _NVCOPY,
    "amccaskey/cuda-quantum": _NVCOPY,
    "garymacindoe/cuda-cholesky": _USED, "brucefan1983/CUDA-Programming": _USED, "JatinKhare/cuda-course": _USED,
    "CIS5650-Fall-2025/Project3-CUDA-Path-Tracer": _CIS, "CIS565-Fall-2023/Project3-CUDA-Path-Tracer": _CIS,
    "CIS565-Fall-2022/Project3-CUDA-Path-Tracer": _CIS, "CIS565-Fall-2017/Project3-CUDA-Path-Tracer": _CIS,
    "CIS565-Fall-2020/Project3-CUDA-Path-Tracer": _CIS, "charlesAcmen/Project3-CUDA-Path-Tracer": _CIS,
    "CIS565-Fall-2021/Project3-CUDA-Path-Tracer": _CIS,
}
# repositories whose stored listing shows no .cu and no .cuh (find_files ext=cu and ext=cuh, paths only, 10:21-10:22 UTC,
# after the RULE's commit b5558b5d and before any fetch): 23 of the 79 left after DROP_BY_NAME
NO_CUDA_FILES: frozenset[str] = frozenset({
    "ConnorBaker/cuda-packages",
    "sztlink/turboquant-cuda-bench",
    "forkni/cuda-link",
    "Brent-Newsom-NVIDIA/nvidia-cuda-wiki",
    "Reuzola/modern-cpp-cuda-path-tracer-with-rust-harness",
    "TheVekT/Cuda-Launcher",
    "ddavis528-personal/custom-cuda-core",
    "pacoccino/barracuda-pictures",
    "Felix-Zhenghao/cuda-optimizer",
    "chopsticks-user/Ray-Tracing-with-Vulkan-and-Cuda-in-Cpp",
    "barracudanetworks/barracuda-cudawaf",
    "sekstini/CUDA-L1",
    "alex-lt-kong/cuda-motion",
    "cuda-tech/woden-deprecated",
    "radna0/cuda-norm",
    "Asycuda-development/web-report-front-end",
    "aduckinpants/cuda-fractal-engine-state-tool",
    "ConnorBaker/cuda-redist-find-features",
    "Dooces/nethra-cuda-runner",
    "yuancaoyaoHW/CUDA-ops-leaning",
    "invisibleroads/find-buildings-cuda-convnet",
    "tungsheng/cuda-kernel-lab",
    "Unity-Technologies/barracuda-release",
})


def remaining() -> list[str]:
    return [r for r in FRAME if r not in DROP_BY_NAME and r not in NO_CUDA_FILES]


def sample() -> list[str]:
    """The sampled repositories in the order they are taken: ranks 1, 5, 9, ... then 3, 7, 11, ..."""
    rest = remaining()
    return rest[0::4] + rest[2::4]


if __name__ == "__main__":
    for i, r in enumerate(sample(), 1):
        print(i, r)
