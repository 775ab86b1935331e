#!/usr/bin/env python3
"""How the sixty-ninth held-out set (bench/heldout69.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout69_select.py      # -> bench/heldout69.toml

RULE, written and committed (h/heldout69, 04:56 UTC, commit dcf41566) before any candidate was fetched or measured
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
Outcome of the rule (before any measure of kernelport, 04:58 UTC): candidates 1-13 all fetched. Ising-GPU 0 (its four
  .cu reach curand.h), ising-cuda 3, SandPileCUDA 1 (cu/pile_kernel.cu, with the ../src headers it reaches), CUDA-Game-of-Life
  1, GameOfLife-CUDA-OpenCL 5 (src/gol/), two_dimensional_XY_model 0 (1 of 5 resolves: curand_kernel.h), CudaPercolation 0
  (curand_kernel.h), lgca 1 (src/cu_lattice.cu), cuda_practice 0 (ising/ising_model.cu reaches curand.h and png++), spinglass_gpu
  0 (curand), colors 3 (of its first 6, 3 resolve; hodge / lifelike reach SDL2 and OpenCV headers), Ising_Model_Cuda 3,
  CUDA-Ising-Model 4. Check (`nvcc -c`, first three files, 04:57 UTC): ising-cuda 0/3 (each .cu initialises an int* from
  malloc's void*: C code under a .cu name, which C++ rejects; not a CUDA 13 removal) -> DROPPED; colors 1/3 (buffer.h.cu and
  imgproc.h.cu are template bodies that buffer.cuh / imgproc.cuh include, not units: 'Buffer is not a template') -> DROPPED;
  SandPileCUDA 1/1, CUDA-Game-of-Life 1/1, GameOfLife-CUDA-OpenCL 2/3 (cuda_highlife_ifs_kernel.cu uses an undeclared
  aliveCells: the source's bug; it stays and counts only where the original compiles), lgca 1/1, Ising_Model_Cuda 3/3,
  CUDA-Ising-Model 3/3. Six qualify, so no EXTENSION; the candidates run out at 15 files in six projects (the stops, 40
  files or 8 projects, are not reached). Caveats, said and not acted on: 15 files (fewer than the stop); lgca's one unit is
  wholly commented out (it counts as a file that compiles and ports to nothing); Ising_Model_Cuda and CUDA-Ising-Model are
  two students' answers to one course assignment (a moment-per-thread / per-block / shared-memory Ising-like evolution), 7
  of the 15 files; the domain's percolation, XY and cluster-update candidates all fell to cuRAND, which this machine lacks.
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
    # README: nvcc -std=c++11 -lcurand main.cu test.cu lattice.cu Metropolis.cu (-> c++17); no license file
    ("ising-gpu-megumi", "megumi-ovo/Ising-GPU", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # no build file (course sources); LICENSE MIT
    ("ising-cuda-cedarctic", "CedArctic/ising-cuda", "MIT (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    # make.bat: nvcc -c -Xptxas -O3 cu/pile_kernel.cu (MSVC /MT flags left out)
    ("sandpilecuda", "YunTing-k/SandPileCUDA", "GPL-3.0 (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17", "-Xptxas", "-O3"], "cu/"),
    # Makefile: SRCDIR src, -m64 -g -dc --std=c++11 (-> c++17) --expt-relaxed-constexpr; the sm_30..61 gencodes left out
    # (-g a debug option, left out; -dc kept as -rdc=true)
    ("cuda-game-of-life", "Thought-Weaver/CUDA-Game-of-Life", "(none in the repository)", [], [], [],
     ["-std=c++17", "-m64", "-rdc=true", "--expt-relaxed-constexpr"], "src/"),
    # kernels loaded by pycuda (src/gol/*.py); no nvcc flags named
    ("gameoflife-cuda-opencl", "sleivav/GameOfLife-CUDA-OpenCL", "GPL-3.0 (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], "src/"),
    # README: nvcc -std=c++11 (-> c++17) with src/*.cu; no license file
    ("xy-model", "Bai-Chiang/two_dimensional_XY_model", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # CMakeLists.txt: CUDA_STANDARD 14 (-> 17), -O3, CUDA_ARCHITECTURES 60 (below CUDA 13's minimum, left out)
    ("cudapercolation", "lucamuscarnera/CudaPercolation", "GPL-3.0 (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17", "-O3"], ""),
    # CMakeLists.txt: include dirs src, lib (and TBB's), CUDA_STANDARD 11 (-> 17)
    ("lgca", "keva92/lgca", "GPL-3.0 (see COPYING)", ["COPYING"], ["src", "lib"], [], ["-std=c++17"], "src/"),
    # ising/Makefile (default target): nvcc -std=c++11 (-> 17) -O3 -DOUTPUT_PNG
    ("cuda-practice-ising", "ToruNiina/cuda_practice", "(none in the repository)", [], [], ["OUTPUT_PNG"], ["-std=c++17", "-O3"],
     "ising/"),
    # no build file
    ("spinglass-gpu", "sampaat/spinglass_gpu", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # CMakeLists.txt: cxx_std_17, CUDA_SEPARABLE_COMPILATION ON (-rdc=true), SDL2 / OpenCV / tclap include dirs (absent)
    ("colors", "joseph-greef/colors", "(none in the repository)", [], ["src"], [], ["-std=c++17", "-rdc=true"], "src/"),
    # Makefile: nvcc -o Vn Vn.cu, no flags
    ("ising-model-emkot", "Emkot87/Ising_Model_Cuda", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # CUDA-ising-model/Makefile: -I./inc, --compiler-options -Wall, sources in src/
    ("ising-model-sportokalidis", "sportokalidis/CUDA-Ising-Model", "(none in the repository)", [], ["CUDA-ising-model/inc"], [],
     ["-std=c++17", "-Xcompiler", "-Wall"], "CUDA-ising-model/src/"),
]
DROPPED = frozenset({"CedArctic/ising-cuda", "joseph-greef/colors"})


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("sixty-ninth", "heldout69", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
