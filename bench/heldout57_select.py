#!/usr/bin/env python3
"""How the fifty-seventh held-out set (bench/heldout57.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout57_select.py      # -> bench/heldout57.toml

RULE, written and committed (h/heldout57, 17:46 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for computational geometry and meshing: Delaunay
triangulation and tetrahedralisation (incremental insertion, flipping, star splaying, constrained
Delaunay refinement with robust orientation / in-circle predicates), Voronoi diagrams by jump
flooding, planar convex hulls (quickhull), polygon clipping (Greiner-Hormann), and BVH construction
for geometric queries (linear BVH over Morton codes). NARROWED where it overlaps: heldout15 took
ashwin/gDel3D (its forks, e.g. beltegeuse/gDel3D, are not candidates); heldout10 named
ingowald/cudaKDTree; heldout21/36 took point clouds, point-cloud operators (kNN, farthest point
sampling, chamfer), voxelisation and mesh rasterisers, and marching cubes / TSDF mesh extraction
(Juanxpeke/Marching-Cubes-CUDA, lurtz/GPU-Marching-Cubes and the KinectFusion family are in
bench/used_repos.txt), signed distance fields from meshes (shu-yamashita/sdfGenerator,
SarahWeiii/cumesh2sdf), flann's kd-tree and cupoch: so marching cubes, SDF volumes, point-cloud
normals / k-NN graphs and ICP are not taken here; heldout40 took collision detection inside physics
engines (a BVH counts here only as a geometric-query structure, not a cloth / rigid-body collision
phase; moonsh5009/CUDA_Remeshing is used); heldout49 took point-in-polygon and GIS spatial joins
(Christian8491/GIS's lat/lon convex hull named there); heldout31 robot collision checking. Nothing of
this stop's heldout55 (combinatorial search / games / SAT) or heldout56 (audio / speech / music).
None below is in bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. ashwin/gStar4D                       3-D Delaunay by star splaying over a digital Voronoi diagram
    2. drozd324/GPU_Delaunay_Triangulation  2-D Delaunay: parallel point insertion and edge flipping
    3. DanielMSussman/gpuDelaunayTriangulation  2-D Delaunay: localized (Chen-Gotsman) triangulation
    4. chenzhenghai/gDP2d                   2-D constrained Delaunay refinement with robust predicates
    5. AryaGosuDev/DelauneyTesselationCUDA  Voronoi by jump flooding, convex hull, Delaunay tessellation
    6. cima22/CUDA_PlanarConvexHull         planar convex hull: quickhull (plain, unified, pinned, zero-copy)
    7. brav3t/QuickHullCuda                 planar convex hull: quickhull
    8. buddhi1/GH-CUDA                      polygon clipping: parallel Greiner-Hormann
    9. nolmoonen/cuda-lbvh                  linear BVH construction over Morton codes, traversal queries
   10. jerr060599/KittenGpuLBVH             linear BVH construction and overlap / nearest queries
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout49's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (CGAL, GLM, GLFW, OpenGL loaders, OpenCV, Eigen, torch), generated headers and
  absent submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only under the
  source folder read from the build files after the fetch and before any measure (the whole
  repository when the build names no single folder), less vendored folders (third_party, 3rdparty,
  external, extern), over the size cap, not resolving, or byte-for-byte copies; more than CAP = 12
  gives 12 evenly spaced in path order. Include dirs, defines and flags from the project's own build
  (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left out). Self-contained
  check: the first three files taken (all if fewer) are compiled with `nvcc -c` and the project's
  flags; a project of which fewer than two (one if it gives one) compile, for a reason other than
  CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not qualify or
  gives 0 files. Candidates are taken in order until the set holds at least STOP_FILES = 40 files or
  STOP_PROJECTS = 8 projects (the brief: at least 4 projects and 30 files). If fewer than 4 projects
  qualify, an EXTENSION (discrete geometry on images: exact Euclidean distance transforms,
  connected-component labelling, skeletonisation / medial axis; named by domain only, none in
  bench/used_repos.txt) is written and committed before its candidates are fetched.
Outcome of the rule (before any measure of kernelport, 17:58 UTC): candidates 1-10 all fetched. gStar4D 8,
  GPU_Delaunay_Triangulation (drozd324) 9 (main/gpu/src/; main/.trash/ is not built), gpuDelaunayTriangulation
  (Sussman) 0 (0 of its first 4 resolve), gDP2d 0 (0 of its first 6 resolve), DelauneyTesselationCUDA 4 (its copy of
  gDel2D's GPU/*.cu; kernel.cu and GpuDelaunay.cu do not resolve), CUDA_PlanarConvexHull 5, QuickHullCuda 1, GH-CUDA
  4, cuda-lbvh 2, KittenGpuLBVH 0 (its one unit reaches glm). Check (`nvcc -c`, first three files): gStar4D 3/3,
  drozd324 3/3, DelauneyTesselationCUDA 0/3 (gDel2D's CudaWrapper.h reads cudaDeviceProp::clockRate, removed in
  CUDA 13, and MemoryManager.h's thrust::device_malloc is no longer reached through device_vector.h in CCCL 3: a
  removed API, so it stays and its files count only where the original compiles), CUDA_PlanarConvexHull 3/3,
  QuickHullCuda 1/1, GH-CUDA 0/3 (DROPPED: every unit calls thrust::exclusive_scan(thrust::host, ...) having
  included only thrust/scan.h, and gppolyclip_mDIV512-CMF_CF.cu reads DEBUG_INFO_PRINT, defined nowhere: code that
  relied on a transitive include plus an undefined name, judged a code error rather than a removed API),
  cuda-lbvh 2/2. The stops (40 files, 8 projects) are not reached: the candidates run out at 29 files in six
  projects; six qualify, so no EXTENSION (the rule asks one under four). Caveats, said and not acted on: 29 files
  (the brief asks 30); DelauneyTesselationCUDA's files are its vendored copy of NUS's gDel2D (2015), by the same
  group as gStar4D (and heldout15's gDel3D); gStar4D and drozd324 are 17 of the 29.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout57_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    # CMakeLists.txt: include dirs GDelaunay/Common, GDelaunay/GDelaunay, GDelaunay/Main, GDelaunay/PBA; the
    # sm_35 -gencode left out (below CUDA 13's minimum); no -std: 17
    ("gstar4d", "ashwin/gStar4D", "BSD-3-Clause style (see Readme.md)", ["Readme.md"],
     ["GDelaunay/Common", "GDelaunay/GDelaunay", "GDelaunay/Main", "GDelaunay/PBA"], [], ["-std=c++17"], "GDelaunay/"),
    # main/gpu/Makefile: src/*.cu each `nvcc -c` with -rdc=true -std=c++20 --extended-lambda -O4 (-> -O3)
    # --use_fast_math -Wno-deprecated-gpu-targets; -arch=sm_86 in ARCH; main/.trash/ is not built
    ("gpu-delaunay-drozd", "drozd324/GPU_Delaunay_Triangulation", "(none in the repository)", [], [], [],
     ["-std=c++20", "-rdc=true", "--extended-lambda", "-O3", "--use_fast_math", "-Wno-deprecated-gpu-targets"],
     "main/gpu/"),
    # CMakeLists.txt: include dirs inc, src, src/utilities, src/model; -DENABLE_CUDA, host
    # -DBOOST_MATH_DISABLE_FLOAT128 -std=c++14 (-> 17) -O3; NVCC --expt-relaxed-constexpr (sm_35..52 left out)
    ("gpu-delaunay-sussman", "DanielMSussman/gpuDelaunayTriangulation", "MIT (see LICENSE.md)", ["LICENSE.md"],
     ["inc", "src", "src/utilities", "src/model"], ["ENABLE_CUDA", "BOOST_MATH_DISABLE_FLOAT128"],
     ["-std=c++17", "-O3", "--expt-relaxed-constexpr"], "src/"),
    # GPU_Constrained_Refine_2D.vcxproj: its .cu files, no include dir, define or option beyond the defaults
    ("gdp2d", "chenzhenghai/gDP2d", "(see LICENSE.md)", ["LICENSE.md"], [], [], ["-std=c++17"],
     "GPU_Constrained_Refine_2D/"),
    # no build file for kernel.cu (the whole repository); its copy of gDel2D's CMakeLists.txt: include dir src
    ("delaunay-tess", "AryaGosuDev/DelauneyTesselationCUDA", "(none in the repository; gDel2D's in its README.txt)", [],
     ["gDel2D-Oct2015/gDel2D-Oct2015/src"], [], ["-std=c++17"], ""),
    # Makefile: nvcc -O3 -c each src/quickhull/*.cu (CMakeLists.txt: C++20 for the host; -std=c++17 here)
    ("planar-hull", "cima22/CUDA_PlanarConvexHull", "MIT (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17", "-O3"],
     "src/quickhull/"),
    # quickHullCUDA.vcxproj: quickHullGPU.cu, no include dir, define or option beyond the defaults
    ("quickhull-brav3t", "brav3t/QuickHullCuda", "(none in the repository)", [], [], [], ["-std=c++17"],
     "quickHullCUDA/"),
    # makefile: nvcc -allow-unsupported-compiler -Xptxas -O2 -c src/gppolyclip_*.cu; no -std: 17
    ("gh-cuda", "buddhi1/GH-CUDA", "MIT (see LICENSE.md)", ["LICENSE.md"], [], [], ["-std=c++17", "-Xptxas", "-O2"],
     "src/"),
    # CMakeLists.txt: CUDA 17; src/build.cu, src/trace.cu; sutil_7_sdk's include dir deps/;
    # __NV_NO_VECTOR_DEPRECATION_DIAG
    ("cuda-lbvh", "nolmoonen/cuda-lbvh", "MIT (see LICENSE)", ["LICENSE"], ["deps", "src"],
     ["__NV_NO_VECTOR_DEPRECATION_DIAG"], ["-std=c++17"], "src/"),
    # KittenLBVH.vcxproj: include dir $(ProjectDir); --std c++17 -Wno-deprecated-declarations --extended-lambda;
    # compute_86,sm_86 in ARCH
    ("kitten-lbvh", "jerr060599/KittenGpuLBVH", "MIT (see LICENSE.md)", ["LICENSE.md"], ["."], [],
     ["-std=c++17", "-Wno-deprecated-declarations", "--extended-lambda"], ""),
]
DROPPED = frozenset({"buddhi1/GH-CUDA"})  # 0 of its first 3 compile with nvcc, for code reasons (above)
# builds that compile for sm_86 (at or above CUDA 13's minimum, so kept)
ARCH = {"drozd324/GPU_Delaunay_Triangulation": ["-arch=sm_86"], "jerr060599/KittenGpuLBVH": ["-arch=sm_86"]}


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("fifty-seventh", "heldout57", CANDIDATES, DROPPED, ARCH, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
