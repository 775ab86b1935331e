#!/usr/bin/env python3
"""How the seventy-ninth held-out set (bench/heldout79.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout79_select.py      # -> bench/heldout79.toml

RULE, written and committed (h/heldout79, 08:40 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for HPC proxy applications and mini-apps: DOE / ECP /
university proxy apps and mini-apps (shock hydrodynamics, molecular docking, discrete-ordinates
transport sweeps), the research kernels and memory-bandwidth proxies HPC centres use to stand for
their applications, and the small frameworks such mini-apps share. NARROWED where it overlaps:
heldout6 took ANL-CESAR/XSBench and heldout13 took UK-MAC/CloverLeaf_CUDA, UK-MAC/TeaLeaf_CUDA and
ANL-CESAR/RSBench and looked at Mantevo/miniFE and ANL-CESAR/SimpleMOC-kernel: none of those
applications is taken here in any repository (UoB-HPC/CloverLeaf*, UoB-HPC/TeaLeaf, XSBench / RSBench
forks are not candidates); heldout23 named UoB-HPC/neutral, UoB-HPC/minifmm and UoB-HPC/pbf-sph and
heldout27 named hpgmg/hpgmg (miniGMG): not candidates; HeCBench and Rodinia (tests/realcorpus) and
olcf/cuda-training-series, harrism/mini-nbody, sandialabs/miniisosurface (bench/used_repos.txt) are
not candidates; cerati/p2r-tests / p2z-tests (heldout52's HEP mini-apps) are not; forks and variants
of a candidate are not (e-ago/lulesh2-cuda-async is LULESH's). Nothing of this stop's heldout74
(optics / holography), heldout75 (agent-based / swarm), heldout76 (atmosphere / ocean / climate /
hydrology: no miniWeather), heldout77 (game physics) or heldout78 (optimisation solvers). None below is
in bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. LLNL/LULESH                       Lagrangian shock hydrodynamics proxy app (its cuda/ version)
    2. UoB-HPC/miniBUDE                  molecular-docking energy-evaluation mini-app (BUDE's kernel)
    3. UoB-HPC/SNAP_MPI_CUDA             SNAP, the discrete-ordinates neutral-particle transport proxy
                                         (wavefront sweeps), its CUDA port
    4. ParRes/Kernels                    the Parallel Research Kernels (nstream, stencil, transpose,
                                         p2p synchronisation, dgemm) in CUDA
    5. UoB-HPC/BabelStream               the memory-bandwidth proxy (copy/mul/add/triad/dot) in CUDA
    6. UoB-HPC/arch                      the shared mesh / reduction / halo framework of UoB's mini-apps
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout67's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER, NCCL,
  NVSHMEM headers here) or the host compiler's search path, with the include dirs of the project's
  build; absent third-party headers (MPI, Kokkos, RAJA), generated headers and absent submodules do
  not resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read from
  the build files after the fetch and before any measure (the whole repository when the build names
  no single folder), less vendored folders, over the size cap, not resolving, or byte-for-byte copies;
  more than CAP = 12 gives 12 evenly spaced in path order. Include dirs, defines and flags from the
  project's own build (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left
  out). Self-contained check: the first three files taken (all if fewer) are compiled with `nvcc -c`
  and the project's flags; a project of which fewer than two (one if it gives one) compile, for a
  reason other than CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched,
  does not qualify or gives 0 files. Candidates are taken in order until the set holds at least
  STOP_FILES = 40 files or STOP_PROJECTS = 8 projects. If fewer than 4 projects qualify, the
  EXTENSION domain applies: CUDA hands-on exercise collections published by HPC centres and vendors
  as training material (outside every earlier set's course repositories: olcf/cuda-training-series
  and the university course repositories in bench/used_repos.txt are not candidates), its
  candidates named by domain only, none in bench/used_repos.txt, written and committed before they
  are fetched.
Outcome of the rule: (filled in after the fetch, before any measure of kernelport).
The set is measured on this branch's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout79_before.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("lulesh", "LLNL/LULESH", "", [], [], [], ["-std=c++17"], "cuda/src/"),
    ("minibude", "UoB-HPC/miniBUDE", "", [], [], [], ["-std=c++17"], ""),
    ("snap", "UoB-HPC/SNAP_MPI_CUDA", "", [], [], [], ["-std=c++17"], "src/"),
    ("prk", "ParRes/Kernels", "", [], [], [], ["-std=c++17"], "Cxx11/"),
    ("babelstream", "UoB-HPC/BabelStream", "", [], [], [], ["-std=c++17"], ""),
    ("arch", "UoB-HPC/arch", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("seventy-ninth", "heldout79", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
