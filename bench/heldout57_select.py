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
    ("gstar4d", "ashwin/gStar4D", "", [], [], [], ["-std=c++17"], ""),
    ("gpu-delaunay-drozd", "drozd324/GPU_Delaunay_Triangulation", "", [], [], [], ["-std=c++17"], ""),
    ("gpu-delaunay-sussman", "DanielMSussman/gpuDelaunayTriangulation", "", [], [], [], ["-std=c++17"], ""),
    ("gdp2d", "chenzhenghai/gDP2d", "", [], [], [], ["-std=c++17"], ""),
    ("delaunay-tess", "AryaGosuDev/DelauneyTesselationCUDA", "", [], [], [], ["-std=c++17"], ""),
    ("planar-hull", "cima22/CUDA_PlanarConvexHull", "", [], [], [], ["-std=c++17"], ""),
    ("quickhull-brav3t", "brav3t/QuickHullCuda", "", [], [], [], ["-std=c++17"], ""),
    ("gh-cuda", "buddhi1/GH-CUDA", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-lbvh", "nolmoonen/cuda-lbvh", "", [], [], [], ["-std=c++17"], ""),
    ("kitten-lbvh", "jerr060599/KittenGpuLBVH", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("fifty-seventh", "heldout57", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
