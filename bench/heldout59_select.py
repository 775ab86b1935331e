#!/usr/bin/env python3
"""How the fifty-ninth held-out set (bench/heldout59.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout59_select.py      # -> bench/heldout59.toml

RULE, written and committed (h/heldout59, 20:38 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for data mining and clustering outside k-means and
retrieval: density-based clustering (DBSCAN, HDBSCAN, OPTICS, mean shift, subspace density
clustering), hierarchical / agglomerative clustering, frequent itemset and frequent item mining
(Apriori, Eclat, FP-growth), outlier / anomaly detection (LOF, isolation forests), affinity
propagation, spectral clustering's kernels, t-SNE / UMAP force computations. NARROWED where it
overlaps: heldout26 took k-means / clustering (its candidates were all k-means), so no k-means or
k-medoids project is taken here; heldout29 took classic ML with self-organising maps
(peterwittek/somoclu), so no SOM; heldout47 took retrieval and similarity search and heldout29 named
vincentfpgarcia/kNN-CUDA, so a project whose subject is k-NN search itself is not taken (a k-NN step
inside LOF or HDBSCAN is that algorithm's, and stays); heldout51 NLP / recommenders, none here;
heldout8 named CannyLab/tsne-cuda, so it is not a candidate. Nothing of this stop's heldout58
(GPU microbenchmarks) or heldout60 (parallel primitives: sort / scan / histogram). None below is in
bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. l3lackcurtains/fast-cuda-gpu-dbscan  DBSCAN (grid indexing, GPU neighbour expansion)
    2. Luca-02/gpu-dbscan                   DBSCAN
    3. davistardif/cuda-dbscan              DBSCAN (grid / Delaunay neighbourhoods, connected components)
    4. mgowanlock/BPS-HDBSCAN               HDBSCAN (GPU neighbour tables for the hierarchy)
    5. gorlando04/GPU_HDBSCAN               HDBSCAN (core distances, MST, cluster tree)
    6. SavvasSampaziotis/MeanShift-CUDA     mean-shift clustering
    7. giannis-mel/CUDA-MeanShift           mean-shift clustering (shared / non-shared kernels)
    8. fede-vaccaro/CUDA_MeanShift          mean-shift clustering
    9. mrjakobdk/GPU_INSCY                  subspace density-based clustering (INSCY)
   10. asmelko/gmhc                         hierarchical (Mahalanobis / Gaussian-mixture) agglomerative clustering
   11. adamrehn/Cluster1D                   hierarchical clustering of one-dimensional data
   12. yhf8377/cuda-fp-growth               FP-growth frequent itemset mining
   13. bfrola/gpu-frequent-items            frequent items mining over data streams
   14. Aminsed/cuLOF                        local outlier factor (LOF) anomaly detection
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (torch, Eigen, MPI, OpenCV, pybind11), generated headers and absent submodules
  do not resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read
  from the build files after the fetch and before any measure (the whole repository when the build
  names no single folder), less vendored folders (third_party, 3rdparty, external, extern, and a
  repository's lib/ copy of another project), over the size cap, not resolving, or byte-for-byte
  copies; more than CAP = 12 gives 12 evenly spaced in path order. Include dirs, defines and flags
  from the project's own build (`-std=c++17` where it asks for older; an -arch below CUDA 13's
  minimum left out). Self-contained check: the first three files taken (all if fewer) are compiled
  with `nvcc -c` and the project's flags; a project of which fewer than two (one if it gives one)
  compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED), as does one that
  cannot be fetched, does not qualify or gives 0 files. Candidates are taken in order until the set
  holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects. If fewer than 4 projects
  qualify, an EXTENSION (graph community detection: Louvain modularity, label propagation, Markov
  clustering; named by domain only, none in bench/used_repos.txt) is written and committed before
  its candidates are fetched.
Outcome of the rule (before any measure of kernelport, 20:46 UTC): candidates 1-14 all fetched; the loop stops at the
  eighth project. fast-cuda-gpu-dbscan 12 (34 in path order, evenly spaced to CAP), gpu-dbscan (Luca-02) 2,
  cuda-dbscan (davistardif) 0 (1 of its first 4 resolves: the rest reach cudpp.h of lib/cudpp, an absent submodule), BPS-HDBSCAN 2,
  GPU_HDBSCAN 12 (evenly spaced; one of them, HDBSCAN/cmake/CMakeFiles/3.22.1/CompilerIdCUDA/CMakeCUDACompilerId.cu, is
  CMake's compiler-identification source committed with the build tree: the rule takes it as written, said and not
  acted on), MeanShift-CUDA (Savvas) 5, CUDA-MeanShift (giannis) 2, CUDA_MeanShift (fede) 1, GPU_INSCY 0 (1 of its
  first 10 resolves: the rest reach ATen / torch/extension.h), gmhc 0 (0 of 8: para/include/kernels.cuh includes
  cusolverDn.h, absent here), Cluster1D 1: eight projects, 37 files; candidates 12-14 (cuda-fp-growth,
  gpu-frequent-items, cuLOF) are not reached. Check (`nvcc -c`, first three files, the build's flags):
  fast-cuda-gpu-dbscan 1/3 (cuda-dclust/dbscan_indexing.cu and dbscan_indexing_exp.cu call thrust::count having
  included thrust/sort.h and its siblings but not thrust/count.h, which CUDA 13's CCCL 3 no longer brings in
  transitively: a CUDA 13 header change and no code error (no undefined name), judged with the removed APIs, so it
  stays and its files count only where the original compiles), gpu-dbscan 2/2, BPS-HDBSCAN 2/2, GPU_HDBSCAN 3/3,
  MeanShift-CUDA 2/3 (array_utilities.cu compares a FILE* with 0 by `<`, an error for the host compiler), CUDA-MeanShift
  2/2, CUDA_MeanShift 1/1, Cluster1D 0/1 (cudaDeviceProp::clockRate, removed in CUDA 13: a removed API, so it stays and
  counts only where the original compiles: nowhere). No project DROPPED. Caveats, said and not acted on: GPU_HDBSCAN and
  fast-cuda-gpu-dbscan are 24 of the 37 files; three mean-shift projects are small course-style codes.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout59_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    # Makefile: nvcc -O3 -std=c++14 (-> 17) -c on the root's main.cu, indexing.cu, dbscan.cu, test.cu (gdbscan/ and
    # multicore-cpu/ have their own Makefiles): no single folder, the whole repository
    ("fast-dbscan", "l3lackcurtains/fast-cuda-gpu-dbscan", "MIT (see LICENSE)", ["LICENSE"], [], [],
     ["-std=c++17", "-O3"], ""),
    # CMakeLists.txt: CUDA 20, include dir src, gpu_dbscan CUDA_SEPARABLE_COMPILATION (-rdc=true)
    ("gpu-dbscan-luca", "Luca-02/gpu-dbscan", "(none in the repository)", [], ["src"], [],
     ["-std=c++20", "-rdc=true"], "src/"),
    # Makefile: src/gpu/*.cu with -dc (-rdc=true) --std=c++11 (-> 17) --expt-relaxed-constexpr, -I src/common
    # -I lib/cudpp/include -I lib/gDel2D/src; lib/gDel2D is another project's copy (vendored); -g and the sm_30..61
    # -gencode list left out
    ("cuda-dbscan-davis", "davistardif/cuda-dbscan", "MIT (see LICENSE)", ["LICENSE"],
     ["src/common", "lib/cudpp/include", "lib/gDel2D/src"], [], ["-std=c++17", "-rdc=true", "--expt-relaxed-constexpr"],
     "src/gpu/"),
    # code/makefile: -O3 -std=c++11 (-> 17) -Xcompiler -fopenmp; -arch=compute_60 -code=sm_60 below CUDA 13's minimum
    ("bps-hdbscan", "mgowanlock/BPS-HDBSCAN", "MIT (see LICENSE)", ["LICENSE"], [], [],
     ["-std=c++17", "-O3", "-Xcompiler", "-fopenmp"], "code/"),
    # HDBSCAN/CMakeLists.txt (the hdbscan target): -D_FILE_OFFSET_BITS=64 -O3 -std=c++14 (-> 17) -arch=sm_75
    # -rdc=true -Xcompiler -fopenmp
    ("gpu-hdbscan", "gorlando04/GPU_HDBSCAN", "(none in the repository)", [], [], ["_FILE_OFFSET_BITS=64"],
     ["-std=c++17", "-O3", "-arch=sm_75", "-rdc=true", "-Xcompiler", "-fopenmp"], "HDBSCAN/"),
    # Makefile (a CUDA-samples makefile): src/*.cu, -Iinclude and -I../../common/inc (outside the repository), -m64;
    # the sm_11..52 -gencode list left out
    ("meanshift-savvas", "SavvasSampaziotis/MeanShift-CUDA", "(none in the repository)", [], ["include"], [],
     ["-std=c++17"], "src/"),
    # Makefile: nvcc -O3 on nonshared.cu and shared.cu (the root); its sm_61..86 -gencode list left out (sm_61 below
    # CUDA 13's minimum; the others only pick targets)
    ("meanshift-giannis", "giannis-mel/CUDA-MeanShift", "MIT (see LICENSE)", ["LICENSE"], [], [],
     ["-std=c++17", "-O3"], ""),
    # CUDA_MeanShift.vcxproj: CUDA_MeanShift/*.cu, IncludePath include (relative to the project folder)
    ("meanshift-fede", "fede-vaccaro/CUDA_MeanShift", "MIT (see LICENSE)", ["LICENSE"], ["CUDA_MeanShift/include"], [],
     ["-std=c++17"], "CUDA_MeanShift/"),
    # CMakeLists.txt: src/ sources, C++14 (-> 17)
    ("gpu-inscy", "mrjakobdk/GPU_INSCY", "(none in the repository)", [], [], [], ["-std=c++17"], "src/"),
    # CMakeLists.txt + para/CMakeLists.txt: para/src/*, include dirs include and para/include, CUDA 17,
    # CUDA_SEPARABLE_COMPILATION (-rdc=true)
    ("gmhc", "asmelko/gmhc", "MIT (see LICENSE)", ["LICENSE"], ["include", "para/include"], [],
     ["-std=c++17", "-rdc=true"], "para/src/"),
    # CMakeLists.txt: source/cluster.cu, -std=c++11 (-> 17)
    ("cluster1d", "adamrehn/Cluster1D", "MIT (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], "source/"),
    # no build file: the whole repository, include dir include (its sources include "FPGrowth.h" and siblings)
    ("fp-growth", "yhf8377/cuda-fp-growth", "Apache-2.0 (see LICENSE)", ["LICENSE"], ["include"], [],
     ["-std=c++17"], ""),
    # FrequentAccelerator.vcxproj: FrequentAccelerator/src/*.cu, include dirs Include, ../FrequentItems/Include,
    # ../Test/Include and $(NVSDKCUDA_ROOT)/common/inc (the old SDK, absent); WIN32/_CONSOLE defines left out (Windows)
    ("frequent-items", "bfrola/gpu-frequent-items", "CC BY-NC 1.0 (see LICENSE.md)", ["LICENSE.md"],
     ["FrequentAccelerator/Include", "FrequentItems/Include", "Test/Include"], [], ["-std=c++17"],
     "FrequentAccelerator/src/"),
    # CMakeLists.txt: src/cuda/*.cu, include dir include, CUDA 17, Release (-O3)
    ("culof", "Aminsed/cuLOF", "MIT (see LICENSE)", ["LICENSE"], ["include"], [], ["-std=c++17", "-O3"], "src/cuda/"),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("fifty-ninth", "heldout59", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
