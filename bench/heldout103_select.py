#!/usr/bin/env python3
"""How the hundred-and-third held-out set (bench/heldout103.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout103_select.py      # -> bench/heldout103.toml

RULE, written and committed (h/heldout103) before any repository was fetched or measured and before any file
listing was looked up. Not a domain: a SYSTEMATIC SAMPLE (stop 66's method; bench/heldout100_select.py's template,
stop 64's drops). The frame is the stored index's repository listing `find_repos(name_contains="fluid-sim")`,
called at 23:58 UTC on 2026-12-07: 100 repositories, highest file_versions first, recorded below (FRAME) in the
listed order (the listing said more may match; the 100 listed are the frame). By name much of the frame is WebGL /
WebGPU / Rust / Java / Unity / DirectX code: drop (d) removes those with no CUDA source; the rule is not widened for
that. heldout103 takes EVERY rank 1, 2, 3, ... (its own frame; stop 66's task).
  Drops, each repository given the first reason that applies, ranks counted ONCE on a list that depends only on main
  (69f971f3, main's head at 23:58 UTC) and the frame, never on a sibling's progress:
    a. a repository in main's bench/used_repos.txt or a candidate of any bench/*_select.py on main (grep,
       case-insensitive, of each owner/name): none (the one hit, chh22331/CUDA-PBF-fluid-sim, is a FRAME name of
       heldout80, not a candidate of it or of any set: (c));
    b. NVIDIA's own (owner NVIDIA, NVlabs, NVIDIA-*) and copies of NVIDIA/cuda-samples:
       NVIDIA-Omniverse-blueprints/digital-twins-for-fluid-simulation (owner NVIDIA-*);
    c. a repository in ANY earlier frame: every FRAME list in main's bench/heldout*_select.py (the same grep):
       chh22331/CUDA-PBF-fluid-sim (heldout80's "cuda-" frame), and this stop's lower-numbered siblings' frames,
       find_repos "spmv" (heldout101) and "lbm" (heldout102): a name in those frames holds "spmv" or "lbm", and none
       of these 100 does: none;
    d. no `.cu`/`.cuh` in its stored listing: `find_files(repo=X, ext="cu")` and, where that shows no path,
       `find_files(repo=X, ext="cuh")` both show zero paths (paths only; recorded in CUDA_SHOWN after this commit and
       before any fetch). The looks go in frame order; a look that says "more matched" with zero paths shown is read
       as zero paths (heldout90's reading);
    e. forks/copies: a repository whose taken files are byte-for-byte those of one taken before it adds nothing
       (0 files); applied when files are taken, it does NOT renumber.
  Sample: number what remains after (a)-(d) 1, 2, 3, ... in frame order and take ranks 1, 2, 3, ... in order. No
  fallback pass.
  QUALIFYING, files, cap and check: heldout100's (heldout94's; heldout90's; heldout80's rule, heldout24_select's
  qualifying check and vendored-folder filter) with CAP = 8 per repository, the FIRST 8 in path order: a repository
  qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its source folder have every
  `#include` they reach resolve in the repository, the CUDA toolkit (CUDA 13 with its cccl/ thrust and cub; no cuFFT,
  cuBLAS, cuRAND, cuSPARSE, cuSOLVER, NCCL, NVSHMEM headers here) or the host compiler's search path, with the include
  dirs of the project's build; absent third-party headers (OpenGL/GLFW/GLEW/GLUT, SDL, Qt, OpenCV, Eigen, MPI, torch,
  Kokkos), generated headers and absent submodules do not resolve, and no stand-in headers are taken. Files: `.cu`
  only under the source folder read from the build files after the fetch and before any measure (the whole
  repository when the build names no single folder), less vendored folders (third_party, 3rdparty, external,
  extern), over the size cap, not resolving, or byte-for-byte copies. Include dirs, defines and flags from the
  project's own build (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left out).
  Self-contained check: the first three files taken (all if fewer) are compiled with `nvcc -c` and the project's
  flags; a project of which fewer than two (one if it gives one) compile, for a reason other than CUDA 13's removed
  APIs, drops out (DROPPED), as does one that cannot be fetched, does not qualify or gives 0 files. Sampled
  repositories are taken in order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 10 projects;
  if the frame runs out first, the set is what it gives (said, not widened).
Outcome of the drops and the sampling (23:58-00:02 UTC, before any measure of kernelport): none dropped by (a); 1 by
  (b) (NVIDIA-Omniverse-blueprints/digital-twins-for-fluid-simulation), 1 by (c) (chh22331/CUDA-PBF-fluid-sim, in
  heldout80's "cuda-" frame); (d) leaves 11 of the 98 (CUDA_SHOWN). Every rank (qualifying: of the first 10 .cu by
  path, the rule's textual include check): 1 petbab/fluid-simulation 1/10 (glm, glad, GLFW, imgui from vcpkg and the
  KTT submodule's Ktt.h: absent), 2 gamdow/Interactive-Fluid-Sim 6/7 (6 files; camera_filter.cu reaches OpenCV),
  3 lukasvarhol/fluid-sim 0/2 (tbb/parallel_for.h: absent), 4 junwei-jiang/Hybrid-Fluid-Simulation 0/10 (boost
  archive / property_tree: absent), 5 artdien/fluid-sim and 6 JustARandomBadDev/fluid-simulator (fetch: no
  snapshot), 7 greenhoody/Fluid-Simulation 2/2 (2), 8 ChaitanyaKatti/SPH-Fluid-Simulations 0 (its newest snapshot
  holds no .cu), 9 MrMagnifico/cuda-fluid-sim 1/6 (its vendored glm's platform branches name CL/sycl.hpp and
  arm_neon.h, OpenGL/gl.h: the textual check reads every #include), 10 MariPadilha/fluid-simulation-in-porous-media
  (fetch: no snapshot), 11 CHEN20060804/fluid-sim 1/1 (1). (e): none of the three taken is a copy of another.
  Check (`nvcc -c`, the first three, 00:01 UTC): gamdow 1/3 (utility.cu and managed_array.cu reach its copy of
  helper_cuda.h, which reads cudaDeviceProp::computeMode and ::clockRate: CUDA 13 removed them, so not a drop),
  greenhoody 1/2 (HostCudaSimulation.cu: std::shared_ptr without <memory>, which MSVC's headers bring in: the
  source's) -> DROPPED, chen 1/1. THE FRAME IS THIN: every rank was taken and the set is 7 files in 2 projects
  (gamdow 6, chen-pbf 1), far under STOP_FILES / STOP_PROJECTS; not widened. Most of the frame is WebGL / WebGPU /
  Unity / Rust / Java / OpenGL-compute code with no CUDA.
"""
from __future__ import annotations

