#!/usr/bin/env python3
"""How the twenty-seventh held-out set (bench/heldout27.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout27_select.py      # -> bench/heldout27.toml

RULE, written and committed (h/heldout27, 02:10 UTC) before any candidate was fetched or measured
(only the stored index's repository names and .cu paths were looked up, to name candidates that
exist and hold CUDA sources), for PDE and numerical solvers (CFD by finite volume / difference,
SPH outside DualSPHysics and GPUSPH, lattice Boltzmann outside cudaLBM and TCLB, stencil codes,
sparse iterative solvers and SpMV formats in plain CUDA, multigrid, seismic / weather codes,
heat and wave equations, N-body outside mini-nbody and Bonsai):

  Candidates, in this order, named by domain only (none in /work/notes/t41/used.md nor named by an
  earlier heldout*_select.py, none chosen by how kernelport does on them):
    1. pkestene/ramsesGPU            finite-volume Godunov hydrodynamics / MHD (CFD)
    2. kamilszewc/cusph              SPH (2D and 3D weakly compressible, multiphase)
    3. KhodrJ/AGAL                   lattice Boltzmann on adaptive (block-structured) grids
    4. HPGeoC/awp-odc-os             seismic wave propagation (staggered-grid finite difference)
    5. ecmwf-ifs/dwarf-p-cloudsc     weather: cloud-microphysics column physics (its CUDA C variants)
    6. viennacl/viennacl-dev         sparse iterative solvers (CG, BiCGStab, GMRES, AMG), SpMV formats
    7. dumerrill/merge-spmv          merge-based CSR SpMV
    8. hpgmg/hpgmg                   geometric multigrid (miniGMG's CUDA version)
    9. cschpc/heat-equation          heat equation (finite-difference stencil, CUDA version)
   10. treecode/sapporo2             direct N-body (Hermite 4th/6th order force kernels)
   11. metno/gpu-ocean               shallow-water ocean model (finite volume)
   12. barbagroup/cuIBM              immersed-boundary incompressible CFD
   13. munstermonster/cuSten         finite-difference stencil library
   14. stu314159/LDC-3D-CUDA-OMP     lattice Boltzmann lid-driven cavity
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING (heldout21's rule, reused through heldout24_select.select as heldout25 does): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all of them if fewer
  than 10) under its source folder have every `#include` they reach resolve in the repository, the
  CUDA toolkit or the host compiler's search path (heldout2_select.resolves, read textually with
  heldout21's linux_text), with the include dirs of the project's build. This machine's CUDA 13 has
  no cuFFT, cuBLAS, cuRAND or cuSPARSE headers (cufft.h, cublas_v2.h, curand_kernel.h, cusparse.h
  absent): a file that includes one (directly or through a local header) does not resolve, so it
  does not count toward qualifying and is not taken; the rule takes no stand-in headers. Files of
  a qualifying candidate: its `.cu` files only (local headers are copied with them by
  realcorpus_build.py), under its source folder (read from its build files before any measure; the
  whole repository when the build names no single folder), less vendored third-party folders (a
  path component named third_party, 3rdparty, external or extern), within the size cap, less those
  whose includes do not resolve and byte-for-byte copies (heldout2_select.pick). A project with
  more than CAP = 12 such files gives 12 evenly spaced in path order (files[i*n//12]). Include
  dirs, defines and nvcc flags are those of the project's own build files (read after the fetch and
  before any measure; `-std=c++17` where the build asks for an older standard: CUDA 13's headers
  need 17). Self-contained check, by the rule and not by kernelport (heldout22's): the first three
  files taken (path order; all if fewer) are compiled with `nvcc -c` and the project's flags; a
  project of which fewer than two (one if it gives one file) compile, for a reason other than
  CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not qualify
  or gives 0 files (said below). Candidates are taken in order until the set holds at least
  STOP_FILES = 45 files or STOP_PROJECTS = 7 projects.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout27_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 45, 7

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# filled in from each project's own build files after the fetch and before any measure.
CANDIDATES: list[tuple] = []
DROPPED: frozenset[str] = frozenset()


def heldout27() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("twenty-seventh", "heldout27", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout27.toml").write_text(heldout27())
