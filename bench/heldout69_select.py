#!/usr/bin/env python3
"""How the sixty-ninth held-out set (bench/heldout69.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout69_select.py      # -> bench/heldout69.toml

RULE, written and committed (h/heldout69, 05:05 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for cellular automata and lattice spin models: Conway's
Game of Life and other totalistic / elementary / Larger-than-Life automata, lattice-gas CA fluids, Ising /
Potts / XY / Heisenberg models by Metropolis, heat-bath, checkerboard and cluster updates, abelian
sandpiles and self-organised criticality, percolation and other lattice statistical mechanics.
NARROWED where it overlaps: heldout33 took two cellular-automaton projects (milleniumbug/cudaGameOfLife,
algae-elbaum/cellular_automata) inside its discrete-solver domain and heldout39 excluded CA again; heldout23
named NVIDIA/ising-gpu inside physics simulation; heldout21/25/29/33 are cited by heldout52 for Ising / spin
Monte Carlo: none of those repositories is a candidate, and no candidate below is in bench/used_repos.txt or
named by an earlier heldout*_select.py. Not lattice gauge theory (heldout52), not agent-based population
models (heldout39), not fractals / visual demos (heldout48: a colour-cycling demo is not this domain, a
rule-driven automaton is), not lattice-Boltzmann solvers (heldout11/20/27), not Monte Carlo integration
(heldout53) nor RNG libraries (heldout62): a simulation that draws random numbers is this domain, a generator
is not. Nothing of this stop's heldout68 (quantum computing simulation) or heldout70 (radar / remote sensing).

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. megumi-ovo/Ising-GPU                2-D Ising model, checkerboard Metropolis sweeps, measurements
    2. CedArctic/ising-cuda                2-D Ising-like lattice evolution (moment per thread / per block / shared)
    3. YunTing-k/SandPileCUDA              abelian sandpile on triangular / square / hexagonal lattices
    4. Thought-Weaver/CUDA-Game-of-Life    Conway's Game of Life (global and shared-memory kernels)
    5. sleivav/GameOfLife-CUDA-OpenCL      Game of Life and HighLife kernels (branching and branch-free rules)
    6. Bai-Chiang/two_dimensional_XY_model 2-D XY model Monte Carlo, vortices, reductions of observables
    7. lucamuscarnera/CudaPercolation      site percolation: lattice occupation and cluster labelling
    8. keva92/lgca                         lattice-gas cellular automaton (HPP / FHP) fluid model
    9. ToruNiina/cuda_practice             its ising/ folder only: 2-D Ising Metropolis (the rest is not this domain)
   10. sampaat/spinglass_gpu               spin-glass / ferromagnet Monte Carlo on several lattices (Thrust)
   11. joseph-greef/colors                 life-like and Hodgepodge cellular-automaton rulesets
   12. Emkot87/Ising_Model_Cuda            2-D Ising-like lattice evolution (V1-V3)
   13. sportokalidis/CUDA-Ising-Model      2-D Ising-like lattice evolution (v1-v3)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout67's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuRAND, cuFFT, cuBLAS, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (SDL, OpenGL, Qt, libpng++, MPI), generated headers and absent submodules do not
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
  than 4 projects qualify, the EXTENSION domain applies: reaction-diffusion and excitable-media
  simulators (Gray-Scott, FitzHugh-Nagumo, Belousov-Zhabotinsky) outside heldout43's phase-field codes and
  heldout48's pattern demos, its candidates named by domain only, none in bench/used_repos.txt, written and
  committed before they are fetched.
Outcome of the rule: (filled in after the fetch, before any measure of kernelport).
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout69_before.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("ising-gpu-megumi", "megumi-ovo/Ising-GPU", "", [], [], [], ["-std=c++17"], ""),
    ("ising-cuda-cedarctic", "CedArctic/ising-cuda", "", [], [], [], ["-std=c++17"], ""),
    ("sandpilecuda", "YunTing-k/SandPileCUDA", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-game-of-life", "Thought-Weaver/CUDA-Game-of-Life", "", [], [], [], ["-std=c++17"], ""),
    ("gameoflife-cuda-opencl", "sleivav/GameOfLife-CUDA-OpenCL", "", [], [], [], ["-std=c++17"], ""),
    ("xy-model", "Bai-Chiang/two_dimensional_XY_model", "", [], [], [], ["-std=c++17"], ""),
    ("cudapercolation", "lucamuscarnera/CudaPercolation", "", [], [], [], ["-std=c++17"], ""),
    ("lgca", "keva92/lgca", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-practice-ising", "ToruNiina/cuda_practice", "", [], [], [], ["-std=c++17"], "ising/"),
    ("spinglass-gpu", "sampaat/spinglass_gpu", "", [], [], [], ["-std=c++17"], ""),
    ("colors", "joseph-greef/colors", "", [], [], [], ["-std=c++17"], ""),
    ("ising-model-emkot", "Emkot87/Ising_Model_Cuda", "", [], [], [], ["-std=c++17"], ""),
    ("ising-model-sportokalidis", "sportokalidis/CUDA-Ising-Model", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("sixty-ninth", "heldout69", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
