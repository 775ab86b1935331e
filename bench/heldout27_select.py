#!/usr/bin/env python3
"""How the twenty-seventh held-out set (bench/heldout27.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout27_select.py      # -> bench/heldout27.toml

RULE, written and committed (h/heldout27, 02:09 UTC, commit 5da9315) before any candidate was fetched or measured
(only the stored index's repository names and .cu paths were looked up, to name candidates that
exist and hold CUDA sources), for PDE and numerical solvers (CFD by finite volume / difference,
SPH outside DualSPHysics and GPUSPH, lattice Boltzmann outside cudaLBM and TCLB, stencil codes,
sparse iterative solvers and SpMV formats in plain CUDA, multigrid, seismic / weather codes,
heat and wave equations, N-body outside mini-nbody and Bonsai):

  Candidates, in this order, named by domain only (none in /work/notes/t41/used.md nor named by an
  earlier heldout*_select.py, none chosen by how kernelport does on them):
    1. pkestene/ramsesGPU            finite-volume Godunov hydrodynamics / MHD (CFD)
    2. kamilszewc/cusph              SPH (2D and 3D weakly compressible, multiphase)
    3. KhodrJ/AGAL                   lattice Boltzmann on adaptive (block-structured) grids
    4. HPGeoC/awp-odc-os             seismic wave propagation (staggered-grid finite difference)
    5. ecmwf-ifs/dwarf-p-cloudsc     weather: cloud-microphysics column physics (its CUDA C variants)
    6. viennacl/viennacl-dev         sparse iterative solvers (CG, BiCGStab, GMRES, AMG), SpMV formats
    7. dumerrill/merge-spmv          merge-based CSR SpMV
    8. hpgmg/hpgmg                   geometric multigrid (miniGMG's CUDA version)
    9. cschpc/heat-equation          heat equation (finite-difference stencil, CUDA version)
   10. treecode/sapporo2             direct N-body (Hermite 4th/6th order force kernels)
   11. metno/gpu-ocean               shallow-water ocean model (finite volume)
   12. barbagroup/cuIBM              immersed-boundary incompressible CFD
   13. munstermonster/cuSten         finite-difference stencil library
   14. stu314159/LDC-3D-CUDA-OMP     lattice Boltzmann lid-driven cavity
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING (heldout21's rule, reused through heldout24_select.select as heldout25 does): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all of them if fewer
  than 10) under its source folder have every `#include` they reach resolve in the repository, the
  CUDA toolkit or the host compiler's search path (heldout2_select.resolves, read textually with
  heldout21's linux_text), with the include dirs of the project's build. This machine's CUDA 13 has
  no cuFFT, cuBLAS, cuRAND or cuSPARSE headers (cufft.h, cublas_v2.h, curand_kernel.h, cusparse.h
  absent): a file that includes one (directly or through a local header) does not resolve, so it
  does not count toward qualifying and is not taken; the rule takes no stand-in headers. Files of
  a qualifying candidate: its `.cu` files only (local headers are copied with them by
  realcorpus_build.py), under its source folder (read from its build files before any measure; the
  whole repository when the build names no single folder), less vendored third-party folders (a
  path component named third_party, 3rdparty, external or extern), within the size cap, less those
  whose includes do not resolve and byte-for-byte copies (heldout2_select.pick). A project with
  more than CAP = 12 such files gives 12 evenly spaced in path order (files[i*n//12]). Include
  dirs, defines and nvcc flags are those of the project's own build files (read after the fetch and
  before any measure; `-std=c++17` where the build asks for an older standard: CUDA 13's headers
  need 17). Self-contained check, by the rule and not by kernelport (heldout22's): the first three
  files taken (path order; all if fewer) are compiled with `nvcc -c` and the project's flags; a
  project of which fewer than two (one if it gives one file) compile, for a reason other than
  CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not qualify
  or gives 0 files (said below). Candidates are taken in order until the set holds at least
  STOP_FILES = 45 files or STOP_PROJECTS = 7 projects.
Outcome of the rule (before any measure of kernelport, 02:13 UTC): ramsesGPU 0/1 (its only .cu under
  src/ is a Qt widget; its CUDA hydro kernels are .cpp compiled as CUDA, and the rule takes .cu only),
  AGAL 0/10 (VTK and Eigen, absent), viennacl 0/10 (read textually its headers reach OpenCL's CL/cl.h
  and other backends' headers the rule does not evaluate), merge-spmv 0/1 (cusparse.h), hpgmg holds
  no .cu at its head (miniGMG.cuda/ is gone), cuIBM 0/10 (cusp and boost, absent). Qualify: cusph
  (10/10, 12 of 128), awp-odc-os (1), cloudsc (5 of its 10: its four cloudsc_c*.cu kernels,
  106-117 KB, are over the size cap, and load_state.cu reaches hdf5.h and Serialbox), heat-equation (1), sapporo2 (1), gpu-ocean
  (10/10, 12 of 25), cuSten (10/10, 12 of 27), LDC-3D (4). Build flags re-read after the first
  nvcc check, before any measure: gpu-ocean's pycuda caller passes block_width/block_height
  defines (16 x 16 by default), now given. Self-contained check (`nvcc -c`, 02:11 UTC): cusph 3/3,
  awp-odc-os 1/1, cloudsc 3/3, heat-equation 1/1, LDC-3D 3/3; sapporo2 0/1 (kernels.cu redefines
  atomicAdd(double*, double), which every arch CUDA 13 targets (sm_75+) declares, and calls the
  __device__ __float_as_int from a __host__ __device__ function: not CUDA 13 removals), so it
  drops out (DROPPED) and the rule goes on to LDC-3D, the seventh project; gpu-ocean 0/3 (texture
  references, `texture<...>`, removed in CUDA 12) and cuSten 0/3 (cudaMemPrefetchAsync's
  int-device form, removed in CUDA 13) fail only for removed APIs, so they stay, and their files
  whose originals fail nvcc do not count toward the done-when. The set: 47 files in seven
  projects, cusph 12, awp-odc-os 1, cloudsc 5, heat-equation 1, gpu-ocean 12, cuSten 12, LDC-3D 4;
  32 of them compile with nvcc here (gpu-ocean 3 of 12, cuSten 6 of 12: its struct/ files).
  Caveats, said and not acted on: cusph's 2D and 3D trees are near copies of each other, and
  cloudsc's three drivers are variants of one column-physics driver.
After the first measure, metadata only: awp-odc-os's LICENSE has two clauses, so BSD-2-Clause (was
  written BSD-3-Clause); the sources taken are unchanged (the tree rebuilt byte-identical but SOURCE.md).
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout27_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 45, 7

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build (CMakeLists.txt, Makefile,
# ecbuild, pycuda's compile call), read after the fetch and before any measure; the build's -arch
# (sm_20 .. sm_61, below CUDA 13's minimum) is left out.
CANDIDATES = [
    # CMakeLists.txt: src/ (hydro/, utils/ compiled as CUDA), CMAKE_CUDA_STANDARD 11, USE_CUDA
    ("ramsesgpu", "pkestene/ramsesGPU", "CeCILL-2.0", ["Licence_CeCILL_V2-en.txt"],
     ["src", "src/hydro", "src/utils"], ["USE_CUDA"], ["-std=c++17"], "src/"),
    # cuSPH2d/Makefile, cuSPH3d/Makefile: nvcc -O2 -lineinfo -D_FORCE_INLINES -dc, -I./common/inc
    ("cusph", "kamilszewc/cusph", "BSD-3-Clause", ["LICENSE"], ["cuSPH2d/common/inc", "cuSPH3d/common/inc"],
     ["_FORCE_INLINES"], ["-std=c++17", "-O2", "-rdc=true"], ""),
    # src/Makefile: INC -I../inc/ -I$(VTK_INC) -I./geometry -I./mesh -I./solver_lbm, OPTS -DN_CASE=0
    # -DP_SHOW_REFINE=1 -DP_SHOW_ADVANCE=1, -Xcompiler -fopenmp
    ("agal", "KhodrJ/AGAL", "MIT", ["LICENSE"], ["inc", "src/geometry", "src/mesh", "src/solver_lbm"],
     ["N_CASE=0", "P_SHOW_REFINE=1", "P_SHOW_ADVANCE=1"], ["-std=c++17", "-Xcompiler", "-fopenmp"], "src/"),
    # src/Makefile.ls6: nvcc -use_fast_math -c kernel.cu
    ("awp-odc-os", "HPGeoC/awp-odc-os", "BSD-2-Clause", ["LICENSE"], ["src"], [],
     ["-std=c++17", "-use_fast_math"], "src/"),
    # src/cloudsc_cuda/CMakeLists.txt: cloudsc/ include dir; --ptxas-options=-O3 -O3 -use_fast_math
    # -maxrregcount=128; CUDA_SEPARABLE_COMPILATION ON; HAVE_HDF5 (the feature needs HDF5 or Serialbox)
    ("cloudsc", "ecmwf-ifs/dwarf-p-cloudsc", "Apache-2.0", ["LICENSE"], ["src/cloudsc_cuda/cloudsc"],
     ["HAVE_HDF5"], ["-std=c++17", "-O3", "-use_fast_math", "-maxrregcount=128", "-rdc=true"],
     "src/cloudsc_cuda/"),
    # CMakeLists.txt include_directories(the root); cmake/ViennaCLCommon.cmake -DVIENNACL_WITH_CUDA;
    # .cu under examples/, tests/ and libviennacl/ (no single folder)
    ("viennacl", "viennacl/viennacl-dev", "MIT", ["LICENSE"], ["."], ["VIENNACL_WITH_CUDA"], ["-std=c++17"], ""),
    # Makefile: gpu_spmv.cu with -I$(CUB_DIR) -I$(CUB_DIR)test (CUB_DIR the root), -lcusparse -O3
    ("merge-spmv", "dumerrill/merge-spmv", "BSD-3-Clause", ["LICENSE.TXT"], [".", "test"], [],
     ["-std=c++17", "-O3"], ""),
    # (the newest snapshot holds no .cu: miniGMG.cuda/ is gone)
    ("hpgmg", "hpgmg/hpgmg", "BSD-2-Clause", ["LICENSE"], ["finite-volume/source"], [], ["-std=c++17"], ""),
    # 3d/cuda/Makefile: COMMONDIR=../../common, GPU_MEMORY=-DPINNED_MEMORY, -O3
    ("heat-equation", "cschpc/heat-equation", "MIT", ["LICENSES/MIT.txt"], ["common"], ["PINNED_MEMORY"],
     ["-std=c++17", "-O3"], "3d/cuda/"),
    # lib/Makefile: nvcc -ptx lib/CUDAKernels/kernels.cu with -I./include -I./
    ("sapporo2", "treecode/sapporo2", "GPL-3.0", ["gpl-3.0.txt"], ["lib/include", "lib"], [],
     ["-std=c++17", "-O3"], "lib/"),
    # SWESimulators/Common.py: pycuda compiles each gpu_kernels/*.cu (no_extern_c) with its folder
    # and passes defines: block_width, block_height (16 x 16, its default block size, for all kernels;
    # CDKLM16 and KP07 get per-run NX, DX, THETA ... too, which no build file fixes: not given)
    ("gpu-ocean", "metno/gpu-ocean", "GPL-3.0", ["LICENSE.md"], ["gpu_ocean/SWESimulators/gpu_kernels"],
     ["block_width=16", "block_height=16"],
     ["-std=c++17"], "gpu_ocean/SWESimulators/gpu_kernels/"),
    # Makefile: src/**/*.cu with -I src -I $(CUSP_DIR) -I $(BOOST_DIR) -I external/yaml-cpp-0.5.1/include
    ("cuibm", "barbagroup/cuIBM", "MIT", ["LICENSE"], ["src", "external/yaml-cpp-0.5.1/include"], [],
     ["-std=c++17", "-O3"], "src/"),
    # cuSten/Makefile: --device-c -O3 -std=c++11
    ("custen", "munstermonster/cuSten", "Apache-2.0", ["LICENSE"], ["cuSten/src"], [],
     ["-std=c++17", "-O3", "-rdc=true"], "cuSten/src/"),
    # Makefile: -O3 -Xcompiler -fopenmp
    ("ldc-3d", "stu314159/LDC-3D-CUDA-OMP", "(none in the repository)", [], [], [],
     ["-std=c++17", "-O3", "-Xcompiler", "-fopenmp"], ""),
]
# failed the self-contained check (nvcc, 0 of its first 1; the docstring says why)
DROPPED = frozenset({"treecode/sapporo2"})


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("twenty-seventh", "heldout27", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
