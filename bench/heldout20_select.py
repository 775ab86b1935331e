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
Outcome of the rule (before any measure): of the twelve candidates, six give files, 23 in all
(below the 40 aimed at; every candidate named was used, none left out for any other reason):
  GPUSPH/gpusph 3 (its units reach the Makefile-generated options/*.opt), geoenergiaUDESC/cudaLBM 11
  (22 resolve, every second taken), ledatelescope/bifrost 6 (the rest reach the configure-generated
  bifrost/config.h), cholla-hydro/cholla 1 (the rest reach hdf5.h, mpi.h, gtest or the ROCm headers
  its gpu.hpp names, read textually), ajameson/dedisp 1, jan-van-bergen/GPU-Raytracer 1.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout20_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import set_header
from heldout4_select import capped
from heldout9_select import pick_cuda
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent
# GPUSPH's Makefile: -I src, every src/ subfolder but the problem dirs, the problem dirs, options
GPUSPH_INCLUDES = ["src", "src/adaptors", "src/cuda", "src/geometries", "src/integrators",
                   "src/problem_api", "src/writers", "src/problems", "src/problems/user", "options"]
# cholla's builds/make.type.hydro (the Makefile's default TYPE)
CHOLLA_DEFINES = ["MPI_CHOLLA", "PRECISION=2", "PLMC", "HLLC", "VL", "DENSITY_FLOOR",
                  "TEMPERATURE_FLOOR", "OUTPUT", "HDF5"]


def heldout20() -> str:
    out = [set_header("twentieth", "heldout20")]
    r = "GPUSPH/gpusph"; c = head(r)
    out.append(project("gpusph", r, c, "GPL-3.0", ["GPLv3.txt"], GPUSPH_INCLUDES,
                       ["__STDC_CONSTANT_MACROS", "__STDC_LIMIT_MACROS", "_GLIBCXX_USE_C99_MATH",
                        "USE_HDF5=0"],
                       ["-std=c++17"],  # its -std=c++11: CUDA 13's headers need 17
                       capped(pick_cuda(r, c, GPUSPH_INCLUDES, ["src/cuda/"]))))
    r = "geoenergiaUDESC/cudaLBM"; c = head(r)
    out.append(project("cudalbm", r, c, "GPL-3.0", ["LICENSE"], ["."],  # relative includes only
                       ["SCALAR_PRECISION_32", "LABEL_SIZE_64"],
                       ["-std=c++20", "--restrict", "-extra-device-vectorization"],
                       capped(pick_cuda(r, c, ["."], ["src/", "applications/"]))))
    r = "ledatelescope/bifrost"; c = head(r)
    out.append(project("bifrost", r, c, "BSD-3-Clause", ["LICENSE"], ["src"], [],
                       ["-std=c++17", "-rdc=true"],  # configure's C++17 fallback; src/Makefile's -dc
                       capped(pick_cuda(r, c, ["src", "src/bifrost"], ["src/"]))))
    r = "cholla-hydro/cholla"; c = head(r)
    out.append(project("cholla", r, c, "MIT", ["LICENSE.txt"], ["src"], CHOLLA_DEFINES,
                       ["-std=c++17", "--expt-extended-lambda", "-fmad=false"],
                       capped(pick_cuda(r, c, ["src"], ["src/"]))))
    r = "ajameson/dedisp"; c = head(r)
    out.append(project("dedisp", r, c, "Apache-2.0 (in each file's header; no LICENSE file)",
                       ["README.md"], ["src"], [], ["-std=c++17"],
                       capped(pick_cuda(r, c, ["src", "include"], ["src/"]))))
    r = "jan-van-bergen/GPU-Raytracer"; c = head(r)
    out.append(project("gpu-raytracer", r, c, "MIT", ["LICENSE.txt"], ["Src", "include"], ["NOMINMAX"],
                       ["-std=c++17"],  # Pathtracer.vcxproj's stdcpp17
                       capped(pick_cuda(r, c, ["Src", "include", "Src/CUDA"], ["Src/CUDA/"]))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout20.toml").write_text(heldout20())
