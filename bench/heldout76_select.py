#!/usr/bin/env python3
"""How the seventy-sixth held-out set (bench/heldout76.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout76_select.py      # -> bench/heldout76.toml

RULE, written and committed (h/heldout76, 07:33 UTC, commit d9515417) before any candidate was fetched or measured
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
Outcome of the rule (before any measure of kernelport, 07:35 UTC): candidates 1-8 all fetched and all qualify:
  THOR 6 of its first 10 resolve (the rest reach hdf5.h) and gives 9 files (src/, its Makefile's folders), ocean_modelling
  4 (two builds: tridiag/cpp and tridiag/jax_xla), FastIceFlo 1, FloodSimulatingEngine 2, nvidia-jetson-workload 1
  (src/weather-sim/), HPC_Shallow_water 5, ME571-Semester-Project 7, mpdata 1 (multigrid/tests/test2.cu, its one .cu).
  Check (`nvcc -c`, first three files, the build's flags, 07:35 UTC): THOR 3/3, ocean_modelling 2/3
  (tridiag_kernels.cu's include/pbbKernels.cu.h uses uint32_t without <cstdint>: it stays, counted only where it
  compiles), FloodSimulatingEngine 2/2, HPC_Shallow_water 3/3, ME571 3/3. DROPPED: FastIceFlo 0/1 (dmp, rela,
  ... are left to -D flags of a compile line the file no longer carries), nvidia-jetson-workload 0/1 (its own
  header weather_sim.hpp declares height_ twice and converts a field to an index: a source error, not CUDA 13's),
  mpdata 0/1 (cudaThreadSynchronize, removed in CUDA 13, but also domain_t has no member nx: a source error).
  Five projects qualify and pass, so no EXTENSION; the candidates run out at 27 files in five projects (THOR 9,
  ocean_modelling 4, FloodSimulatingEngine 2, HPC_Shallow_water 5, ME571 7): the stops (40 files, 8 projects) are not
  reached. Caveats, said and not acted on: ME571's 7 files are variants of one course program, HPC_Shallow_water's
  scratch.cu / tests.cu are its author's test units.
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    # Makefile: source_dirs src src/ESP src/utils src/test + the multi physics manager and modules; include dirs
    # src/headers, src/physics/modules/inc, src/physics/managers/multi/inc (HDF5's from h5c++, absent here);
    # -std=c++14 (-> 17) -DDEVICE_SM=$(SM): its -arch sm_35 is below CUDA 13's minimum and left out, so DEVICE_SM
    # names the arch nvcc 13 compiles by default (75); the Alfrodull submodule build (HAS_ALFRODULL) is optional, off
    ("thor", "exoclime/THOR", "GPL-3.0 (see license.txt)", ["license.txt"],
     ["src/headers", "src/physics/modules/inc", "src/physics/managers/multi/inc"], ["DEVICE_SM=75"],
     ["-std=c++17"], "src/"),
    # tridiag/cpp/Makefile: nvcc -std=c++11 (-> 17) --expt-extended-lambda (compute_75); tridiag/jax_xla/setup.py
    # compiles its two .cu with the CUDA include dir only: two builds, so the whole repository
    ("ocean-modelling", "Sefrin/ocean_modelling", "(none in the repository)", [], [], [],
     ["-std=c++17", "--expt-extended-lambda"], ""),
    # README: compile src/ssa_fem_pt.cu with the line atop the .cu (none there now): plain nvcc
    ("fasticeflo", "AnjaliSandip/FastIceFlo", "MIT (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], "src/"),
    # FloodSimulatingEngine.vcxproj: CudaCompile of the root .cu, include paths CUDA and OpenCV (absent here)
    ("flood-engine", "yinb1426/FloodSimulatingEngine", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # src/weather-sim/cpp/CMakeLists.txt: include dir include/, HAVE_CUDA, CMAKE_CUDA_STANDARD 14 (-> 17)
    ("jetson-weather", "scttfrdmn/nvidia-jetson-workload", "Apache-2.0 (see LICENSE)", ["LICENSE"],
     ["src/weather-sim/cpp/include"], ["HAVE_CUDA"], ["-std=c++17"], "src/weather-sim/"),
    # parallel_code/makefile: -O3 -g -G -std=c++11 (-> 17) -D_FORCE_INLINES; -G (device debug) and -arch=sm_30
    # left out
    ("hpc-shallow-water", "Antoinehoff/HPC_Shallow_water", "(none in the repository)", [], [], ["_FORCE_INLINES"],
     ["-std=c++17", "-O3"], "parallel_code/"),
    # Makefile: nvcc -O3 --use_fast_math -arch=sm_70 (below CUDA 13's minimum, left out), each .cu alone
    ("me571-swe", "Reyes-Antonio21/ME571-Semester-Project", "(none in the repository)", [], [], [],
     ["-std=c++17", "-O3", "--use_fast_math"], ""),
    # multigrid/makefile: nvcc -I. -D$(TYPE) (TYPE = INTEGER in makefile.in) tests/test2.cu; include/ for the core
    ("mpdata", "apc-llc/mpdata", "(none in the repository)", [], ["multigrid", "multigrid/include"], ["INTEGER"],
     ["-std=c++17"], "multigrid/"),
]
# failed the self-contained check for a reason other than CUDA 13's removed APIs (the docstring says why)
DROPPED = frozenset({"AnjaliSandip/FastIceFlo", "scttfrdmn/nvidia-jetson-workload", "apc-llc/mpdata"})


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("seventy-sixth", "heldout76", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
