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
Outcome of the rule (before any measure of kernelport, 02:13 UTC): candidates 1-8 all fetched. MPGOS 10 (10 of 10
  resolve), Cloned_Dynamics_Lyapunov_Exponents 8 (its two 08.CUDA programs, 66-70 KB, are over the size cap; the eight
  09.MATLAB_CUDA kernels taken), Didymos-optimization 1 (of Cuda/'s two units, Optimization/optimization.cu reaches an
  include absent from the repository), ODEVisualization 0 (0 of 10: boost/odeint, param_helper,
  devdat, outside the repository), BasinsOfAttractionCUDA 2 (kernel.cu includes <conio.h>, Windows-only), kuramoto
  (znicolaou) 0 (cublas_v2.h, curand_kernel.h, cufft.h), ChaoticPendulum 2, Kuramoto-Oscillators 1. Six qualify, so
  no EXTENSION (the rule asks one under four). Check (`nvcc -c`, first three files): MPGOS 0/3, every tutorial through
  its SourceCodes/*_Interface.cuh reads cudaDeviceProp::clockRate / memoryClockRate, removed in CUDA 13: a removed API,
  so it stays and its files count only where the original compiles (none); Cloned_Dynamics 3/3, Didymos 0/1
  (runge_kuttaCUDA.cu is no translation unit: runge_kuttaCUDA.cuh #includes it after the declarations it needs,
  "Individual" / "cudaConstants" are undefined alone: the source's own) -> DROPPED; Basins 2/2, ChaoticPendulum 2/2,
  Kuramoto-Oscillators 1/1. The stops (40 files, 8 projects) are not reached: the candidates run out at 23 files in five
  projects. Caveats, said and not acted on: a thin set (23 files, 13 whose original compiles with CUDA 13), MPGOS's ten
  files count nowhere (removed API), Cloned_Dynamics' eight are variants of one Duffing RK4 kernel written for MATLAB's
  parallel.gpu.CUDAKernel, ChaoticPendulum's two are near copies.
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
    # Tutorials_*/*/makefile (ten, one per tutorial: the build names no single folder): nvcc -O3 -std=c++11 (-> 17)
    # -lineinfo -maxrregcount=80 (64 / 80 / 128 by tutorial: 80, the most common, for all), -I.../SourceCodes;
    # --ptxas-options=-v and --resource-usage (reports only) and --gpu-architecture=sm_35 (below CUDA 13's minimum) left out
    ("mpgos", "FerencHegedus/Massively-Parallel-GPU-ODE-Solver", "MIT (see LICENSE)", ["LICENSE"], ["SourceCodes"], [],
     ["-std=c++17", "-O3", "-lineinfo", "-maxrregcount=80"], ""),
    # 08.CUDA/*/compile.sh: nvcc NAME.cu -Im -G -O0 -keep (-Im names no folder of the repository; -keep keeps
    # intermediates; the sm_20..35 -gencode list left out); 09.MATLAB_CUDA/ has no build file (two folders: the whole repository)
    ("cldyn-lyap", "fazanaro/Cloned_Dynamics_Lyapunov_Exponents", "GPL-3.0 (see LICENSE)", ["LICENSE"], [], [],
     ["-std=c++17", "-G", "-O0"], ""),
    # README.md: nvcc -o NAME.exe optimization.cu (run in Cuda/Optimization/; Cuda/ is the program, Legacy/ is not)
    ("didymos", "scott-whitworth/Didymos-optimization", "(none in the repository)", [], [], [], ["-std=c++17"], "Cuda/"),
    # odevis/src/CMakeLists.txt: the library odevisualization; include dirs ../include and ../src; CUDA options
    # --expt-extended-lambda --expt-relaxed-constexpr (boost, param_helper, devdat are outside the repository)
    ("odevis", "statphysandml/ODEVisualization", "MIT (see LICENSE.md)", ["LICENSE.md"],
     ["odevis/include", "odevis/src"], [], ["-std=c++17", "--expt-extended-lambda", "--expt-relaxed-constexpr"],
     "odevis/src/"),
    # Basins_of_attractions.vcxproj: CudaCompile kernel.cu, basinsCUDA.cu, basinsHOST.cu; its defines are Windows'
    # (WIN32, WIN64, _CONSOLE: left out), no extra options
    ("basins", "WyacheslawRybin/BasinsOfAttractionCUDA", "MIT (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"],
     "Basins_of_attractions/"),
    # README.md: nvcc -O3 -lcuda -lcublas -lcurand kuramoto.cu dp45.cu (links only: -l left out)
    ("kuramoto-zn", "znicolaou/kuramoto", "(none in the repository)", [], [], [], ["-std=c++17", "-O3"], ""),
    # Makefile: nvcc Fractal_mamaCUDA.cu -o Fractal_mamaCUDA (no flags)
    ("chaotic-pendulum", "GianniCassoni/ChaoticPendulum", "MIT (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    # no build file; README names none
    ("kuramoto-ap", "atishpanday/Kuramoto-Oscillators", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset({"scott-whitworth/Didymos-optimization"})  # 0 of 1 in the self-contained check (the Outcome says why)


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("sixty-fifth", "heldout65", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
