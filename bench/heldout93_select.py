#!/usr/bin/env python3
"""How the ninety-third held-out set (bench/heldout93.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout93_select.py      # -> bench/heldout93.toml

RULE, written and committed (h/heldout93, 15:39 UTC, commit 5752b6bd) before any repository was fetched or measured and before any
file listing was looked up. Not a domain: a SYSTEMATIC SAMPLE of what users bring (stop 61's method, heldout89's
template, stop 63's frames and offsets). The frame is the stored index's repository listing
`find_repos(name_contains="gpu")`, called at 15:38 UTC on 2026-12-07: 100 repositories, highest file_versions first,
recorded below (FRAME) in the listed order (the listing said more may match; the 100 listed are the frame). The
sibling heldout92 samples the same frame from rank 1; this set from rank 3, so the two are disjoint by construction.
  Drops, by name and listing alone (no file's text read, nothing fetched), recorded in DROP_BY_NAME / NO_CUDA_FILES:
    a. a repository in bench/used_repos.txt (main's, or a sibling worktree's /work/wt/*/bench/used_repos.txt) or
       named as a CANDIDATE by an earlier bench/*_select.py RULE (its CANDIDATES tuples or numbered candidate list;
       names a FRAME, DROP_BY_NAME or NO_CUDA_FILES merely lists are listings, not candidates, heldout86's reading);
       lower-cased exact match, 15:40 UTC: picongpu, gpu4pyscf, GPUMD, FLAMEGPU2 (used) and eight more that (c)
       drops too (see DROP_BY_NAME); a repository the sibling heldout92 takes (its worktree's used_repos.txt) is
       dropped too when it is there before this set's fetch;
    b. NVIDIA's own repositories (owner NVIDIA or NVlabs) and forks / copies of NVIDIA/cuda-samples (by name):
       NVIDIA/open-gpu-kernel-modules (also (c));
    c. a name containing an earlier frame's string "cuda-", "gpu-", "cuda_", "-cuda", "gpu_", "_gpu", "-gpu",
       "hpc", "parallel", or "cuda" (the cuda frame's: heldout90/91), case-insensitive: 35 names, in DROP_BY_NAME;
    d. a repository whose stored listing shows no CUDA source: `find_files(repo=X, ext="cu")` and
       `find_files(repo=X, ext="cuh")` both return zero paths (a look at paths only; recorded in NO_CUDA_FILES after
       this commit and before any fetch);
    e. course project templates count once: the first such repository in frame order stays, its siblings (the same
       assignment, other students / years) drop. By name none of the 60 left is a course template with siblings;
       several names repeat "gpui" (energye/gpui, suxiaoshao/gpui, gpui-luma-dev/gpui-luma, ...): a name alone does
       not make a fork, so they stay; a taken repository whose taken files are byte-for-byte those of one taken
       before it (a fork) adds nothing (heldout80's rule).
  Sample: number the remaining repositories (after a-e) 1, 2, 3, ... in frame order; take ranks 3, 7, 11, ... (every
  4th starting with the 3rd), in order; while the set holds too few, continue with ranks 4, 8, 12, ... (every 4th,
  in order). Ranks 1, 5, ... and 2, 6, ... are the sibling heldout92's and are NOT taken: if the two passes give too
  few, the set is what they give.
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
  STOP_FILES = 40 files or STOP_PROJECTS = 10 projects. If the frame is too thin to reach either, the set is what
  the two passes give: the rule is not widened after this commit.
Outcome of the drops and the passes (15:39-15:45 UTC, before any measure of kernelport): 40 repositories dropped by
  name (a/b/c), 50 by the path look (d: WebGPU, gpui UIs, Rust/TS/Go projects, AMD drivers...; 6 of those looks were
  truncated listings showing zero paths, named above CUDA_SHOWN), 10 remain, numbered in frame order:
    1 vortexgpgpu/vortex  2 sarchlab/mgpusim  3 m4rs-mt/ILGPU  4 gpustack/gpustack-operator  5 bobleesj/quantem.gpu
    6 gtcasl/gpuocelot  7 TryDotAtwo/MultiGPUBFS  8 khemisset18/gpubnb  9 pantheongpu/pantheonsim
    10 TryDotAtwo/MultiGPUBeamSearch
  First pass (ranks 3, 7): ILGPU 0 files (its newest snapshot b4fd8b33 holds no .cu: the CUB wrappers under
  Src/ILGPU.Lightning.Native/Cuda/ that the listing shows were removed by 94af1a5a; DROPPED), MultiGPUBFS not
  fetched (no snapshot can be had here, tried twice). Second pass (ranks 4, 8): gpustack-operator not fetched (idem),
  gpubnb 1 (1 of 1 resolves: containers/gpu-proof-workspace/gpu_proof.cu, built by its Dockerfile with CUDA 13.0.1's
  nvcc -O2 --use_fast_math). Check (`nvcc -c`, 15:45 UTC): 1/1. THE FRAME IS THIN: after the drops it holds 10
  repositories with CUDA source, this set's two passes 4 of them, of which one gives a file. The set: 1 file in one
  project (gpubnb 1), far below STOP_FILES; the rule is not widened (ranks 1, 5, ... and 2, 6, ... are heldout92's).
  Caveat, said and not acted on: the one file is a GPU-presence smoke test (one elementwise kernel, a host loop).
"""
from __future__ import annotations

