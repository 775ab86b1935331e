#!/usr/bin/env python3
"""How the sixty-eighth held-out set (bench/heldout68.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout68_select.py      # -> bench/heldout68.toml

RULE, written and committed (h/heldout68, 04:55 UTC, commit 4600960e) before any candidate was fetched or measured
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
EXTENSION, written and committed (04:57 UTC, commit a417605e) after the rule was applied to candidates 1-9 and before
  any measure or nvcc check: only two qualify (NWQ-Sim 1 file, vqe/src/backend/statevector_gpu.cu;
  qvm 12 of 23), fewer than 4, so the EXTENSION domain applies. Candidates 1-9 that give 0 files:
  qulacs 0 of 5 (every unit reaches cublas_v2.h or curand_kernel.h, absent here), HyQuas 0 of 6 (its
  cutt submodule header and NCCL / MPI), qrack 0 of 1 (the build's generated config.h), cuda-quantum-
  simulator 2 of 6 (less than half), flip-gpu 0 of 3 (curand_kernel.h), QMBCuda 1 of 10 (Armadillo),
  Hubbard-GPU 0 of 1. Sparse tensor algebra candidates, named by domain only, none in
  bench/used_repos.txt (isratnisa/B-CSF and MM-CSF are, so they are not candidates), taken by the same
  rule and check, in this order, after the two that qualify:
   10. hpcgarage/ParTI                        sparse tensor library: MTTKRP, TTM, CPD (COO / HiCOO)
   11. seohyeon0322/GSPARC                    GPU sparse tensor contraction (SpTC) and its baselines
   12. pnnl/HiParTI                           hierarchical sparse tensor library (HiCOO MTTKRP, TTM);
                                              the same authors' successor of ParTI: byte-for-byte
                                              copies of a ParTI file taken earlier are not taken
SECOND EXTENSION, written and committed (04:57 UTC, commit 5d1a5679) after the rule and EXTENSION were applied and
  before any measure or nvcc check: candidates 1-12 give 14 files in three projects (NWQ-Sim 1, qvm
  12, GSPARC 1: its build's one CUDA unit, main.cu); ParTI and HiParTI 0 of 10 (ParTI.h / HiParTI.h
  reach <mpi.h>, read textually as the rule reads every include). So three more candidates of the
  first domain, named by domain only, none in bench/used_repos.txt, are taken by the same rule and
  check in this order:
   13. pnnl/SV-Sim                            state-vector simulator (single / OpenMP / MPI GPU back ends)
   14. pnnl/DM-Sim                            density-matrix simulator (noise channels)
   15. OriginQ/QPanda-2                       quantum programming framework: its GPU gate kernels
  Caveat, said and not acted on: SV-Sim and DM-Sim are NWQ-Sim's predecessors (the same group).
Outcome of the rule (before any measure of kernelport, 05:02 UTC): all 15 candidates fetched. SV-Sim 6 (5 of
  its first 10 resolve), DM-Sim 0 (1 of its first 7: its src/ wrappers reach pybind11 and mpi.h), QPanda-2 1
  (GPUGates.cu; GPUGatesWrapper.cu reaches the build's generated config header). The candidates run out at 21
  files in five projects: NWQ-Sim 1, qvm 12 (of 23), GSPARC 1, SV-Sim 6, QPanda-2 1 (the stops, 40 files or 8
  projects, are not reached). Check (`nvcc -c`, first three files, 05:01 UTC): NWQ-Sim 1/1 (with its vqe
  target's --expt-relaxed-constexpr), qvm 3/3, GSPARC 0/1 (its contraction.cuh calls cub::Sum, which CUDA 13's
  CCCL 3 removed: a removed API, so it stays and counts only where the original compiles: nowhere), SV-Sim 1/3
  (svsim_nvgpu_omp.cuh uses cudaLaunchParams / cudaLaunchCooperativeKernelMultiDevice, removed in CUDA 13: a
  removed API, so it stays), QPanda-2 1/1. No project DROPPED. Caveats, said and not acted on: 21 files, 12 of
  them qvm's one-kernel gate files; SV-Sim's files are four variants of two programs over two headers.
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
    # src/gpusim/CMakeLists.txt: GLOB *.cu (the CUDA branch), include dir src/ (root CMakeLists.txt), _USE_GPU,
    # CMAKE_CXX_STANDARD 14 (-> 17); Eigen / Boost / pybind11 only for cppsim and the Python module
    ("qulacs", "qulacs/qulacs", "MIT (see LICENSE)", ["LICENSE"], ["src"], ["_USE_GPU"], ["-std=c++17"], "src/gpusim/"),
    # CMakeLists.txt (BACKEND group, the defaults of its options): include dirs src, third-party/cutt/cutt/include,
    # third-party/dbg-macro; -Xcompiler -fopenmp -std=c++14 (-> 17) -O2; -arch=compute_70 left out; src/ compiled
    ("hyquas", "thu-pacman/HyQuas", "Apache-2.0 (see LICENSE)", ["LICENSE"],
     ["src", "third-party/cutt/cutt/include", "third-party/dbg-macro"],
     ["BACKEND=1", "SHOW_SCHEDULE", "SHOW_SUMMARY", "NDEBUG", "ENABLE_OVERLAP", "USE_DOUBLE", "OVERLAP_MAT",
      "USE_MPI=0", "COALESCE_GLOBAL_DEFINED=3", "BLAS_MAT_LIMIT_DEFINED=6", "MIN_MAT_SIZE_DEFINED=4",
      "THREAD_DEP_DEFINED=7"], ["-std=c++17", "-Xcompiler", "-fopenmp", "-O2"], "src/"),
    # CMakeLists.txt / cmake/CUDA.cmake: include dirs include, include/common (and the build's generated
    # include/common/config.h), ENABLE_CUDA=1, -O3 -use_fast_math -std=c++17
    ("qrack", "unitaryfund/qrack", "LGPL-3.0 (see LICENSE.md)", ["LICENSE.md"], ["include", "include/common"],
     ["ENABLE_CUDA=1"], ["-std=c++17", "-O3", "-use_fast_math"], "src/"),
    # CMakeLists.txt: quantum_sim_lib from src/*.cu, include dir include/, --expt-relaxed-constexpr, C++17
    ("cuda-quantum-simulator", "rylanmalarchick/cuda-quantum-simulator", "MIT (see LICENSE)", ["LICENSE"],
     ["include"], [], ["-std=c++17", "--expt-relaxed-constexpr", "-O3"], "src/"),
    # CMakeLists.txt: include dir include/, CUDA 17; vqe/CMakeLists.txt: vqe/include, VQE_ENABLE_CUDA,
    # --expt-relaxed-constexpr (target_compile_options of vqe); the build
    # compiles qasm/ and vqe/ (no single folder)
    ("nwq-sim", "pnnl/NWQ-Sim", "MIT (see LICENSE)", ["LICENSE"], ["include", "vqe/include"], ["VQE_ENABLE_CUDA"],
     ["-std=c++17", "-O3", "--expt-relaxed-constexpr"], ""),
    # CMakeLists.txt / src/CMakeLists.txt: src/*.cu, C++17
    ("flip-gpu", "tRowans/flip-gpu", "(none in the repository)", [], [], [], ["-std=c++17"], "src/"),
    # QMBCuda/QMBCuda.vcxproj: Armadillo and MKL include dirs on the author's machine (absent here)
    ("qmbcuda", "jeohjee/QMBCuda", "(none in the repository)", [], [], [], ["-std=c++17"], "QMBCuda/"),
    # Makefile: nvcc -c -g -O2 (-arch=sm_13 left out), C++11 (-> 17)
    ("hubbard-gpu", "wpoely86/Hubbard-GPU", "GPL-3.0 (see COPYING)", ["COPYING"], [], [], ["-std=c++17", "-O2"], ""),
    # qvm/build.rs: nvcc -ptx each **/*.cu, no other flags
    ("qvm", "BrunoAwdd/qvm", "Apache-2.0 (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], "qvm/"),
    # EXTENSION (sparse tensor algebra): include dirs, defines and flags read after the fetch
    # CMakeLists.txt (USE_CUDA, USE_OPENMP): include dir include/, GLOB_RECURSE src/*.cu, its type-width defines
    ("parti", "hpcgarage/ParTI", "BSD-3-Clause (see LICENSE)", ["LICENSE"], ["include"],
     ["PARTI_INDEX_TYPEWIDTH=32", "PARTI_VALUE_TYPEWIDTH=32", "PARTI_ELEMENT_INDEX_TYPEWIDTH=8", "PARTI_USE_CUDA",
      "PARTI_USE_OPENMP"], ["-std=c++17", "-O3", "-Xcompiler", "-fopenmp"], "src/"),
    # CMakeLists.txt: the gsparc executable's one CUDA unit is main.cu (baselines/ are other projects' builds),
    # include dir include/, -O3 -arch=sm_75 -Xcompiler=-fopenmp -rdc=true, C++17
    ("gsparc", "seohyeon0322/GSPARC", "(none in the repository)", [], ["include"], [],
     ["-std=c++17", "-O3", "-arch=sm_75", "-Xcompiler=-fopenmp", "-rdc=true"], "main.cu"),
    # CMakeLists.txt (USE_CUDA, USE_OPENMP): include dir include/, GLOB_RECURSE src/*.cu, its type-width defines
    ("hiparti", "pnnl/HiParTI", "BSD-3-Clause (see LICENSE)", ["LICENSE"], ["include"],
     ["HIPARTI_INDEX_TYPEWIDTH=32", "HIPARTI_VALUE_TYPEWIDTH=32", "HIPARTI_ELEMENT_INDEX_TYPEWIDTH=8",
      "HIPARTI_USE_CUDA", "HIPARTI_USE_OPENMP"], ["-std=c++17", "-O3", "-Xcompiler", "-fopenmp"], "src/"),
    # SECOND EXTENSION: include dirs, defines and flags read after the fetch
    # svsim/src/config.mk: NVCC_FLAGS -O3 -m64 -std=c++11 (-> 17) -rdc=true (-arch=sm_70 left out); each
    # folder's Makefile compiles its .cu with ../src headers by relative include (no -I); no single folder
    ("sv-sim", "pnnl/SV-Sim", "MIT (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17", "-O3", "-m64", "-rdc=true"], ""),
    # src/config.mk: the same NVCC_FLAGS as SV-Sim's; no single folder
    ("dm-sim", "pnnl/DM-Sim", "BSD-2-Clause (FreeBSD, see LICENSE)", ["LICENSE"], [], [],
     ["-std=c++17", "-O3", "-m64", "-rdc=true"], ""),
    # Core/VirtualQuantumProcessor/GPUGates/CMakeLists.txt: GLOB *.cu there, include dir include/ (and the root
    # CMakeLists.txt's), -use_fast_math --expt-extended-lambda -std=c++17, separable compilation
    ("qpanda", "OriginQ/QPanda-2", "Apache-2.0 (see LICENSE)", ["LICENSE"], ["Extensions", "Components/Utils", "Components/Operator", "Components/Optimizer",
      "Components/HamiltonianSimulation", "Components/MaxCutProblemGenerator", "include", "include/Applications",
      "include/Core", "include/Core/VirtualQuantumProcessor", "include/Core/VirtualQuantumProcessor/NoiseQPU",
      "include/Core/VirtualQuantumProcessor/GPUGates", "include/Core/VirtualQuantumProcessor/PartialAmplitude",
      "include/Core/VirtualQuantumProcessor/SingleAmplitude", "include/Core/QuantumMachine",
      "include/Core/QuantumCircuit", "include/Core/Utilities", "include/Core/Utilities/Transform",
      "include/Core/Utilities/Transform/OriginIRCompiler"], [],
     ["-std=c++17", "-use_fast_math", "--expt-extended-lambda", "-rdc=true"], "Core/VirtualQuantumProcessor/GPUGates/"),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("sixty-eighth", "heldout68", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
