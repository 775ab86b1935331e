#!/usr/bin/env python3
"""How the sixty-seventh held-out set (bench/heldout67.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout67_select.py      # -> bench/heldout67.toml

RULE, written and committed (h/heldout67, 03:06 UTC, commit bac07b17) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for statistical computing and hypothesis testing:
resampling (bootstrap, permutation / randomisation tests, jackknife, cross-validation loops), kernel
density estimation, correlation / covariance / mutual-information matrices over many variables
(co-expression networks; Pearson, Spearman, Kendall), distance correlation, survival analysis (Cox
regression), generalized linear models fit on the GPU, multiple-testing corrections, and statistical
libraries with CUDA kernels. NARROWED where it overlaps: heldout26 took "computational finance,
statistics and optimisation" but its statistics were Bayesian / MCMC likelihoods, particle filters and
k-means (beagle-lib, miking-dppl, kMeansCUDA...): none of those here, no MCMC, no option pricing;
heldout47 took Gaussian-process regression and Kalman filters (not here); heldout18 / heldout28 took
population genetics and bioinformatics pipelines (alignment, variant calling, mass spectrometry): the
co-expression candidates below are correlation / mutual-information matrix codes, named by that
statistics domain, not sequence analysis; heldout29's classic ML (SVM, trees, k-NN), heldout62's RNG
and sampling, heldout64's probabilistic inference, heldout65's ODE / dynamical systems and heldout66's
GPU database / query processing are not taken. None below is in bench/used_repos.txt or named by an
earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. nullsatz/gputools                 statistics library for R: Pearson / Kendall correlation, mutual
                                         information, Granger causality tests, least-squares / GLM fits
    2. SystemsGenetics/KINC              co-expression networks: Pearson / Spearman similarity matrices
    3. amstokely/curva                   mutual-information and Pearson correlation matrices
    4. shadeland/cuda_clr                mutual information (B-spline estimator) over many variables (CLR)
    5. hkashyap/getSSSimCUDA             co-expression similarity measure over all gene pairs
    6. OHDSI/Cyclops                     regularized GLM and Cox proportional-hazards regression (survival)
    7. AlexFluid/GPUStatistics           bootstrap resampling and permutation statistics
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (R, Qt, torch, Eigen, MPI), generated headers and absent submodules do not
  resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read from the
  build files after the fetch and before any measure (the whole repository when the build names no
  single folder), less vendored folders (third_party, 3rdparty, external, extern), over the size cap,
  not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order.
  Include dirs, defines and flags from the project's own build (`-std=c++17` where it asks for older;
  an -arch below CUDA 13's minimum left out). Self-contained check: the first three files taken (all
  if fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two
  (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED),
  as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are taken in
  order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects. If fewer
  than 4 projects qualify, the EXTENSION domain applies: epistasis / SNP-interaction search
  (exhaustive pairwise / higher-order interaction tests over genotype tables; heldout28's RULE did not
  take it), its candidates named by domain only, none in bench/used_repos.txt, written and committed
  before they are fetched.
Outcome of the rule (before any measure of kernelport, 03:10 UTC): candidates 1-7 all fetched. gputools 7 (inst/cuda/,
  7 of 7 resolve), KINC 1 (src/mini/kinc-mini.cu: its src/cuda/*.cu are Qt resources that the application compiles at
  run time with NVRTC, concatenated, so the folder an nvcc build compiles is src/mini/), curva 3, cuda_clr 0 (its newest
  snapshot holds no .cu), getSSSimCUDA 2, Cyclops 2 (src/cyclops/engine/), GPUStatistics 0 (1 of its 3 resolves:
  curand_kernel.h). Five qualify, so no EXTENSION; the candidates run out at 15 files in five projects (the stops, 40
  files or 8 projects, are not reached). Check (`nvcc -c`, first three files, 03:09 UTC): gputools 3/3, KINC 0/1
  (cudaMemPrefetchAsync's device argument became a cudaMemLocation in CUDA 13: a removed API, so it stays and counts
  only where the original compiles: nowhere), curva 3/3, getSSSimCUDA 2/2, Cyclops 1/2 (CudaKernel.cu reaches
  fused_kernel/block_store_exchange.cuh, which passes cub::BlockExchange a template argument CUDA 13's CCCL 3 removed:
  a removed API, so it stays). No project DROPPED. Caveats, said and not acted on: 15 files (the brief asks 30), gputools
  is 7 of them; getSSSimCUDA's two files are variants of one program.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout67_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    # configure.ac / src/Makevars.in: CUDA_CPPFLAGS -I. (the CUDA include dir); inst/cuda/*.cu are the package's
    # kernels (compiled from the R side at run time), no nvcc flags named
    ("gputools", "nullsatz/gputools", "GPL-3 (DESCRIPTION)", [], [], [], ["-std=c++17"], "inst/cuda/"),
    # src/KINC.pro / resources.qrc: src/cuda/*.cu are Qt resources compiled at run time (NVRTC), not by nvcc; the
    # one nvcc build is src/mini/Makefile: nvcc -std=c++11 (-> 17), DEBUG ?= 1 adds --device-debug (a debug
    # option, left out)
    ("kinc", "SystemsGenetics/KINC", "MIT (see LICENSE.md)", ["LICENSE.md"], [], [], ["-std=c++17"], "src/mini/"),
    # CMakeLists.txt: curva library from src/matrix/ and src/cuda/, include dirs include/ and include/json/include,
    # CUDA_SEPARABLE_COMPILATION ON (-rdc=true), CUDA_ARCHITECTURES 61 (below CUDA 13's minimum, left out)
    ("curva", "amstokely/curva", "GPL-3.0 (see LISCENSE)", ["LISCENSE"], ["include", "include/json/include"], [],
     ["-std=c++17", "-rdc=true"], "src/"),
    # no build file in its newest snapshot
    ("cuda-clr", "shadeland/cuda_clr", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # Makefile / Makefile_GPU (a CUDA-samples makefile): INCLUDES -I../../common/inc (outside the repository), -m64;
    # the sm_20..52 -gencode list left out
    ("getsssim", "hkashyap/getSSSimCUDA", "GPL-3.0 (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17", "-m64"], ""),
    # src/Makevars.in: PKG_CPPFLAGS -I. -Icyclops -DR_BUILD -DDOUBLE_PRECISION (from src/); the .cu under
    # src/cyclops/engine/
    ("cyclops", "OHDSI/Cyclops", "Apache-2.0 (DESCRIPTION)", [], ["src", "src/cyclops"], ["R_BUILD", "DOUBLE_PRECISION"],
     ["-std=c++17"], "src/cyclops/engine/"),
    # VisualStudio/ project files only (no flags read)
    ("gpustatistics", "AlexFluid/GPUStatistics", "(none in the repository)", [], [], [], ["-std=c++17"], "VisualStudio/"),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("sixty-seventh", "heldout67", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
