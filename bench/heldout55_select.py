#!/usr/bin/env python3
"""How the fifty-fifth held-out set (bench/heldout55.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout55_select.py      # -> bench/heldout55.toml

RULE, written and committed (h/heldout55, 17:50 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for combinatorial search, games and puzzle solving:
game engines' move generation and search (chess, checkers, Othello, connect four, other board
games), game-theory solvers (counterfactual regret minimisation, poker hand evaluation), SAT by
stochastic local search (WalkSAT-like flips, circulation heuristics), single-agent puzzle search
(sliding-tile 15/24-puzzle IDA*, A*, Rubik's cube), exhaustive enumeration and knapsack.
NARROWED where it overlaps: heldout33 took "optimisation and discrete solvers" (SAT solvers on
GPU, TSP, sudoku, MCTS rollouts, cellular automata, with N-queens, linear assignment and chess perft
in its extension): its candidates (ParaFROST, GpuShareSat, JerryAZR/minisat, adamp87/MCTS,
gpu_sudoku, cuda-sudoku-solver, MCTS-Gobang, CUDA_MCTS, suzukiiichiro/N-Queens, ankan-ban/perft_gpu,
CuLAP, LAP_6679, HiGHS, ...) are not candidates, and its sub-domains are left out here: CDCL /
preprocessing SAT solvers, sudoku, Monte Carlo tree search (so kryczkal/CudaMCTS-Checkers, an MCTS
checkers player, is not a candidate), N-queens, perft, TSP / linear assignment / LP and the
metaheuristics (particle swarm, annealing, ant colony, genetic algorithms; a knapsack candidate
counts only for exact search or dynamic programming). SAT local search and game engines other than
perft / MCTS were not named by heldout33 and stay in. Not heldout50's password recovery, heldout39's
agent-based models, heldout46's emulators (Atari / CuLE), nor this stop's heldout56 (audio) and
heldout57 (geometry / meshing). uoftcprg/gpugt (CFR) is left out: its GPU code is Python (CuPy).
None below is in bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. TakefumiYamamura/sliding-puzzle      15- and 24-puzzle IDA* (block-parallel, pattern databases)
    2. janrvdolf/gpucfr                     counterfactual regret minimisation (Goofspiel game trees)
    3. dkozykowski/Chess-Engine-GPU         chess engine: GPU move generation, evaluation and search
    4. nvzoll/walksat-cuda                  SAT stochastic local search (WalkSAT flips)
    5. srogatch/bsat-circulation            SAT local search by circulation (GPU flip heuristics)
    6. russelltaylor05/blackjack            poker hand evaluation / hand analysis kernels
    7. yerevansky/cuda-khun-poker           counterfactual regret minimisation for Kuhn poker
    8. jdlehman/connect4_AI_cuda            connect four move search
    9. ErikLundJensen/experimental          Othello legal moves and flips (g2flip)
   10. jbujak/A-star-CUDA                   massively parallel A* (sliding puzzle, path finding)
   11. Z0maxx/CubeSolverWebApp              Rubik's cube solver kernels
   12. AJcodes/cuda_knapsack_01             0/1 knapsack dynamic programming
   13. kingh0730/order_and_chaos            Order and Chaos game solving (retrograde positions)
   14. star-ga/NikolaChess                  chess engine: GPU batch evaluation
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout45's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (torch, Eigen, MPI, the CUDA samples' helper_cuda.h), generated headers and
  absent submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only under the
  source folder read from the build files after the fetch and before any measure (the whole
  repository when the build names no single folder), less vendored folders (third_party, 3rdparty,
  external, extern), over the size cap, not resolving, or byte-for-byte copies; more than CAP = 12
  gives 12 evenly spaced in path order. Include dirs, defines and flags from the project's own build
  (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left out). Self-contained
  check: the first three files taken (all if fewer) are compiled with `nvcc -c` and the project's
  flags; a project of which fewer than two (one if it gives one) compile, for a reason other than
  CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not qualify
  or gives 0 files. Candidates are taken in order until the set holds at least STOP_FILES = 40 files
  or STOP_PROJECTS = 8 projects. If fewer than 4 projects qualify, an EXTENSION (combinatorial design
  and enumeration searches: Golomb rulers, Costas arrays, magic / Latin squares, polyomino tiling,
  Ramsey / de Bruijn searches; named by domain only, none in bench/used_repos.txt) is written and
  committed before its candidates are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout55_baseline.txt).
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
    write_set("fifty-fifth", "heldout55", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
