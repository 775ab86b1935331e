#!/usr/bin/env python3
"""How the twenty-sixth held-out set (bench/heldout26.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout26_select.py      # -> bench/heldout26.toml

RULE, written and committed (h/heldout26, 02:08 UTC) before any candidate was fetched or measured
(only the stored index's repository names and its code search were looked up, to name candidates
that exist), for computational finance, statistics and optimisation (option pricing: Black-Scholes,
binomial trees, Monte Carlo paths; Bayesian/MCMC likelihoods and samplers; k-means/clustering outside
kmcuda; genetic/evolutionary and swarm metaheuristics; linear programming; particle filters / SMC;
time-series):

  Candidates, in this order, named by domain only (none in /work/notes/t41/used.md, none of
  heldout27's PDE/numerical-solver domain, none chosen by how kernelport does on them):
    1. vgalanti/fastvol                    option pricing (binomial trees, Black-Scholes, ...)
    2. ardiyu07/bemap                      a benchmark suite (Black-Scholes, Monte Carlo option pricing, ...)
    3. HadarGreinsmark/gpu-option-pricing  binomial-tree American option pricing
    4. zpzim/SCAMP                         time series: matrix profile (all-pairs subsequence similarity)
    5. beagle-dev/beagle-lib               Bayesian phylogenetics likelihood kernels (MCMC samplers' core)
    6. MIT-Lu-Lab/cuPDLPx                  linear programming (restarted Halpern PDHG)
    7. COPT-Public/cuPDLP-C                linear programming (PDLP in C/CUDA)
    8. miking-lang/miking-dppl             probabilistic programming: SMC / particle filters (RootPPL)
    9. nscottnichols/deac-cpp              differential evolution (evolutionary metaheuristic)
   10. akaysh/mrpso                        particle swarm optimisation
   11. ThomasPasquali/GPU_Kmeans           k-means clustering
   12. vlcak/kMeansCUDA                    k-means clustering
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING (stop 39's heldout21 rule, reused through heldout24_select.select as heldout25 does):
  a candidate qualifies if at least half of its first 10 `.cu` files by path (all of them if fewer
  than 10) under its source folder have every `#include` they reach resolve in the repository, the
  CUDA toolkit (with CUDA 13's cccl/ thrust and cub) or the host compiler's search path
  (heldout2_select.resolves, read textually with heldout21's linux_text), with the include dirs of
  the project's build. This machine's CUDA 13 has no cuBLAS, cuRAND, cuFFT or cuSPARSE headers
  (cublas_v2.h, curand.h, curand_kernel.h, cufft.h, cusparse.h absent): a file that includes one
  does not resolve and so neither counts toward qualifying nor is taken; the rule takes no stand-in
  headers. (This domain leans on cuRAND for its random paths and draws, so many files drop out by
  that clause; the set is what remains, said, not patched.) Files of a qualifying candidate: its
  `.cu` files only (local headers are copied with them by realcorpus_build.py), under its source
  folder (read from its build files after the fetch and before any measure; the whole repository
  when the build names no single folder), less vendored third-party folders (a path component named
  third_party, 3rdparty, external or extern), within the size cap, less those whose includes do not
  resolve and byte-for-byte copies (heldout2_select.pick). A project with more than CAP = 12 such
  files gives 12 evenly spaced in path order (files[i*n//12]). Include dirs, defines and nvcc flags
  are those of the project's own build files (read before any measure; `-std=c++17` where the build
  asks for an older standard: CUDA 13's headers need 17). Self-contained check, by the rule and not
  by kernelport (heldout22's): the first three files taken (path order; all if fewer) are compiled
  with `nvcc -c` and the project's flags; a project of which fewer than two (one if it gives one
  file) compile, for a reason other than CUDA 13's removed APIs, drops out, as does one that cannot
  be fetched, does not qualify or gives 0 files (said below). Candidates are taken in order until
  the set holds at least 45 files or 6 projects.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout26_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 45, 6

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in below once fetched).
CANDIDATES: list = []
DROPPED: set = set()  # failed the self-contained check (the docstring says why)


def heldout26() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("twenty-sixth", "heldout26", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout26.toml").write_text(heldout26())