STOP_FILES, STOP_PROJECTS, CAP = 40, 10, 8
NOT_FETCHED = "(fetch: no snapshot of that repository can be had here)"

# find_repos(name_contains="fluid-sim") at 23:58 UTC, 2026-12-07: the 100 names in listed order
FRAME = [
    "tmarrec/fluid-simulation", "malaysianbirdpark/Grid-Based-Fluid-Simulation", "mordak42/fluid-simulation",
    "MarcVivas/fluid-simulation", "petbab/fluid-simulation", "osbo/fluid-sim",
    "ValCanBuild/Fluid-Simulation-DirectX11", "SammyMcFly/fluid-simulation", "AdamLoe/fluid-simulation",
    "Paultier96/Fluid-Sim", "ben-swilliams/fluid-simulation", "chh22331/CUDA-PBF-fluid-sim",
    "MartinOpat/Lagrangian-fluid-simulation-for-Android", "sunswadesh/Plasma-Fluid-Simulation-PFFDTD",
    "aWilson41/SPH-Fluid-Simulation", "gamdow/Interactive-Fluid-Sim", "lukasvarhol/fluid-sim",
    "Wania8462/Fluid-simulation", "MAKOTO02/fluid-sim", "junwei-jiang/Hybrid-Fluid-Simulation",
    "ZhuZihao0915/Fluid-Simulation-System", "Andras-T/Efficient-rendering-of-SPH-based-fluid-simulations",
    "LinzhouLi/WebGPU-Fluid-Simulation", "edobrowo/fluid-sims", "AICL-Lab/particle-fluid-sim",
    "alexanderi96/go-fluid-simulator", "ppokhrel1/fluid-simulator-frontend", "startbit96/rtgp-fluid-simulation",
    "TbabmBarry/eulerian-2d-fluid-simulation", "SlyZ1/Fluid-Sim", "FYP-M4-Fluid-Simulator/TurboDiff",
    "juliandashev/fluid-simulation", "viclw17/SPH-3D-Fluid-Simulation", "FYP-M4-Fluid-Simulator/Frontend-Code",
    "loosstef/grid-based-fluid-simulator", "lukiwa/STUD-Fluid-Simulation", "Screendead/fluid-simulation-app",
    "haansu/fluid-sim", "lasagnaphil/fluid-sim", "Astralye/Fluid-Simulation-Project", "Frager/CA-Fluid-Simulation",
    "NVIDIA-Omniverse-blueprints/digital-twins-for-fluid-simulation", "bokovhu/webgl-fluid-simulation",
    "artdien/fluid-sim", "jseok1/sph-fluid-sim", "JustARandomBadDev/fluid-simulator", "wjgra/fluid-sim-opengl",
    "raesga02/Fluid-Simulation", "Danny-Yan/Particle-fluid-simulation", "Francois-Esquire/fluid-simulation",
    "Tarang74/fluid-sim", "greenhoody/Fluid-Simulation", "linusmossberg/fluid-simulator",
    "Bixio999/3d-fluid-simulation", "StanMarek/rust-fluid-simulator", "lukix/fluid-simulation",
    "ChaitanyaKatti/SPH-Fluid-Simulations", "trazd66/Marker-and-Cell-MAC-Based-2D-Fluid-Simulation-with-libigl",
    "jeroenwjb/webgpu-fluid-sim", "kaz2700/fluid-simulator", "ppokhrel1/fluid-simulator-backend",
    "a4lamber/fluid-simulation-java", "maxrpark/webgl-fluid-simulation", "AkinAguda/fluid-simulation-rust",
    "duxirosenberg/fast-fluid-simulation", "alkapone312/fluid-simulation", "francescodg4/fluid-simulator",
    "grant-tm/OpenGL-Fluid-Simulation", "Gianluca-Iacchini/Fluid-Simulation", "shuya-tamaru/fluid-simulation-tsl",
    "brokkko/Fluid-Simulation", "logixoul/fluid-sims", "mjanes/fluid-simulation-java", "ArnavChoudhary9/fluid-sim",
    "RealAbdurRehman/fluid-simulation", "agagtmdtlr/Fluid-Simulation", "MrMagnifico/cuda-fluid-sim",
    "YumengHe/Fluid-Simulation", "h-wang94/Lagrangian-Fluid-Simulation",
    "consequencesunintended/SPH-Fluid-Simulation", "jackypark9852/fluid-sim", "junwei-jiang/SOEPP-Fluid-Simulation",
    "drozd324/Fluid-Sim", "ObeyaMember/fluid-sim-erosion", "Mstracey2/Fluid-Sim-URP", "bhatnathan/fluid-sim",
    "ddragula/thrj-fluid-sim", "JacksonTurner101/Fluid-Simulation", "MariPadilha/fluid-simulation-in-porous-media",
    "Matezzzz/vulkan-3d-fluid-simulation", "CHEN20060804/fluid-sim", "shobuzako-kensuke/LS-SPH-Fluid-Simulator",
    "metarapi/fluid-sim-webgpu", "AlexDs20/Fluid-Simulation", "xzh0ng/fluid-simulation", "medcsb/fluid-simulation",
    "Neawin/fluid-sim", "ZackHarrington/fluid-simulator", "MostRealJarinMusic/Fluid-Simulator",
    "EugenioBarbieriViale/fluid-sim",
]

