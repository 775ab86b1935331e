#!/usr/bin/env python3
"""How the sixty-eighth held-out set (bench/heldout68.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout68_select.py      # -> bench/heldout68.toml

RULE, written and committed (h/heldout68, 05:05 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for quantum computing simulation: state-vector and
density-matrix quantum circuit simulators (gate application kernels, measurement / sampling, noise
channels), quantum trajectory codes, variational-algorithm simulators, quantum many-body exact
diagonalisation (Lanczos on spin / Hubbard Hamiltonians) and quantum error-correction decoders run on
the GPU. NARROWED where it overlaps: heldout19 took quantum circuit simulation through quantumlib/qsim
and QuEST-Kit/QuEST (its RULE named quantum circuit simulation with quantum chemistry and AMG): neither
is a candidate here, nor is qiskit/qiskit-aer (in bench/used_repos.txt); heldout28 / heldout43 took
quantum chemistry integrals (none here); heldout52 took lattice field theory (none here); heldout69's
cellular automata and lattice spin models (Monte Carlo of Ising / Potts spins) are not taken: the exact
diagonalisation candidates below build and diagonalise quantum Hamiltonians, no spin Monte Carlo; the
QEC decoder below is a syndrome decoder, not a cellular-automaton code. None below is in
bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. qulacs/qulacs                          state-vector circuit simulator: gate kernels, measurement
    2. thu-pacman/HyQuas                      hybrid state-vector simulator (gate fusion, multi-GPU)
    3. unitaryfund/qrack                      quantum simulator framework: its CUDA state-vector engine
    4. rylanmalarchick/cuda-quantum-simulator state vector, density matrix, noise channels, trajectories
    5. pnnl/NWQ-Sim                           state-vector / density-matrix simulators, VQE
    6. tRowans/flip-gpu                       quantum error correction: flip decoders of 3D codes
    7. jeohjee/QMBCuda                        exact diagonalisation of Heisenberg models (Lanczos)
    8. wpoely86/Hubbard-GPU                   exact diagonalisation of the Hubbard model (Lanczos)
    9. BrunoAwdd/qvm                          quantum virtual machine: per-gate CUDA kernels
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (cuStateVec / cuQuantum, MPI, NCCL, Armadillo, pybind11, Python), generated
  headers and absent submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only
  under the source folder read from the build files after the fetch and before any measure (the whole
  repository when the build names no single folder), less vendored folders (third_party, 3rdparty,
  external, extern), over the size cap, not resolving, or byte-for-byte copies; more than CAP = 12
  gives 12 evenly spaced in path order. Include dirs, defines and flags from the project's own build
  (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left out). Self-contained
  check: the first three files taken (all if fewer) are compiled with `nvcc -c` and the project's
  flags; a project of which fewer than two (one if it gives one) compile, for a reason other than
  CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not qualify or
  gives 0 files. Candidates are taken in order until the set holds at least STOP_FILES = 40 files or
  STOP_PROJECTS = 8 projects. If fewer than 4 projects qualify, the EXTENSION domain applies: sparse
  tensor algebra kernels (sparse tensor contraction, MTTKRP, tensor-times-vector; heldout54's dense
  decompositions not taken), its candidates named by domain only, none in bench/used_repos.txt,
  written and committed before they are fetched.
Outcome of the rule: (recorded after the fetch, before any measure).
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout68_before.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("qulacs", "qulacs/qulacs", "", [], [], [], ["-std=c++17"], ""),
    ("hyquas", "thu-pacman/HyQuas", "", [], [], [], ["-std=c++17"], ""),
    ("qrack", "unitaryfund/qrack", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-quantum-simulator", "rylanmalarchick/cuda-quantum-simulator", "", [], [], [], ["-std=c++17"], ""),
    ("nwq-sim", "pnnl/NWQ-Sim", "", [], [], [], ["-std=c++17"], ""),
    ("flip-gpu", "tRowans/flip-gpu", "", [], [], [], ["-std=c++17"], ""),
    ("qmbcuda", "jeohjee/QMBCuda", "", [], [], [], ["-std=c++17"], ""),
    ("hubbard-gpu", "wpoely86/Hubbard-GPU", "", [], [], [], ["-std=c++17"], ""),
    ("qvm", "BrunoAwdd/qvm", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("sixty-eighth", "heldout68", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
