#!/usr/bin/env python3
"""How the seventy-sixth held-out set (bench/heldout76.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout76_select.py      # -> bench/heldout76.toml

RULE, written and committed (h/heldout76, 07:40 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for atmosphere, ocean, climate and hydrology model
kernels: general-circulation / dynamical cores and their physics (radiative transfer, boundary
layer), ocean-model kernels (vertical mixing solvers, flux-limited tracer advection), cryosphere
(ice-sheet / sea-ice flow), advection schemes (MPDATA), shallow-water weather and flood / inundation
models. NARROWED where it overlaps: heldout38 took "earth and planetary science" with this very
domain in it (weather / climate LES, radiative transfer, ocean / shallow-water, hydrology and flood)
beside seismic imaging and InSAR; heldout27 took cloudsc and gpu-ocean, heldout23 TUM-I5/SWE,
heldout49 terrain hydrology (flow direction, watershed delineation), heldout65 particle advection in
given flows. So here: no seismic, no InSAR, no tsunami codes (heldout38's extension took them), no
terrain-analysis hydrology (D8 flow routing, watershed delineation), no Lagrangian particle tracking;
no repository in bench/used_repos.txt or named by an earlier heldout*_select.py, and no fork or
successor of one (rettenbs/SWE is a fork of TUM-I5/SWE, gpuocean/gpuocean metno/gpu-ocean's successor,
microhh / rte-rrtmgp-cpp / FastEddy / cloudsc / HeCBench's wsm5 are taken: none is a candidate).
Other held-out tasks of this stop (optics / holography, agent-based / swarm, game physics) are not
touched: FloodSimulatingEngine below is a GIS inundation model, not a game water effect.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. exoclime/THOR                     atmosphere: global non-hydrostatic GCM on an icosahedral grid
                                         (dynamical core, radiative transfer, boundary layer, chemistry)
    2. Sefrin/ocean_modelling            ocean model kernels (Veros): tridiagonal vertical-mixing solver,
                                         superbee flux-limited tracer advection
    3. AnjaliSandip/FastIceFlo           cryosphere: ice-sheet flow, shallow-shelf approximation
                                         (pseudo-transient FEM on unstructured meshes)
    4. yinb1426/FloodSimulatingEngine    hydrology: flood inundation (virtual pipe model, rainfall,
                                         river inflow, drainage, evaporation)
    5. scttfrdmn/nvidia-jetson-workload  weather: shallow-water / barotropic weather simulation kernels
                                         (its src/weather-sim/ only; the repository's other workloads
                                         are other domains and are not taken)
    6. Antoinehoff/HPC_Shallow_water     shallow-water finite-volume solver (its CUDA parallel_code/)
    7. Reyes-Antonio21/ME571-Semester-Project  shallow-water equations, 2-D Lax-Friedrichs (course code)
    8. apc-llc/mpdata                    advection: MPDATA positive-definite transport (EULAG)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout67's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (NetCDF, HDF5, GDAL, MPI, Qt, pybind11), generated headers and absent
  submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only under the source
  folder read from the build files after the fetch and before any measure (the whole repository
  when the build names no single folder), less vendored folders (third_party, 3rdparty, external,
  extern), over the size cap, not resolving, or byte-for-byte copies; more than CAP = 12 gives 12
  evenly spaced in path order. Include dirs, defines and flags from the project's own build
  (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left out). Self-contained
  check: the first three files taken (all if fewer) are compiled with `nvcc -c` and the project's
  flags; a project of which fewer than two (one if it gives one) compile, for a reason other than
  CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not qualify
  or gives 0 files. Candidates are taken in order until the set holds at least STOP_FILES = 40
  files or STOP_PROJECTS = 8 projects. If fewer than 4 projects qualify, the EXTENSION domain
  applies: numerical weather teaching codes and stencil-based PDE solvers of geophysical flows
  (rotating shallow water, barotropic vorticity, quasi-geostrophic), narrowed as above, its
  candidates named by domain only, none in bench/used_repos.txt, written and committed before they
  are fetched.
Outcome of the rule: (filled in after the fetch, before any measure of kernelport)
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("thor", "exoclime/THOR", "", [], [], [], ["-std=c++17"], ""),
    ("ocean-modelling", "Sefrin/ocean_modelling", "", [], [], [], ["-std=c++17"], ""),
    ("fasticeflo", "AnjaliSandip/FastIceFlo", "", [], [], [], ["-std=c++17"], ""),
    ("flood-engine", "yinb1426/FloodSimulatingEngine", "", [], [], [], ["-std=c++17"], ""),
    ("jetson-weather", "scttfrdmn/nvidia-jetson-workload", "", [], [], [], ["-std=c++17"], "src/weather-sim/"),
    ("hpc-shallow-water", "Antoinehoff/HPC_Shallow_water", "", [], [], [], ["-std=c++17"], ""),
    ("me571-swe", "Reyes-Antonio21/ME571-Semester-Project", "", [], [], [], ["-std=c++17"], ""),
    ("mpdata", "apc-llc/mpdata", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("seventy-sixth", "heldout76", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