# (a): in main's bench/used_repos.txt or a candidate of a bench/*_select.py on main (69f971f3): none
USED_OR_CANDIDATE: tuple[str, ...] = ()
# (b): owner NVIDIA / NVlabs / NVIDIA-*, or a copy of NVIDIA/cuda-samples
NVIDIA_OWN = ("NVIDIA-Omniverse-blueprints/digital-twins-for-fluid-simulation",)
# (c): in an earlier FRAME list of main's bench/heldout*_select.py (heldout80's "cuda-") or the "spmv"/"lbm" frames
IN_EARLIER_FRAME = ("chh22331/CUDA-PBF-fluid-sim",)
DROP_BY_NAME: dict[str, str] = {r: "(a): used or an earlier set's candidate" for r in USED_OR_CANDIDATE}
DROP_BY_NAME.update({r: "(b): NVIDIA's own or a cuda-samples copy" for r in NVIDIA_OWN})
DROP_BY_NAME.update({r: "(c): in an earlier frame" for r in IN_EARLIER_FRAME})
REMAINING_BEFORE_D = [r for r in FRAME if r not in DROP_BY_NAME]
assert len(FRAME) == 100 and len(REMAINING_BEFORE_D) == 98, len(REMAINING_BEFORE_D)
# (d): find_files(repo=X, ext="cu"), then ext="cuh" where that showed no path; paths only; after the RULE's commit.
# Positions 1-60 looked (.cu) 23:59-00:02 UTC before any fetch; the four ranks they gave first were fetched, then
# positions 61-98 looked (every rank is taken, so the set needed the whole frame). The .cuh look was skipped where
# the .cu look showed none (heldout96's and heldout100's reading): the rule takes `.cu` files only, so such a
# repository gives 0 files whether (d) drops it or not, and every rank is taken (the numbering moves no choice).
# osbo/fluid-sim's .cu look said "more matched" with zero paths shown: read as zero paths (heldout90's reading).
LOOKED = REMAINING_BEFORE_D
CUDA_SHOWN = (
    "petbab/fluid-simulation", "gamdow/Interactive-Fluid-Sim", "lukasvarhol/fluid-sim",
    "junwei-jiang/Hybrid-Fluid-Simulation", "artdien/fluid-sim", "JustARandomBadDev/fluid-simulator",
    "greenhoody/Fluid-Simulation", "ChaitanyaKatti/SPH-Fluid-Simulations", "MrMagnifico/cuda-fluid-sim",
    "MariPadilha/fluid-simulation-in-porous-media", "CHEN20060804/fluid-sim",
)
NO_CUDA_FILES: frozenset[str] = frozenset(r for r in LOOKED if r in REMAINING_BEFORE_D) - set(CUDA_SHOWN)


