#!/usr/bin/env python3
"""How the fifty-fourth held-out set (bench/heldout54.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout54_select.py      # -> bench/heldout54.toml

RULE, written and committed (h/heldout54, 14:59 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for dense and batched matrix factorisations,
eigensolvers and tensor decompositions: LU / QR / Cholesky and Gauss-Jordan inversion (batched and
blocked), SVD and Jacobi rotations, symmetric and non-symmetric eigensolvers (tridiagonal / Hessenberg
reduction, QL / QR iteration, Jacobi), tensor decompositions (CP via MTTKRP, Tucker, tensor-train) and
triangular solves. NARROWED where it overlaps: heldout14 took dense linear algebra as GEMM tuning and
quantised GEMM, and heldout24 quantised GEMM: no GEMM-tuning project is named here; heldout14 looked at
and left out icl-utk-edu/slate and hpcgarage/ParTI, and heldout31 named A2R-Lab/GLASS: none of the three
is named here; MAGMA, cuBLAS / cuSOLVER / cuTENSOR wrappers are out (a project that only calls a vendor
library has no kernels to port: a file that reaches an absent vendor header drops out by the qualifying
rule); nothing of heldout44's recommender matrix factorisation (cumf), heldout53's extended-precision
arithmetic (so no multi-double QR such as PHCpack), heldout27's sparse iterative solvers, or heldout52's
lattice field theory. None below is in bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. sumukhashridhar/matrixInversion      batched LU factorisation and inversion of small matrices
    2. janpriessnitz/qrgpu                  blocked Householder QR
    3. hirokitokura/tokura_dgeev_batched    batched non-symmetric eigenvalues (Hessenberg reduction, QR iteration)
    4. Crowzain/Projet-CUDA                 symmetric eigensolver (tridiagonal reduction, QL iteration)
    5. isratnisa/B-CSF                      sparse tensor MTTKRP (CP decomposition), balanced CSF
    6. isratnisa/MM-CSF                     sparse tensor MTTKRP (CP decomposition), mixed-mode CSF
    7. paogor/gauss-jordan                  batched Gauss-Jordan inversion
    8. acastellanos95/SVD-Thesis            one-sided Jacobi SVD
    9. akuendig/cuda-matrix-inversion       batched Gauss / LU matrix inversion
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (MAGMA, MPI, LAPACKE), generated headers and absent submodules do not
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
  than 4 projects qualify, an EXTENSION (tridiagonal and banded direct solvers: Thomas algorithm,
  cyclic reduction, parallel cyclic reduction, SPIKE; named by domain only, none in
  bench/used_repos.txt) is written and committed before its candidates are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout54_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("matrixinversion", "sumukhashridhar/matrixInversion", "", [], [], [], ["-std=c++17"], ""),
    ("qrgpu", "janpriessnitz/qrgpu", "", [], [], [], ["-std=c++17"], ""),
    ("tokura-dgeev", "hirokitokura/tokura_dgeev_batched", "", [], [], [], ["-std=c++17"], ""),
    ("projet-cuda-eigen", "Crowzain/Projet-CUDA", "", [], [], [], ["-std=c++17"], ""),
    ("b-csf", "isratnisa/B-CSF", "", [], [], [], ["-std=c++17"], ""),
    ("mm-csf", "isratnisa/MM-CSF", "", [], [], [], ["-std=c++17"], ""),
    ("gauss-jordan", "paogor/gauss-jordan", "", [], [], [], ["-std=c++17"], ""),
    ("svd-thesis", "acastellanos95/SVD-Thesis", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-matrix-inversion", "akuendig/cuda-matrix-inversion", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("fifty-fourth", "heldout54", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