STOP_FILES, STOP_PROJECTS, CAP = 40, 10, 8
NOT_FETCHED = "(fetch: no snapshot of that repository can be had here)"

# find_repos(name_contains="gpu") at 15:38 UTC, 2026-12-07: the 100 names in listed order
FRAME = [
    "vortexgpgpu/vortex",
    "redcamel/RedGPU",
    "ComputationalRadiationPhysics/picongpu",
    "software-mansion/TypeGPU",
    "wieslawsoltes/ProGPU",
    "cyew3/oneVPL-intel-gpu",
    "wrf-gpu/wrf_gpu",
    "HuangPuStar/FenixAgent",
    "christosk92/fluent-gpu",
    "gfx-rs/wgpu",
    "D-Ogi/amdgpu-wddm",
    "yuhuiaws/GPU-Fault-Recovery-System",
    "kurtyoung-dev/cesium-webgpu",
    "NVIDIA/open-gpu-kernel-modules",
    "dakotamurphyucf/gpuio",
    "energye/gpui",
    "QianMo/GPU-Pro-Books-Source-Code",
    "GPUOpen-Archive/CodeXL",
    "NoxxGames/LiberPrimus-GPU",
    "gpustack/gpustack-ui",
    "sarchlab/mgpusim",
    "frontloss/GPU_Validation_Infrastructure",
    "dykamino-coder/gpui-kamin-ide",
    "GPUOpen-Tools/GPU-Reshape",
    "vercel-labs/vgpu",
    "TheHiddenObserver/statgpu",
    "Gangasagarhl/bare-metal-to-gpu-university",
    "JuliaGPU/CUDA.jl",
    "Kicky1618/oneesan-gpu",
    "chinmay-sawant/go-gpui",
    "emu-russia/gpuBladeSoft",
    "asciich/asciichgolangpublic",
    "gpui-luma-dev/gpui-luma",
    "m4rs-mt/ILGPU",
    "leptonai/gpud",
    "iomeone/gputest",
    "swasanaweddingpusat/swasana-project",
    "rohanchanani/pi-gpu-lab",
    "AStaroverov/exp_webgpu_tf",
    "gpustack/gpustack",
    "Latias94/open-gpui",
    "otyagi/GNNTrackFinder-gpu",
    "gpustack/gpustack-operator",
    "martinlaxenaire/gpu-curtains",
    "likev/CodeOrpgPub",
    "yangfengzzz/Arche-webgpu",
    "wcandillon/react-native-webgpu",
    "dreamyloong2005/cgpui",
    "rsasaki0109/gnss_gpu",
    "DevHead-LLC/RisingPunk",
    "DeegayuA/LogPup",
    "suxiaoshao/gpui",
    "jaigouk/gpumod",
    "bobleesj/quantem.gpu",
    "GPUOpen-Drivers/pal",
    "Rendering-FIT/GPUEngine",
    "NexusI9/webgpu-sandbox",
    "pyscf/gpu4pyscf",
    "gtcasl/gpuocelot",
    "reallyhimbrodigy/promptly-gpu-worker",
    "wgpu4k/wgpu4k",
    "GPUOpen-Drivers/llpc",
    "brucefan1983/GPUMD",
    "GPUOpen-LibrariesAndSDKs/RadeonProRenderUE",
    "Team-Argentum/JavaToGpu",
    "ianras77/gpu-private-store",
    "kjk/gpui-cpp",
    "jeiths2202/gpubase-raphrag",
    "Zushah/WasmGPU",
    "navatala-systems/navatala_gpu",
    "TryDotAtwo/MultiGPUBFS",
    "SisyphusMountain/gpurec",
    "qubeenyoung/gpu-powerflow",
    "msankofa/workshop-webgpu",
    "eunomia-bpf/gpu_ext",
    "flycat0101/gpu-viv6-andy",
    "Open-S2/s2maps-gpu",
    "MarkKirichko2002/AGPU-iOS-App",
    "Rust-Framework/rust-gpui-rml",
    "EmilSV/WebGPUSharp",
    "houmain/gpupad",
    "FLAMEGPU/FLAMEGPU2",
    "longbridge/gpui-component",
    "khemisset18/gpubnb",
    "GPUOpen-Drivers/xgl",
    "pantheongpu/pantheonsim",
    "gpu-cli/vz",
    "kingpumpski/harmony-health-hub",
    "AIFanatic/Trident-WEBGPU",
    "TryDotAtwo/MultiGPUBeamSearch",
    "QianMo/GPU-Gems-Book-Source-Code",
    "gnome-child/wgpu_app_framework",
    "iamwilhelm/use.gpu",
    "woowacourse-teams/2021-gpu-is-mine",
    "Shad107/gpu-dashboard",
    "torlambrechts-sketch/Orgpuls",
    "Casttiiel/WebGPUEngine",
    "GPUOpen-Tools/gpu_performance_api",
    "CodeHariK/WebGpu",
    "pierreaubert/gpui-toolkit",
]

