#!/usr/bin/env python3
"""How the fifty-fifth held-out set (bench/heldout55.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout55_select.py      # -> bench/heldout55.toml

RULE, written and committed (h/heldout55, 17:46 UTC, commit 886ee543) before any candidate was fetched or measured
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
Outcome of the rule (before any measure of kernelport, 17:50 UTC): candidates 1-10 fetched (and 11-14, fetched
  before the stop was known; not used). sliding-puzzle 12 (27 .cu, 10 of the first 10 resolve, evenly spaced to
  CAP), gpucfr 5, Chess-Engine-GPU 8, walksat-cuda 1, bsat-circulation 0 (its gpu/ folder is gone from the newest
  snapshot), blackjack 0 (1 of its first 6 resolves: the other five include curand_kernel.h), cuda-khun-poker 0
  (0 of 2: its headers are under Include/ where its build names include/, apart on Linux), connect4_AI_cuda 5, experimental (g2flip) 2 (2 of 4
  resolve: g2flip/g2flip/BoardUtils.cu includes "flip.h" where the file is Flip.h, g2flip.cu includes windows.h), A-star-CUDA 7: 40 files in 7 projects, the file
  stop reached at candidate 10. Check (`nvcc -c`, first three files, 17:49 UTC): sliding-puzzle 2/3
  (15puzzle_block_parallel_wo_staticlb.cu uses an undefined N4: the source's own error), gpucfr 3/3,
  Chess-Engine-GPU 3/3 (-rdc=true from its -dc), walksat-cuda 1/1, connect4_AI_cuda 1/3 (c4.cu and c4recurse.cu
  call cudaThreadSynchronize, removed in CUDA 13: a removed API, so it stays and counts only where the original
  compiles), g2flip 2/2, A-star-CUDA 3/3. No project DROPPED. Caveats, said and not acted on: sliding-puzzle is 12
  of the 40 (two authors' variants of one IDA* program), and most projects are student or course programs.
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
    # no build file (each program compiled alone); the whole repository (src/ and src_horie/)
    ("sliding-puzzle", "TakefumiYamamura/sliding-puzzle", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # CMakeLists.txt: include dirs include/ and src/, CUDA 14 (-> 17), CUDA_SEPARABLE_COMPILATION (-rdc=true);
    # main.cu, main_correctness.cu and src/*.cu: the whole repository
    ("gpucfr", "janrvdolf/gpucfr", "(none in the repository)", [], ["include", "src"], [], ["-std=c++17", "-rdc=true"],
     ""),
    # src/Makefile: nvcc -c -dc -std=c++11 (-> 17) for each src/*.cu
    ("chess-engine-gpu", "dkozykowski/Chess-Engine-GPU", "GPL-3.0 (see LICENSE)", ["LICENSE"], [], [],
     ["-std=c++17", "-rdc=true"], "src/"),
    # CMakeLists.txt: include dir the root, CUDA_SEPARABLE_COMPILATION, C++11 (-> 17); sls-cuda/kernel.cu
    ("walksat-cuda", "nvzoll/walksat-cuda", "GPL-3.0 (see LICENSE)", ["LICENSE"], ["."], [], ["-std=c++17", "-rdc=true"],
     "sls-cuda/"),
    # build.sh builds the CPU solver only; its gpu/ folder is not in the newest snapshot
    ("bsat-circulation", "srogatch/bsat-circulation", "(see the repository)", [], [], [], ["-std=c++17"], "gpu/"),
    # Makefile: nvcc -g -lcurand -arch=compute_20 (below CUDA 13's minimum, left out); the whole repository
    ("blackjack-poker", "russelltaylor05/blackjack", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # CMakeLists.txt: include dir include/, CUDA 17, src/*.cu; architectures 75 86 left to the default
    ("cuda-kuhn-poker", "yerevansky/cuda-khun-poker", "(none in the repository)", [], ["include"], [], ["-std=c++17"],
     "src/"),
    # no build file (c4.cu's comment: nvcc -o game game.cu)
    ("connect4-ai", "jdlehman/connect4_AI_cuda", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # g2flip.vcxproj: no include dirs, WIN32 / _CONSOLE defines only (Windows), sm_13 / sm_30 left out
    ("g2flip-othello", "ErikLundJensen/experimental", "(none in the repository)", [], [], [], ["-std=c++17"], "g2flip/"),
    # Makefile: -std=c++14 (-> 17) -g -G (debug only, left out), each unit --device-c (-rdc=true)
    ("astar-cuda", "jbujak/A-star-CUDA", "MIT (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17", "-rdc=true"], ""),
    # CubeSolver.vcxproj: GenerateRelocatableDeviceCode (-rdc=true), Windows defines only; CubeSolver/ (the solver;
    # CubeColorIdentifier/ is image processing, not this domain)
    ("cube-solver", "Z0maxx/CubeSolverWebApp", "(see the repository)", [], [], [], ["-std=c++17", "-rdc=true"],
     "CubeSolver/"),
    # cuda_knapsack_01.vcxproj: kernel.cu, Windows defines only
    ("knapsack-01", "AJcodes/cuda_knapsack_01", "(none in the repository)", [], [], [], ["-std=c++17"],
     "cuda_knapsack_01/"),
    # .vscode/tasks.json: nvcc src/main.cu src/lib/*.cu -rdc=true (archive/ is the superseded version)
    ("order-and-chaos", "kingh0730/order_and_chaos", "(none in the repository)", [], [], [], ["-std=c++17", "-rdc=true"],
     "src/"),
    # Makefile / build.yml: the newest snapshot holds no .cu (the engine moved to another language)
    ("nikolachess", "star-ga/NikolaChess", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("fifty-fifth", "heldout55", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
