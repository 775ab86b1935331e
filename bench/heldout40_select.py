#!/usr/bin/env python3
"""How the fortieth held-out set (bench/heldout40.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout40_select.py      # -> bench/heldout40.toml

RULE, written and committed (h/heldout40, 00:00 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for physics-based animation and interactive physics
for graphics and games: cloth and hair simulation, position-based dynamics (PBD / XPBD), soft
bodies and FEM / projective dynamics for animation, rigid-body and constraint solvers, MPM snow and
sand for graphics, real-time SPH / position-based fluids for games, GPU collision broad / narrow
phase for physics engines. Not CFD or scientific fluids (heldout23/34), not molecular dynamics or
n-body astrophysics (heldout8/13/20/23/27): their repositories (UoB-HPC/pbf-sph, GPUSPH/gpusph,
kamilszewc/cusph, DualSPHysics/DualSPHysics, sphexa-org/sphexa, ...) are in bench/used_repos.txt or
named by those rules and are not candidates; robot collision checking (heldout31's pRRTC, curobo,
gpu-voxels, csdecomp) is not this domain and is named there anyway.

  Candidates, in this order, named by domain only (none in bench/used_repos.txt nor named by an
  earlier heldout*_select.py, none chosen by how kernelport does on them):
    1. moonsh5009/CUDA_ClothDynamics_PBD_GraphColoring  cloth: XPBD with graph-coloured constraints, BVH self-collision
    2. leejy811/GPU_Cloth                   cloth: position-based dynamics, spatial-hash collision
    3. GrahamZen/Soft-Body-Simulation-CUDA  soft bodies: projective dynamics / FEM, IPC, BVH broad phase and CCD
    4. marwan-abdellah/SoftBodySim          soft bodies: position-based link constraints
    5. WindQAQ/MPM                          MPM snow and sand for graphics
    6. JAGJ10/Snow                          MPM snow (Stomakhin et al.)
    7. utilForever/SnowSimulation           MPM snow (Stomakhin et al.)
    8. DeclanRussell/AGSDTFluidSim          real-time SPH fluid for animation (spatial hash)
    9. marsermd/Flucius                     real-time position-based fluids (PBF)
   10. ChangNingNing/Course_GPGPU_FinalProject  collision broad phase: parallel sweep and prune of a million spheres
   11. moonsh5009/CUDA_ProjectiveDynamics_Chebyshev  cloth / soft bodies: projective dynamics with Chebyshev acceleration
   12. moonsh5009/CUDA_Cloth_SPH_Coupling   cloth and SPH fluid two-way coupling
   13. moonsh5009/CUDA_Remeshing            cloth: adaptive remeshing with proximity / CCD collision
   14. korzen/mass_spring_cuda_test         mass-spring cloth (fast mass-spring, Chebyshev Jacobi)
   15. digital-salon/Digital-Salon          hair simulation (its CUDA units outside vendored folders)
   16. percevalw/FluidGPU                   interactive SPH (z-curve sort)
   17. brocbyte/realtime-deformations       real-time MPM deformations
   18. dolphin-li/ClothDesigner             garment / cloth simulation on the GPU
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout38's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here) or the
  host compiler's search path, with the include dirs of the project's build; absent third-party
  headers (glm, GLEW, GLFW, Eigen, Qt, ...), generated headers and absent submodules do not resolve,
  and no stand-in headers are taken. Files: `.cu` only under the source folder read from the build
  files after the fetch and before any measure (the whole repository when the build names no single
  folder), less vendored folders (third_party, 3rdparty, external, extern), over the size cap, not
  resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order.
  Include dirs, defines and flags from the project's own build (`-std=c++17` where it asks for
  older; an -arch below CUDA 13's minimum left out). Self-contained check: the first three files
  taken (all if fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer
  than two (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out
  (DROPPED), as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are
  taken in order until the set holds at least STOP_FILES = 45 files or STOP_PROJECTS = 8 projects
  (the brief asks for a thick set: at least 5 projects and 40 files).
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout40_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 45, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES: list = []
DROPPED: frozenset = frozenset()  # fewer than 2 of their first 3 (all of 1-2) in the self-contained check


def heldout40() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("fortieth", "heldout40", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout40.toml").write_text(heldout40())