DROP_BY_NAME = {
    "ComputationalRadiationPhysics/picongpu": "(a): in bench/used_repos.txt",
    "cyew3/oneVPL-intel-gpu": "(c): its name holds '-gpu'",
    "wrf-gpu/wrf_gpu": "(a): in bench/used_repos.txt (heldout86's set); (c): '_gpu', '-gpu'",
    "christosk92/fluent-gpu": "(c): its name holds '-gpu'",
    "D-Ogi/amdgpu-wddm": "(a): a candidate of heldout81's RULE; (c): 'gpu-'",
    "yuhuiaws/GPU-Fault-Recovery-System": "(c): its name holds 'gpu-'",
    "NVIDIA/open-gpu-kernel-modules": "(b): NVIDIA's own; (c): 'gpu-', '-gpu'",
    "QianMo/GPU-Pro-Books-Source-Code": "(a): a candidate of heldout81's RULE; (c): 'gpu-'",
    "NoxxGames/LiberPrimus-GPU": "(a): in bench/used_repos.txt (heldout87's set); (c): '-gpu'",
    "frontloss/GPU_Validation_Infrastructure": "(c): its name holds 'gpu_'",
    "GPUOpen-Tools/GPU-Reshape": "(c): its name holds 'gpu-'",
    "Gangasagarhl/bare-metal-to-gpu-university": "(a): a candidate of heldout81's RULE; (c): 'gpu-', '-gpu'",
    "JuliaGPU/CUDA.jl": "(c): its name holds 'cuda' (the cuda frame's)",
    "Kicky1618/oneesan-gpu": "(a): a candidate of heldout87's RULE; (c): '-gpu'",
    "chinmay-sawant/go-gpui": "(c): its name holds '-gpu'",
    "rohanchanani/pi-gpu-lab": "(c): its name holds 'gpu-', '-gpu'",
    "AStaroverov/exp_webgpu_tf": "(c): its name holds 'gpu_'",
    "Latias94/open-gpui": "(c): its name holds '-gpu'",
    "otyagi/GNNTrackFinder-gpu": "(c): its name holds '-gpu'",
    "martinlaxenaire/gpu-curtains": "(c): its name holds 'gpu-'",
    "rsasaki0109/gnss_gpu": "(a): in bench/used_repos.txt (heldout86's set); (c): '_gpu'",
    "NexusI9/webgpu-sandbox": "(c): its name holds 'gpu-'",
    "pyscf/gpu4pyscf": "(a): in bench/used_repos.txt",
    "reallyhimbrodigy/promptly-gpu-worker": "(c): its name holds 'gpu-', '-gpu'",
    "brucefan1983/GPUMD": "(a): in bench/used_repos.txt",
    "ianras77/gpu-private-store": "(c): its name holds 'gpu-'",
    "navatala-systems/navatala_gpu": "(a): in bench/used_repos.txt (heldout86's set); (c): '_gpu'",
    "qubeenyoung/gpu-powerflow": "(a): in bench/used_repos.txt; (c): 'gpu-'",
    "eunomia-bpf/gpu_ext": "(a): in bench/used_repos.txt (heldout85's set); (c): 'gpu_'",
    "flycat0101/gpu-viv6-andy": "(c): its name holds 'gpu-'",
    "Open-S2/s2maps-gpu": "(c): its name holds '-gpu'",
    "MarkKirichko2002/AGPU-iOS-App": "(c): its name holds 'gpu-'",
    "Rust-Framework/rust-gpui-rml": "(c): its name holds '-gpu'",
    "FLAMEGPU/FLAMEGPU2": "(a): in bench/used_repos.txt",
    "gpu-cli/vz": "(c): its name holds 'gpu-'",
    "QianMo/GPU-Gems-Book-Source-Code": "(a): in bench/used_repos.txt; (c): 'gpu-'",
    "gnome-child/wgpu_app_framework": "(c): its name holds 'gpu_'",
    "woowacourse-teams/2021-gpu-is-mine": "(c): its name holds 'gpu-', '-gpu'",
    "Shad107/gpu-dashboard": "(c): its name holds 'gpu-'",
    "GPUOpen-Tools/gpu_performance_api": "(c): its name holds 'gpu_'",
}
# repositories whose stored listing shows no .cu and no .cuh (find_files ext=cu and ext=cuh, paths only, 15:39-15:40 UTC,
# after the RULE's commit 5752b6bd and before any fetch): 50 of the 60 left after DROP_BY_NAME. For 6 of them the look
# said "more files matched than are listed" with zero paths shown, for ext=cu and ext=cuh both (redcamel/RedGPU,
# software-mansion/TypeGPU, wieslawsoltes/ProGPU, gfx-rs/wgpu, GPUOpen-Drivers/pal, GPUOpen-Drivers/llpc): the rule
# reads the zero paths as written (no CUDA source shown) and drops them (heldout89's reading); said, not acted on.
# the 10 whose look showed .cu paths (all others of the 60 showed none, .cuh included): NO_CUDA_FILES is the rest
CUDA_SHOWN = (
    "vortexgpgpu/vortex",            # 2 paths, both dice_new/tb/.../csrc/filelist.cu (a testbench's file list?)
    "sarchlab/mgpusim",
    "m4rs-mt/ILGPU",
    "gpustack/gpustack-operator",
    "bobleesj/quantem.gpu",
    "gtcasl/gpuocelot",
    "TryDotAtwo/MultiGPUBFS",
    "khemisset18/gpubnb",
    "pantheongpu/pantheonsim",
    "TryDotAtwo/MultiGPUBeamSearch",
)
NO_CUDA_FILES: frozenset[str] = frozenset(FRAME) - set(DROP_BY_NAME) - set(CUDA_SHOWN)


