#!/usr/bin/env python3
"""How the thirty-third held-out set (bench/heldout33.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout33_select.py      # -> bench/heldout33.toml

RULE, written and committed (h/heldout33, 16:00 UTC) before any candidate was fetched or measured
(only the stored index's repository names, its .cu paths and code search were looked up, to name
candidates that exist and hold CUDA sources), for optimisation and discrete solvers (SAT solvers on
GPU, combinatorial search: TSP, sudoku; GPU game-tree / MCTS rollouts; cellular automata), a domain
no earlier heldout*_select.py took (cuPDLP-C, cuPDLPx, ising-gpu, mrpso, psondimension, warp-drive,
FLAMEGPU2, ALIEN and TIGR were named or used before and are not candidates; NVIDIA/cuopt is left
out because its build needs RAFT / RMM / CCCL from its conda environment, which the task's brief
(plain nvcc projects, no big dependencies) rules out; metaheuristics (particle swarm, simulated
annealing, ant colony, genetic algorithms) are used by earlier sets and skipped; forks of a
candidate are not candidates):

  Candidates, in this order, named by domain only (none in bench/used_repos.txt nor named by an
  earlier heldout*_select.py, none chosen by how kernelport does on them):
    1. muhos/ParaFROST                    SAT solver: GPU preprocessing / inprocessing (BVE, subsumption, ERE)
    2. nicolasprevot/GpuShareSat          SAT solver: GPU clause-sharing library beside CPU solvers
    3. JerryAZR/minisat                   SAT solver: MiniSat with GPU unit propagation
    4. adamp87/MCTS                       Monte Carlo tree search with CUDA rollouts (game AI)
    5. milleniumbug/cudaGameOfLife        cellular automaton (Game of Life, block-sparse board)
    6. krocki/LOGO-TSP-Solver             TSP: GPU 2-opt local optimisation
    7. manicely6005/tsp2opt_cuda          TSP: GPU 2-opt
    8. Manomenu/gpu_sudoku                sudoku: GPU constraint propagation
    9. evcu/cuda-sudoku-solver            sudoku: GPU propagate-and-fork search
   10. ForMyPainandForMyWay/MCTS-Gobang   MCTS for Gobang with GPU rollouts
   11. algae-elbaum/cellular_automata     3-D cellular automata on GPU
   12. djjbxxz/CUDA_MCTS                  MCTS with a CUDA selection kernel
   13. adamp87/sudoku                     sudoku solver (its CUDA units, if any)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING (heldout21's rule, reused through heldout24_select.select as heldout25-32 do): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all of them if fewer
  than 10) under its source folder have every `#include` they reach resolve in the repository, the
  CUDA toolkit (CUDA 13, with its cccl/ thrust and cub) or the host compiler's search path
  (heldout2_select.resolves, read textually with heldout21's linux_text), with the include dirs of
  the project's build. This machine's CUDA 13 has no cuBLAS, cuRAND, cuFFT, cuSPARSE or cuDNN
  headers: a file that includes one (directly or through a local header) does not resolve, so it
  does not count toward qualifying and is not taken; the rule takes no stand-in headers. Likewise
  absent third-party headers (Boost, Qt, OpenGL/GLUT/GLEW, SDL, Eigen, gtest, ...), headers a build
  generates, and git submodules absent from the snapshot.
  Files of a qualifying candidate: its `.cu` files only (local headers are copied with them by
  realcorpus_build.py), under its source folder (read from its build files after the fetch and
  before any measure; the whole repository when the build names no single folder), less vendored
  third-party folders (a path component named third_party, 3rdparty, external or extern), within
  the size cap, less those whose includes do not resolve and byte-for-byte copies
  (heldout2_select.pick). A project with more than CAP = 12 such files gives 12 evenly spaced in
  path order (files[i*n//12]). Include dirs, defines and nvcc flags are those of the project's own
  build files (read after the fetch and before any measure; `-std=c++17` where the build asks for
  an older standard: CUDA 13's headers need 17; a build's -arch below CUDA 13's minimum is left
  out). Self-contained check, by the rule and not by kernelport (heldout22's): the first three
  files taken (path order; all if fewer) are compiled with `nvcc -c` and the project's flags; a
  project of which fewer than two (one if it gives one file) compile, for a reason other than
  CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not
  qualify or gives 0 files (said below). Candidates are taken in order until the set holds at
  least STOP_FILES = 45 files or STOP_PROJECTS = 10 projects (many candidates of this domain are
  single-purpose programs of one to four units: the project stop is set so the set stays thick).
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout33_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 45, 10

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("parafrost", "muhos/ParaFROST", "", [], [], [], ["-std=c++17"], ""),
    ("gpusharesat", "nicolasprevot/GpuShareSat", "", [], [], [], ["-std=c++17"], ""),
    ("minisat-gpu", "JerryAZR/minisat", "", [], [], [], ["-std=c++17"], ""),
    ("mcts-adamp87", "adamp87/MCTS", "", [], [], [], ["-std=c++17"], ""),
    ("cudagameoflife", "milleniumbug/cudaGameOfLife", "", [], [], [], ["-std=c++17"], ""),
    ("logo-tsp", "krocki/LOGO-TSP-Solver", "", [], [], [], ["-std=c++17"], ""),
    ("tsp2opt", "manicely6005/tsp2opt_cuda", "", [], [], [], ["-std=c++17"], ""),
    ("gpu-sudoku", "Manomenu/gpu_sudoku", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-sudoku-solver", "evcu/cuda-sudoku-solver", "", [], [], [], ["-std=c++17"], ""),
    ("mcts-gobang", "ForMyPainandForMyWay/MCTS-Gobang", "", [], [], [], ["-std=c++17"], ""),
    ("cellular-automata", "algae-elbaum/cellular_automata", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-mcts", "djjbxxz/CUDA_MCTS", "", [], [], [], ["-std=c++17"], ""),
    ("sudoku-adamp87", "adamp87/sudoku", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED: frozenset[str] = frozenset()  # filled by the self-contained check (said in the docstring)


def heldout33() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("thirty-third", "heldout33", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout33.toml").write_text(heldout33())
