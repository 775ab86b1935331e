#!/usr/bin/env python3
"""How the twentieth held-out set (bench/heldout20.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout20_select.py      # -> bench/heldout20.toml

RULE, written and committed (h/heldout20, 17:40 UTC) before any candidate was fetched or measured,
for scientific simulation and signal processing not yet covered (ray tracing, SPH, Monte-Carlo
particle transport, lattice Boltzmann, radio-astronomy signal processing, direct N-body):

  Candidates, in this order, named by domain only (none in /work/notes/t38/used.md, none chosen by
  how kernelport does on them):
    1. rogerallen/raytracinginoneweekendincuda   ray tracing (Ray Tracing in One Weekend, CUDA)
    2. GPUSPH/gpusph                             smoothed-particle hydrodynamics
    3. DIDSR/MCGPU                               Monte-Carlo x-ray transport in voxelized geometry
    4. geoenergiaUDESC/cudaLBM                   lattice Boltzmann flow solver
    5. ledatelescope/bifrost                     radio-astronomy stream signal processing
    6. nbodyx/Nbody6ppGPU                        direct N-body (GPU force kernels)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml). Files as for
  the second to nineteenth sets (heldout9_select.pick_cuda: every `.cu`/`.cuh` file under the
  project's CUDA source folder within the size cap, less those whose includes do not resolve here,
  read textually, and byte-for-byte copies); a project with more than FULL such files gives every
  second of them in path order (heldout4_select.capped). Include dirs, defines and nvcc flags are
  those of the project's own build files (read before any measure). A candidate that cannot be
  fetched or gives 0 files drops out (said below). Candidates are taken in order until the set holds
  at least 40 files or 5 projects, whichever comes first.
EXTENSION, written and committed (17:41 UTC) after applying the rule above and before any measure:
  the six candidates give 20 files (gpusph 3, cudaLBM 11 of 22, bifrost 6; raytracinginoneweekendincuda's
  newest snapshot holds main.cc and no `.cu`, MCGPU's two units and Nbody6ppGPU's four reach headers
  that do not resolve here: 0 each), short of 40, so three more candidates, named by domain only, are
  taken by the same rule in this order until the set holds 40 files:
    7. mghro/gmcGPU                              Monte-Carlo proton transport (dose)
    8. ymiki/GOTHIC                              gravitational octree N-body
    9. barbagroup/cuIBM                          immersed-boundary incompressible CFD
SECOND EXTENSION (17:42 UTC, committed before any measure): candidates 7-9 gave no file (gmcGPU's
  newest snapshot holds no `.cu`/`.cuh`; GOTHIC has no snapshot here; cuIBM's units all reach cusp,
  an external library not in the snapshot). Three more, named by domain only, by the same rule:
    10. cholla-hydro/cholla                      astrophysical hydrodynamics (finite volume)
    11. ajameson/dedisp                          radio-pulsar incoherent dedispersion
    12. jan-van-bergen/GPU-Raytracer             CUDA path tracer
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout20_baseline.txt).
"""
