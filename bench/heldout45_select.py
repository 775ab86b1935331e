#!/usr/bin/env python3
"""How the forty-fifth held-out set (bench/heldout45.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout45_select.py      # -> bench/heldout45.toml

RULE, written and committed (h/heldout45, 07:33 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for computational number theory: prime sieves
(segmented sieve of Eratosthenes, prime counting), trial factoring of Mersenne numbers and trial
division of big integers, Collatz-conjecture verification, multi-limb big-integer arithmetic
outside cryptography. Not cryptography or its number theory (heldout30: FHE, lattice NTT,
post-quantum, zero-knowledge MSM / NTT, gmp-ecm, Pollard rho; NVlabs/CGBN is in
bench/used_repos.txt), not cryptocurrency mining or key search, not heldout33's discrete solvers
(SAT, TSP, sudoku, MCTS, cellular automata), nothing of heldout43's (materials, reacting flow,
solid mechanics) or heldout44's (networking, storage, video encoding, recommender kernels) domains,
none of their repositories. None below is in bench/used_repos.txt or named by an earlier
heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. primesearch/mfaktc                  trial factoring of Mersenne numbers (GPU sieve, 72/96-bit, Barrett)
    2. curtisseizert/CUDASieve             segmented sieve of Eratosthenes: prime counting and generation
    3. rogerdahl/cuda-collatz              Collatz conjecture: delay-record search (sieve, 64-bit cores)
    4. andreamatt/CUDA-collatz             Collatz conjecture: stopping-time verification
    5. kryc/cuda-primefac                  trial-division factorisation of integers up to 2^128 (wheel)
    6. JoshuaHKU/BigInteger-for-CUDA-GPU   multi-limb big-integer arithmetic: mul, div, modular exponentiation
    7. kryc/cuda-collatz                   Collatz conjecture: 128-bit path verification
    8. eccyy/CursedCUDA                    prime sieve on the GPU (bucketed, segmented)
    9. Gold18K/CUDA-Collatz-verifier       Collatz conjecture verification
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout42's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (GMP's gmp.h, MPI, primesieve), generated headers and absent submodules do not
  resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read from the
  build files after the fetch and before any measure (the whole repository when the build names no
  single folder), less vendored folders (third_party, 3rdparty, external, extern), over the size cap,
  not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order.
  Include dirs, defines and flags from the project's own build (`-std=c++17` where it asks for older;
  an -arch below CUDA 13's minimum left out). Self-contained check: the first three files taken (all
  if fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two
  (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED),
  as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are taken in
  order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects (the brief:
  at least 4 projects and 30 files). If fewer than 4 projects qualify, an EXTENSION (computational
  geometry: convex hulls, Delaunay / Voronoi outside gDel3D, polygon clipping, spatial joins; named by
  domain only, none in bench/used_repos.txt) is written and committed before its candidates are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout45_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("mfaktc", "primesearch/mfaktc", "GPL-3.0 (see COPYING)", ["COPYING"], [], [], ["-std=c++17"], "src/"),
    ("cudasieve", "curtisseizert/CUDASieve", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    ("collatz-dahl", "rogerdahl/cuda-collatz", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    ("collatz-matt", "andreamatt/CUDA-collatz", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    ("primefac", "kryc/cuda-primefac", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++20", "-O2"], ""),
    ("biginteger", "JoshuaHKU/BigInteger-for-CUDA-GPU", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    ("collatz-kryc", "kryc/cuda-collatz", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    ("cursedcuda", "eccyy/CursedCUDA", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    ("collatz-gold", "Gold18K/CUDA-Collatz-verifier", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
]
# include dirs, defines, flags and licenses above are placeholders until each build is read after the fetch
# (before any measure); they are filled in then.
DROPPED: frozenset = frozenset()


def heldout45() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("forty-fifth", "heldout45", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout45.toml").write_text(heldout45())