def remaining() -> list[str]:
    return [r for r in FRAME if r not in DROP_BY_NAME and r not in NO_CUDA_FILES]


def sample() -> list[str]:
    """The sampled repositories in the order they are taken: ranks 3, 7, 11, ... then 4, 8, 12, ..."""
    rest = remaining()
    return rest[2::4] + rest[3::4]


# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder) of each sampled
# repository, in sample() order: include dirs, defines and flags from each project's own build, read after the
# fetch and before any measure. A repository `fetch` could not bring is listed with NOT_FETCHED (tried twice,
# 15:41 and 15:43 UTC).
CANDIDATES = [
    # its newest snapshot (b4fd8b33) holds no .cu at all: Src/ILGPU.Lightning.Native/Cuda/*.cu (CUB wrappers) were
    # removed by 94af1a5a ("Removed native CUB dependency"); the rule takes the newest snapshot: 0 files, DROPPED
    ("ilgpu", "m4rs-mt/ILGPU", "see LICENSE.txt", ["LICENSE.txt"], [], [], ["-std=c++17"], ""),
    ("multigpubfs", "TryDotAtwo/MultiGPUBFS", NOT_FETCHED, [], [], [], [], ""),
    ("gpustack-operator", "gpustack/gpustack-operator", NOT_FETCHED, [], [], [], [], ""),
    # containers/gpu-proof-workspace/Dockerfile: nvcc -O2 --use_fast_math -Xcompiler=-fPIE gpu_proof.cu (CUDA 13.0.1)
    ("gpubnb", "khemisset18/gpubnb", "(none in the repository)", [], [], [],
     ["-std=c++17", "-O2", "--use_fast_math"], "containers/"),
]
DROPPED: frozenset[str] = frozenset({"m4rs-mt/ILGPU"})


def first_by_path(files: list[str]) -> list[str]:
    return files[:CAP]


if __name__ == "__main__":  # heldout24's qualifying check and loop, with this rule's cap (the first 8 by path)
    import heldout24_select as h24
    from heldout24_select import write_set
    assert [c[1] for c in CANDIDATES] == sample()[:len(CANDIDATES)], "CANDIDATES must follow sample() order"
    h24.spaced = first_by_path
    write_set("ninety-third", "heldout93", [c for c in CANDIDATES if c[2] != NOT_FETCHED], DROPPED,
              stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
