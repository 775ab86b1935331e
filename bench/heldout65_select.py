#!/usr/bin/env python3
"""How the sixty-fifth held-out set (bench/heldout65.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout65_select.py      # -> bench/heldout65.toml

RULE, written and committed (h/heldout65, 02:11 UTC, commit a80f5835) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for batched ODE integration and nonlinear dynamical
systems: ensembles of ODE / SDE integrations run one trajectory per thread (Runge-Kutta, adaptive
step, Euler-Maruyama; parameter sweeps, bifurcation diagrams, basins of attraction), chaotic maps and
attractors, Lyapunov exponent estimation, coupled oscillator networks (Kuramoto), ODE solver libraries
for GPUs. NARROWED where it overlaps: heldout43 took stiff chemical-kinetics ODEs (combustion source
terms), not taken here; heldout53 took quadrature and polynomial root finding, so they are not this
set's extension; heldout48 took fractal renderers, so a Lyapunov-FRACTAL renderer is not a candidate;
heldout24 / heldout29 took neuroscience (spiking-network simulators, NeMo's Kuramoto plugin is one), not
taken; N-body / molecular dynamics (heldout13, 20, 23, 40) and heldout26's finance SDE path pricers are
not this domain; nothing of this stop's heldout66 (GPU databases / query processing). None below is in
bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. FerencHegedus/Massively-Parallel-GPU-ODE-Solver  ODE solver library (MPGOS): per-thread and per-block
                                                         coupled systems, RK4 / RKCK45, events, tutorials
    2. fazanaro/Cloned_Dynamics_Lyapunov_Exponents      Lyapunov exponents by cloned dynamics, Duffing RK4,
                                                         bifurcation diagrams, Lagrangian coherent structures
    3. scott-whitworth/Didymos-optimization             batched adaptive RK45 trajectory integration, one per
                                                         thread (an asteroid-impact trajectory search)
    4. statphysandml/ODEVisualization                   ODE flow analysis: fixed-point search, evolution of
                                                         many initial conditions, separatrices
    5. WyacheslawRybin/BasinsOfAttractionCUDA           basins of attraction of discrete / continuous systems
    6. znicolaou/kuramoto                               Kuramoto oscillator networks, Dormand-Prince 4/5
    7. GianniCassoni/ChaoticPendulum                    Lyapunov characteristic exponent of a chaotic pendulum
    8. atishpanday/Kuramoto-Oscillators                 Kuramoto oscillators, RK4
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout45's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (boost / odeint, Eigen, MPI, pybind11, MATLAB's mex.h, the CUDA samples'
  helper_cuda.h), generated headers and absent submodules do not resolve, and no stand-in headers are
  taken. Files: `.cu` only under the source folder read from the build files after the fetch and
  before any measure (the whole repository when the build names no single folder), less vendored
  folders (third_party, 3rdparty, external, extern), over the size cap, not resolving, or
  byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order. Include dirs, defines
  and flags from the project's own build (`-std=c++17` where it asks for older; an -arch below CUDA
  13's minimum left out). Self-contained check: the first three files taken (all if fewer) are
  compiled with `nvcc -c` and the project's flags; a project of which fewer than two (one if it gives
  one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED), as does one that
  cannot be fetched, does not qualify or gives 0 files. Candidates are taken in order until the set
  holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects. If fewer than 4 projects
  qualify, the EXTENSION applies, named here before any fetch: particle advection in given flow
  fields (finite-time Lyapunov exponent fields, Lagrangian coherent structures, streamline / pathline
  integration outside diffusion-MRI tractography, which heldout32 took); its candidates are named by
  domain only (none in bench/used_repos.txt), written and committed before they are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout65_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("mpgos", "FerencHegedus/Massively-Parallel-GPU-ODE-Solver", "", [], [], [], ["-std=c++17"], ""),
    ("cldyn-lyap", "fazanaro/Cloned_Dynamics_Lyapunov_Exponents", "", [], [], [], ["-std=c++17"], ""),
    ("didymos", "scott-whitworth/Didymos-optimization", "", [], [], [], ["-std=c++17"], ""),
    ("odevis", "statphysandml/ODEVisualization", "", [], [], [], ["-std=c++17"], ""),
    ("basins", "WyacheslawRybin/BasinsOfAttractionCUDA", "", [], [], [], ["-std=c++17"], ""),
    ("kuramoto-zn", "znicolaou/kuramoto", "", [], [], [], ["-std=c++17"], ""),
    ("chaotic-pendulum", "GianniCassoni/ChaoticPendulum", "", [], [], [], ["-std=c++17"], ""),
    ("kuramoto-ap", "atishpanday/Kuramoto-Oscillators", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("sixty-fifth", "heldout65", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
