#!/usr/bin/env python3
"""How the fifty-second held-out set (bench/heldout52.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout52_select.py      # -> bench/heldout52.toml

RULE, written and committed (h/heldout52, 14:59 UTC, commit ab772331) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for lattice field theory and high-energy-physics event
processing: lattice gauge Monte Carlo (SU(2) / SU(3) link updates, heatbath / overrelaxation, HMC),
Wilson / clover / staggered Dirac operators and the Krylov inverters (CG, BiCGStab) that apply them,
and collider event reconstruction (track propagation and Kalman track fits, clustering of
calorimeter hits, jet clustering). NARROWED where it overlaps: heldout34 named "high-energy-physics
track reconstruction" with radio astronomy, pulsars, gravitational waves and plasma PIC, and named
dcampora/cu_forward, SegmentLinking/TrackLooper, hep-cce/FCS-GPU, apt-sim/AdePT, madgraph5/madgraph4gpu
and GooFit/GooFit: none of those is a candidate here, nor is HEP event generation (matrix elements,
parton showers), detector simulation or amplitude fitting (heldout34's); lattice/quda and
cms-patatrack/pixeltrack-standalone are in bench/used_repos.txt and are not candidates (QUDA also
exceeds the cap); Ising / spin Monte Carlo (heldout21/23/25/29/33) is not this domain; nothing of
heldouts 48-51 or of this stop's heldout53 (extended precision, special functions, autodiff) and
heldout54 (dense factorisations, eigensolvers). Forks and copies of a candidate are not candidates
(traccc's many personal forks; LHCb Allen copies in other repositories; p2z-tests is p2r-tests's
sibling from the same authors and is named as such, a caveat said now).

  Candidates, in this order, named by domain only (none in bench/used_repos.txt nor named by an
  earlier heldout*_select.py, none chosen by how kernelport does on them):
    1. NBAlexis/CudaLatticeGauge            lattice gauge theory: SU(3)/SU(N)/U(1) gauge fields, HMC, Wilson
                                            and staggered fermions, Krylov solvers
    2. zbryant3/SU2_CUDA                    SU(2) lattice gauge Monte Carlo (heatbath, plaquette, Polyakov loop)
    3. ZhangXin8069/qcu                     Wilson / clover Dirac operator, CG and BiCGStab inverters
    4. etmc/tmLQCD                          twisted-mass Wilson Dirac operator, mixed-precision CG (its GPU/)
    5. LatticeQCD/SIMULATeQCD               lattice QCD: gauge updates (heatbath / OR), HISQ Dirac operator, CG
    6. cerati/p2r-tests                     track propagation to r and Kalman update (CMS mkFit mini-app)
    7. cerati/p2z-tests                     track propagation to z and Kalman update (the sibling mini-app)
    8. fwyzard/fastjet_gpu                  jet clustering (kt / anti-kt, FastJet on GPUs)
    9. cms-patatrack/heterogeneous-clue     CLUE clustering of calorimeter hits
   10. acts-project/traccc                  track reconstruction: clusterisation, seeding, Kalman fitting
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (MPI, NCCL, Eigen, alpaka, vecmem, ROOT), generated headers and absent
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
  fewer than 4 projects qualify, an EXTENSION (lattice field theory outside gauge theories and spin
  models: scalar-field lattice simulations in cosmology (preheating, reheating, cosmic strings on a
  lattice), lattice Schwinger / Thirring models, lattice hydrodynamics of heavy-ion collisions;
  named by domain only, none in bench/used_repos.txt) is written and committed before its candidates
  are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout52_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("fifty-second", "heldout52", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
