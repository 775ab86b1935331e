#!/usr/bin/env python3
"""How the seventy-seventh held-out set (bench/heldout77.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout77_select.py      # -> bench/heldout77.toml

RULE, written and committed (h/heldout77, 07:33 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for game and interactive physics: cloth and soft
bodies, rigid-body contact (GJK / EPA narrow phase, impulse and constraint solvers), broad-phase
collision detection (sweep and prune, uniform grids), BVH and spatial hashing for physics collision
(self-collision, continuous collision detection), position-based dynamics (PBD / XPBD / VBD, unified
particle physics). NARROWED where it overlaps: heldout40 took this domain ("physics-based animation
and interactive physics for graphics and games") and named 27 candidates (moonsh5009's four,
leejy811/GPU_Cloth, GrahamZen/Soft-Body-Simulation-CUDA, the MPM snow codes, NVIDIA-Omniverse/PhysX,
ppf-contact-solver, Stiff-GIPC, libuipc, korzen/mass_spring_cuda_test, swiimii/Cloth_CUDA, ...): none
of those here, only repositories no earlier rule named; MPM snow / sand and SPH / position-based
fluids (heldout23/34/40) are left out; heldout57 took generic linear-BVH libraries (nolmoonen/cuda-lbvh,
KittenGpuLBVH) as computational geometry: a BVH here is one a physics collision pipeline builds and
queries; heldout31's robot collision checking (pRRTC, curobo, csdecomp) is not taken; heldout13/43's
DEM and multibody engineering codes (projectchrono) are not taken. Other tasks of this stop (optics /
holography, agent-based / swarm, atmosphere / ocean / climate / hydrology) are not taken. None below
is in bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. adamowski137/UnifiedParticlePhysicsCuda  unified particle physics (PBD): cloth, rigid bodies by shape
                                                matching, spatial-grid particle collision
    2. MattiaMontanari/openGJK                  GJK / EPA narrow-phase collision (its gpu/ CUDA port)
    3. webspam/hdtSMP64                         game physics mod (HDT-SMP, Skyrim): skinned-mesh collision on CUDA
    4. Q-Minh/PhysicsBasedAnimationToolkit      XPBD / VBD soft bodies, BVH, sweep and prune, CCD (its gpu/)
    5. Continuous-Collision-Detection/Scalable-CCD  broad phase (sweep and tiniest queue) and CCD narrow phase
    6. caixiao-0725/collision-detection-bvh-GPU linear BVH for cloth self-collision queries
    7. krzhck/GPU_collision_detection           sphere-sphere collision with a uniform grid (game-style demo)
    8. mridulmalpotra/rigid-body-simulation     rigid-body dynamics and collision response on CUDA
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout73's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (glm, GLEW, GLFW, Eigen, Bullet, Qt, ...), generated headers and absent
  submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only under the source
  folder read from the build files after the fetch and before any measure (the whole repository when
  the build names no single folder), less vendored folders (third_party, 3rdparty, external, extern),
  over the size cap, not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced
  in path order. Include dirs, defines and flags from the project's own build (`-std=c++17` where it
  asks for older; an -arch below CUDA 13's minimum left out). Self-contained check: the first three
  files taken (all if fewer) are compiled with `nvcc -c` and the project's flags; a project of which
  fewer than two (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops
  out (DROPPED), as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are
  taken in order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects. If
  fewer than 4 projects qualify, the EXTENSION domain applies: procedural generation for games
  (gradient / value / cellular noise, terrain synthesis, hydraulic and thermal erosion), less what
  heldout25 (covexp/cuda-noise, procedural noise libraries) and heldout49 (terrain analysis:
  viewshed, slope, flow direction) took, its candidates named by domain only, none in
  bench/used_repos.txt, written and committed before they are fetched.
The set is measured on the branch's kernelport as it is before anyone changes code for it, twice:
Debian ROCm 5.2 only, and with rocThrust + hipCUB rocm-5.3.3 (bench/scoreboard_heldout77_before.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("unified-particle", "adamowski137/UnifiedParticlePhysicsCuda", "", [], [], [], ["-std=c++17"], ""),
    ("opengjk", "MattiaMontanari/openGJK", "", [], [], [], ["-std=c++17"], "gpu/"),
    ("hdtsmp64", "webspam/hdtSMP64", "", [], [], [], ["-std=c++17"], ""),
    ("pbat", "Q-Minh/PhysicsBasedAnimationToolkit", "", [], [], [], ["-std=c++17"], "source/pbat/gpu/"),
    ("scalable-ccd", "Continuous-Collision-Detection/Scalable-CCD", "", [], [], [], ["-std=c++17"], "src/"),
    ("bvh-collision", "caixiao-0725/collision-detection-bvh-GPU", "", [], [], [], ["-std=c++17"], ""),
    ("gpu-collision", "krzhck/GPU_collision_detection", "", [], [], [], ["-std=c++17"], ""),
    ("rigid-body-sim", "mridulmalpotra/rigid-body-simulation", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("seventy-seventh", "heldout77", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