def remaining() -> list[str]:
    """Ranks 1, 2, 3, ...: the repositories of the frame left after (a)-(d), in frame order."""
    return [r for r in REMAINING_BEFORE_D if r in LOOKED and r not in NO_CUDA_FILES]


def sample() -> list[str]:
    """Every rank, in order."""
    return remaining()


# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder) of each sampled
# repository, in sample() order: filled in after the fetch, from each build, before any measure.
CANDIDATES = [
    # CMakeLists.txt + cmake/ConfigureTarget.cmake: GLOB_RECURSE src/*.cu (less src/cuda/tuning/kernels/, KTT's
    # run-time kernels: they stay under the folder, the rule takes a folder), include dir src/ (+ the KTT submodule,
    # vcpkg's glm/glfw/glad/imgui/Open3D/nlohmann_json: absent); CUDA 20, --expt-relaxed-constexpr --extended-lambda,
    # -O3 (Release), separable; defines USE_DOUBLE_PRECISION=OFF GLM_ENABLE_EXPERIMENTAL GLM_FORCE_CUDA NOT_IN_KTT
    ("petbab-sph", "petbab/fluid-simulation", "(see LICENSE)", ["LICENSE"], ["src"],
     ["USE_DOUBLE_PRECISION=OFF", "GLM_ENABLE_EXPERIMENTAL", "GLM_FORCE_CUDA", "NOT_IN_KTT"],
     ["-std=c++20", "--expt-relaxed-constexpr", "--extended-lambda", "-O3", "-rdc=true"], "src/"),
    # Makefile: source/*/*.cu, nvcc -O2 -I/usr/include/SDL2 -I/usr/include/opencv2 (SDL2 / OpenCV: absent)
    ("gamdow-fluid", "gamdow/Interactive-Fluid-Sim", "(none in the repository)", [], [], [], ["-std=c++17", "-O2"],
     "source/"),
    # CMakeLists.txt (USE_CUDA): src/particles.cu src/cuda_buffers.cu, include dirs dependencies,
    # dependencies/imgui, dependencies/imgui/backends, src; C++20, -lineinfo; define USE_CUDA
    ("lukasvarhol-fluid", "lukasvarhol/fluid-sim", "(none in the repository)", [],
     ["dependencies", "dependencies/imgui", "dependencies/imgui/backends", "src"], ["USE_CUDA"],
     ["-std=c++20", "-lineinfo"], "src/"),
    # MPhysics/MPhysics.vcxproj: MPhysics/*.cu (CudaCompile), stdcpp17, defines MPHYSICS
    # _ENABLE_EXTENDED_ALIGNED_STORAGE NDEBUG (WIN32/WIN64/_CONSOLE: the Windows build's, left out on Linux)
    ("hybrid-fluid", "junwei-jiang/Hybrid-Fluid-Simulation", "(none in the repository)", [], ["MPhysics"],
     ["MPHYSICS", "_ENABLE_EXTENDED_ALIGNED_STORAGE", "NDEBUG"], ["-std=c++17"], "MPhysics/"),
    ("artdien-fluid", "artdien/fluid-sim", NOT_FETCHED, [], [], [], [], ""),
    ("jarbd-fluid", "JustARandomBadDev/fluid-simulator", NOT_FETCHED, [], [], [], [], ""),
    # GUI/Factory/Factory.vcxproj: DeviceCudaSimulation.cu HostCudaSimulation.cu (CudaCompile), NDEBUG _LIB
    ("greenhoody-fluid", "greenhoody/Fluid-Simulation", "(none in the repository)", [], ["GUI/Factory"],
     ["NDEBUG", "_LIB"], ["-std=c++17"], "GUI/Factory/"),
    # its newest snapshot holds no .cu (the .cu files the index lists are older versions): 0 files
    ("chaitanya-sph", "ChaitanyaKatti/SPH-Fluid-Simulations", "(see the repository)", [], [], [], ["-std=c++17"], ""),
    # CMakeLists.txt + src/CMakeLists.txt + framework/CMakeLists.txt: src/main.cu, src/device/field_manager.cu,
    # src/utils/cuda_utils.cu (the other src/device/*.cu are included by them; the folder is src/), include dirs
    # src/, framework/include and framework/third_party's glm, fmt, glad, glfw3, imgui; C++20; -Xcudafe
    # --diag_suppress=20012; SHADERS_DIR / RESOURCES_DIR path defines (strings: left out)
    ("magnifico-fluid", "MrMagnifico/cuda-fluid-sim", "(see LICENSE)", ["LICENSE"],
     ["src", "framework/include", "framework/third_party/glm", "framework/third_party/fmt/include",
      "framework/third_party/glad/include", "framework/third_party/glfw3/include",
      "framework/third_party/imgui/include"], [], ["-std=c++20", "-Xcudafe", "--diag_suppress=20012"], "src/"),
    ("porous-media", "MariPadilha/fluid-simulation-in-porous-media", NOT_FETCHED, [], [], [], [], ""),
    # fluid_sim/fluid_sim.vcxproj: pbf.cu (CudaCompile), stdcpp17, compute_89/sm_89, -allow-unsupported-compiler
    # (a host-compiler check switch: left out), NDEBUG _CONSOLE
    ("chen-pbf", "CHEN20060804/fluid-sim", "(see LICENSE)", ["LICENSE"], ["fluid_sim"], ["NDEBUG", "_CONSOLE"],
     ["-std=c++17", "-arch=sm_89"], "fluid_sim/"),
]
DROPPED: frozenset[str] = frozenset({"greenhoody/Fluid-Simulation"})  # the self-contained check: 1 of 2


def first_by_path(files: list[str]) -> list[str]:
    return files[:CAP]


if __name__ == "__main__":  # heldout24's qualifying check and loop, with this rule's cap (the first 8 by path)
    import heldout24_select as h24
    from heldout24_select import write_set
    assert [c[1] for c in CANDIDATES] == sample()[:len(CANDIDATES)], "CANDIDATES must follow sample() order"
    h24.spaced = first_by_path
    write_set("hundred-and-third", "heldout103", [c for c in CANDIDATES if c[2] != NOT_FETCHED], DROPPED,
              stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
