#!/usr/bin/env python3
"""How the sixty-seventh held-out set (bench/heldout67.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout67_select.py      # -> bench/heldout67.toml

RULE, written and committed (h/heldout67, 03:15 UTC) before any candidate was fetched or measured
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
Outcome of the rule (filled in after the fetch, before any measure of kernelport).
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
    ("gputools", "nullsatz/gputools", "", [], [], [], ["-std=c++17"], ""),
    ("kinc", "SystemsGenetics/KINC", "", [], [], [], ["-std=c++17"], ""),
    ("curva", "amstokely/curva", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-clr", "shadeland/cuda_clr", "", [], [], [], ["-std=c++17"], ""),
    ("getsssim", "hkashyap/getSSSimCUDA", "", [], [], [], ["-std=c++17"], ""),
    ("cyclops", "OHDSI/Cyclops", "", [], [], [], ["-std=c++17"], ""),
    ("gpustatistics", "AlexFluid/GPUStatistics", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("sixty-seventh", "heldout67", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
