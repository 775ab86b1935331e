#!/usr/bin/env python3
"""How the thirty-eighth held-out set (bench/heldout38.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout38_select.py      # -> bench/heldout38.toml

RULE, written and committed (h/heldout38, 21:10 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for earth and planetary science: seismic wave
propagation and imaging (reverse-time migration, full-waveform inversion, finite-difference
elastic / acoustic solvers), weather and climate model kernels (large-eddy simulation, radiative
transfer), ocean / shallow-water, hydrology and flood models, remote sensing (InSAR). Earlier sets
took simulation and PDE codes (heldout20/23/27): their repositories (TUM-I5/SWE, SPECFEM/specfem3d,
tp24002/ElasticWaveFDTD-cuda, HPGeoC/awp-odc-os, ecmwf-ifs/dwarf-p-cloudsc, metno/gpu-ocean, ...) are
in bench/used_repos.txt or named by those rules and are not candidates; gpuocean/gpuocean (metno/
gpu-ocean's successor, the same kernels) and forks of a candidate (microhh/rte-rrtmgp-cpp beside
earth-system-radiation/rte-rrtmgp-cpp, ESiWACE-S1/rte-rrtmgp, glemoine62's POSIX InSAR copy) are not
candidates; ahay/src (Madagascar) is left out: its CUDA programs reach rsf.h, a header its SCons build
generates, and its size is out of the brief's plain-nvcc projects.

  Candidates, in this order, named by domain only (none in bench/used_repos.txt nor named by an
  earlier heldout*_select.py, none chosen by how kernelport does on them):
    1. Rtoax/2D3D-TI-FD-RTM-cuda            seismic: 2-D / 3-D TI-medium finite-difference modelling and RTM
    2. anxia0903/FWI                        seismic: elastic time-domain full-waveform inversion (CPML FDTD)
    3. lgan/elastic                         seismic: elastic modelling and reverse-time migration
    4. tumugenshu/FWI-using-temporal-fourth-FD-modelling  seismic: elastic FWI, temporal 4th-order FD
    5. ar4/deepwave                         seismic: scalar / Born / elastic wave propagators (its C/CUDA units)
    6. CyprienBosserelle/BG_Flood           flood / storm-surge shallow-water model (block-uniform quadtree)
    7. LabHidro/SW2D-GPU                    hydrology: 2-D shallow-water watershed / dam-break model
    8. HEMLab/HiPIMS-CUDA                   flood: Godunov finite-volume shallow-water model
    9. earth-system-radiation/rte-rrtmgp-cpp  atmospheric radiative transfer (RTE+RRTMGP, its CUDA kernels)
   10. microhh/microhh                      weather / climate: atmospheric large-eddy simulation
   11. a787854/InSAR-on-Sentinel-1-TOPS-data  remote sensing: InSAR coregistration / coherence (Sentinel-1)
   12. al0vya/FV1_GPU                       shallow-water equations, 1-D finite volume (HLL)
   13. NCAR/FastEddy-model                  weather: GPU large-eddy simulation of the atmospheric boundary layer
   14. biondiettore/elastic_isotropic_operators  seismic: elastic isotropic wave-equation operators (FWI)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout36's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuBLAS, cuRAND, cuFFT headers here) or the host
  compiler's search path, with the include dirs of the project's build; absent third-party headers
  (MPI, NetCDF, GDAL, FFTW, torch, ...), generated headers and absent submodules do not resolve, and
  no stand-in headers are taken. Files: `.cu` only under the source folder read from the build files
  after the fetch and before any measure (the whole repository when the build names no single
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
(bench/scoreboard_heldout38_baseline.txt).
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
DROPPED: frozenset = frozenset()


def heldout38() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("thirty-eighth", "heldout38", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout38.toml").write_text(heldout38())
