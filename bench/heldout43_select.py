#!/usr/bin/env python3
"""How the forty-third held-out set (bench/heldout43.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout43_select.py      # -> bench/heldout43.toml

RULE, written and committed (h/heldout43, 06:12 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for computational materials science and reacting-flow
chemistry: phase-field models (dendritic and directional solidification, spinodal decomposition
(Cahn-Hilliard), precipitation, grain growth), discrete dislocation dynamics, kinetic Monte Carlo of
materials, and finite-rate chemical kinetics for combustion (reaction rates, stiff ODE integration of
species source terms). No earlier heldout*_select.py names phase field, dislocations, kinetic Monte
Carlo or combustion chemistry; not micromagnetics (heldout5's mumax), not molecular dynamics
(heldout23), not quantum chemistry (heldout19/28), not lattice Boltzmann or CFD solvers (heldout20/27),
not Ising / spin Monte Carlo (heldout33). None below is in bench/used_repos.txt or named by an
earlier heldout*_select.py; heldout44 (systems / data / media) names none of them.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. circs/GPU-PF                           phase field: directional solidification (Karma group), 2-D / 3-D
    2. myousefi2016/Allen-Cahn-CUDA           phase field: dendritic solidification (Allen-Cahn + heat)
    3. myousefi2016/Cahn-Hilliard-CUDA        phase field: spinodal decomposition (Cahn-Hilliard)
    4. usnistgov/phasefield-precipitate-aging phase field: precipitation in Ni superalloys (NIST)
    5. YigongQin/cuPF                         phase field: alloy solidification and grain growth (melt pool)
    6. TarletonGroup/EasyDD                   discrete dislocation dynamics: segment / surface forces
    7. manasakani/DeviceKMC                   kinetic Monte Carlo of resistive-switching devices
    8. BUAAHPL/OpenHurricane                  combustion CFD: finite-rate chemistry source terms, ODE solvers
    9. SLACKHA/pyJac                          chemical kinetics: analytical Jacobians (its CUDA sources)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout42's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (MPI, VTK, MATLAB's mex.h), generated headers and absent submodules do not
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
  than 4 projects qualify, or the set holds fewer than 30 files after candidate 9, an EXTENSION
  (computational solid mechanics and structural engineering: finite-element assembly and explicit
  dynamics, peridynamics, discrete-element granular mechanics, topology optimisation; not heldout23's
  or heldout40's projects, nor anything bench/used_repos.txt holds) is written and committed before
  its candidates are fetched.
Outcome of the rule (before any measure of kernelport, 06:13 UTC): candidates 1-9 give 18 files in three
  projects: GPU-PF 3 (the multi-GPU folder's units that reach no cuRAND header; its five 2-D / 3-D single-file
  programs include curand_kernel.h, absent here), Cahn-Hilliard-CUDA 3, OpenHurricane 12 (of 17). Phase-field codes
  put cuRAND (noise, nucleation) in nearly every unit: Allen-Cahn-CUDA 0/1 (VTK), phasefield-precipitate-aging 0/3
  (curand_kernel.h, MMSP), cuPF 0/10 (mpi.h, cuRAND), EasyDD 0/2 (MATLAB's mex.h), DeviceKMC 0/3 (cuBLAS, cuSOLVER,
  MKL), pyJac 0/3 (its .cu include generated mechanism headers). Check (`nvcc -c`, the build's flags): GPU-PF 2/3
  (gpu-manager.cu: cudaDeviceProp::clockRate, removed in CUDA 13), Cahn-Hilliard 0/3 (cudaThreadSynchronize, removed
  in CUDA 13: a removed API, so it stays), OpenHurricane 1/3 (cuArrayBase.hpp's cudaMemPrefetchAsync with a device
  int, whose CUDA 13 form takes a cudaMemLocation: a removed API, so it stays).
EXTENSION, written and committed (h/heldout43, 06:14 UTC) after the rule was applied to candidates 1-9, before any
  of the candidates below was fetched and before any measure of kernelport (only repository names, file lists and
  code search looked up): fewer than 4 projects qualify, so, as the RULE says, computational solid mechanics and
  structural engineering (finite-element assembly and solvers, topology optimisation, peridynamics, discrete-element
  granular mechanics; none in bench/used_repos.txt nor named by an earlier heldout*_select.py), named by domain only,
  are taken next by the same rule and check in this order until the set holds at least STOP_FILES files or
  STOP_PROJECTS projects:
   10. wanariffoo/tdo                        topology optimisation: thermodynamic TO with a geometric-multigrid FEM solver
   11. harrisonhanfei/PeriFEM-CUDA-C-Qua2D   peridynamics coupled with FEM: quasi-static fracture (2-D)
   12. UGzhang/HSEP                          discrete element method: spheres against STL walls
   13. projectchrono/DEM-Engine              discrete element method: clumped-sphere granular dynamics (DEME)
   14. bryance-oyang/gpu_finite_element      finite elements: 2-D structural stress, conjugate gradients
Outcome of the EXTENSION (before any measure of kernelport, 06:18 UTC): tdo 4 (Optimized/main.cu and three of
  src/; checked 3/3), HSEP 9 (checked 2/3 with its Makefile's -dc, i.e. -rdc=true; initialize.cu: cudaMemPrefetchAsync
  with a device int, CUDA 13's removed form), PeriFEM 0/2 (its function.cuh includes cublas_v2.h and cusparse.h), DEM-Engine
  0/4 (its units reach core/ApiVersion.h, generated into the build dir, and jitify, a submodule), gpu_finite_element 0 (no .cu).
  Candidates exhausted: the set holds 31 files in five projects (gpu-pf 3, cahn-hilliard 3, openhurricane 12, tdo 4,
  hsep-dem 9), short of STOP_FILES but above the brief's 30 files and 4 projects.
  Caveats, said and not acted on: only two of the five projects (6 files) are phase field; OpenHurricane gives 12 of
  the 31 (combustion chemistry, sparse-matrix and attribute units of one CFD code); the five candidates that give 0
  fail on cuRAND / MPI / MATLAB / generated headers, absent here.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout43_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
_OH_INC = ['src/Hurricane', 'src/Hurricane/common', 'src/Hurricane/common/argParse/include', 'src/Hurricane/common/casePredifine/include', 'src/Hurricane/common/clock/include', 'src/Hurricane/common/constants', 'src/Hurricane/common/controller/include', 'src/Hurricane/common/greeting/include', 'src/Hurricane/common/initializing', 'src/Hurricane/common/iteration/include', 'src/Hurricane/common/logFile/include', 'src/Hurricane/common/objectFactory/include', 'src/Hurricane/common/randoms/include', 'src/Hurricane/common/systemInfo/include', 'src/Hurricane/common/testProcessTime/include', 'src/Hurricane/common/version/include', 'src/Hurricane/dataStructure', 'src/Hurricane/dataStructure/baseDataType/include', 'src/Hurricane/dataStructure/containers/ArrayBase/include', 'src/Hurricane/dataStructure/containers/Arrays/include', 'src/Hurricane/dataStructure/containers/Maps/include', 'src/Hurricane/dataStructure/containers/Matrices/include', 'src/Hurricane/dataStructure/containers/sparseMatrices/include', 'src/Hurricane/dataStructure/memory/include', 'src/Hurricane/fileIO/include', 'src/Hurricane/mathematicalTools/LinearEquations/include', 'src/Hurricane/mathematicalTools/ODEs/include', 'src/Hurricane/mathematicalTools/basicTools/include', 'src/Hurricane/mathematicalTools/sparceMatrixSolvers/include', 'src/Hurricane/mesh/geometryMesh/include', 'src/Hurricane/mesh/markRegion/include', 'src/Hurricane/mesh/runtimeMesh/include', 'src/Hurricane/mesh/wallDistance/include', 'src/Hurricane/meshArrays/fVArrays/include', 'src/Hurricane/meshArrays/geometryArrays/include', 'src/Hurricane/meshArrays/zoneArrays/include', 'src/Hurricane/packs/include', 'src/Hurricane/parallel', 'src/Hurricane/parallel/HurGPUCUDA/include', 'src/Hurricane/parallel/HurMPI/include', 'src/boundaryConditions/boundaryCondition/include', 'src/boundaryConditions/transfers/include', 'src/fieldVar/include', 'src/finiteVolume/spatialDiscretisation/flux/include', 'src/finiteVolume/spatialDiscretisation/gradients/include', 'src/finiteVolume/spatialDiscretisation/reconstrInterp/include', 'src/finiteVolume/timeMarching/include', 'src/flowModel/include', 'src/meshPreProcess/decomposing/include', 'src/meshPreProcess/meshIO/include', 'src/meshPreProcess/reordering/include', 'src/monitor/include', 'src/pseudoTime/include', 'src/referenceValues/include', 'src/shocks/include', 'src/solutionIO/profiles/include', 'src/solutionIO/relays/include', 'src/solutionIO/solutionWrite/include', 'src/solvers/EulerSolver/include', 'src/solvers/chemSolver/include', 'src/solvers/laminarSolver/include', 'src/solvers/patching/include', 'src/solvers/solver/include', 'src/solvers/turbulentSolver/include', 'src/sourceTerms/generalSourceTerms/include', 'src/speciesTransport/basic/include', 'src/speciesTransport/chemistryODESolvers/include', 'src/speciesTransport/chemistryRead/include', 'src/speciesTransport/chemistrySource/include', 'src/speciesTransport/combustionModel/include', 'src/speciesTransport/reactions/cuda/include', 'src/speciesTransport/reactions/reactionRateTypes/include', 'src/speciesTransport/reactions/reactionTypes/include', 'src/speciesTransport/species/include', 'src/speciesTransport/thermo/include', 'src/speciesTransport/transport/include', 'src/turbulence/turbulenceModel/include']
CANDIDATES = [
    # each folder's README: `nvcc -arch=sm_70 *.cu` (sm_70 is below CUDA 13's minimum: left out); no include dirs;
    # the whole repository (five programs in their folders)
    ("gpu-pf", "circs/GPU-PF", "(see each folder's LICENSE.license)", ["3D_directional_multi_GPU/LICENSE.license"], [], [],
     ["-std=c++17"], ""),
    # CMakeLists.txt: FindCUDA, VTK (absent), the root's *.cu
    ("allen-cahn", "myousefi2016/Allen-Cahn-CUDA", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    # build.sh: nvcc -gencode arch=compute_70,code=sm_70 -O3 (sm_70 left out) for each of the three units
    ("cahn-hilliard", "myousefi2016/Cahn-Hilliard-CUDA", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++17", "-O3"], ""),
    # src/Makefile: INCLUDES . ./matplotlib-cpp ../thermo (MMSP, curand_kernel.h's CUDA_HDR_PATH, GSL, Python: absent);
    # -std=c++11 (-> 17) -D_FORCE_INLINES
    ("pf-precipitate", "usnistgov/phasefield-precipitate-aging", "(see LICENSE.md)", ["LICENSE.md"],
     ["src", "src/matplotlib-cpp", "thermo"], ["_FORCE_INLINES"], ["-std=c++17"], "src/"),
    # each folder's Makefile: nvcc with MPI (mpi.h absent) and cuRAND (absent); the whole repository
    ("cupf", "YigongQin/cuPF", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # MATLAB mexcuda of src/*.cu (mex.h absent)
    ("easydd", "TarletonGroup/EasyDD", "(see LICENSE)", [], [], [], ["-std=c++17"], ""),
    # Makefile (its uncommented GPU block): nvcc -O3 -std=c++17 --extended-lambda, -DCUDA (-arch=sm_60 left out);
    # cuBLAS / cuSOLVER / cuSPARSE and MKL headers absent
    ("devicekmc", "manasakani/DeviceKMC", "(see LICENSE)", ["LICENSE"], ["src", "include"], ["CUDA"],
     ["-std=c++17", "-O3", "--extended-lambda"], "src/"),
    # src/CMakeLists.txt + cmake/OpenHurricane.cmake: every src/ folder holding a header is an include dir (and the
    # build dir, for the generated OpenHurricaneConfig.hpp: absent); CUDA_PARALLEL; cxx_std_17; CMAKE_CUDA_FLAGS
    # --extended-lambda -O3 -m64; CUDA_SEPARABLE_COMPILATION (-rdc=true); its default options' defines (HURRICANE_PRECISION
    # DOUBLE, MPI_ENABLE and CGNS_ENABLE ON, index size 32, logger LESS), EIGEN_MPL2_ONLY
    ("openhurricane", "BUAAHPL/OpenHurricane", "GPL-3.0 (see LICENSE.txt)", ["LICENSE.txt"], _OH_INC, ["HURRICANE_DP", "EIGEN_MPL2_ONLY", "MPI_PARALLEL", "USES_CGNS", "CUDA_PARALLEL", "HURRICANE_32_INT", "HUR_LESS_LOGGER"],
     ["-std=c++17", "--extended-lambda", "-O3", "-m64", "-rdc=true"], "src/"),
    # its .cu are templates for generated mechanisms (header.cuh, dydt.cuh ... are generated: absent)
    ("pyjac", "SLACKHA/pyJac", "MIT (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),

    # EXTENSION (build flags read after the fetch, before any measure)
    # Optimized/Makefile (the README's build): main.cu and src/*.cu, nvcc -arch=sm_70 (below CUDA 13's minimum: left
    # out); its units include "../include/..." relatively (no include dirs)
    ("tdo", "wanariffoo/tdo", "(none in the repository)", [], [], [], ["-std=c++17"], "Optimized/"),
    # CudaRuntime1.vcxproj (Release|x64): function.cu, main.cu; NDEBUG (WIN32, WIN64, _CONSOLE left out)
    ("perifem", "harrisonhanfei/PeriFEM-CUDA-C-Qua2D", "(none in the repository)", [], [], ["NDEBUG"], ["-std=c++17"],
     "CudaRuntime1/CudaRuntime1/"),
    # cuda/Makefile: its nine units, nvcc -g -G -O3 -arch=sm_86 -dc (-rdc=true; -g -G, debug, left out)
    ("hsep-dem", "UGzhang/HSEP", "(none in the repository)", [], [], [], ["-std=c++17", "-O3", "-arch=sm_86", "-rdc=true"], "cuda/"),
    # src/algorithms/CMakeLists.txt: its five units (src/kernel/*.cu are JIT-compiled sources, not built); include
    # dirs src and the build dir's src (generated headers: absent); DEME_BEING_CMAKE_COMPILED; CUB; C++17
    ("dem-engine", "projectchrono/DEM-Engine", "BSD-3-Clause (see LICENSE.md)", ["LICENSE.md"], ["src"],
     ["DEME_BEING_CMAKE_COMPILED"], ["-std=c++17"], "src/algorithms/"),
    # src/Makefile: its GPU build compiles .c with cuBLAS / cuSPARSE (no .cu)
    ("gpu-fem", "bryance-oyang/gpu_finite_element", "MPL-2.0 (see LICENSE)", ["LICENSE"], [], ["GPU_COMPUTE"],
     ["-std=c++17"], "src/"),
]
DROPPED: frozenset = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("forty-third", "heldout43", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
