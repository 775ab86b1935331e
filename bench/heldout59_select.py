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
    ("fast-dbscan", "l3lackcurtains/fast-cuda-gpu-dbscan", "", [], [], [], ["-std=c++17"], ""),
    ("gpu-dbscan-luca", "Luca-02/gpu-dbscan", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-dbscan-davis", "davistardif/cuda-dbscan", "", [], [], [], ["-std=c++17"], ""),
    ("bps-hdbscan", "mgowanlock/BPS-HDBSCAN", "", [], [], [], ["-std=c++17"], ""),
    ("gpu-hdbscan", "gorlando04/GPU_HDBSCAN", "", [], [], [], ["-std=c++17"], ""),
    ("meanshift-savvas", "SavvasSampaziotis/MeanShift-CUDA", "", [], [], [], ["-std=c++17"], ""),
    ("meanshift-giannis", "giannis-mel/CUDA-MeanShift", "", [], [], [], ["-std=c++17"], ""),
    ("meanshift-fede", "fede-vaccaro/CUDA_MeanShift", "", [], [], [], ["-std=c++17"], ""),
    ("gpu-inscy", "mrjakobdk/GPU_INSCY", "", [], [], [], ["-std=c++17"], ""),
    ("gmhc", "asmelko/gmhc", "", [], [], [], ["-std=c++17"], ""),
    ("cluster1d", "adamrehn/Cluster1D", "", [], [], [], ["-std=c++17"], ""),
    ("fp-growth", "yhf8377/cuda-fp-growth", "", [], [], [], ["-std=c++17"], ""),
    ("frequent-items", "bfrola/gpu-frequent-items", "", [], [], [], ["-std=c++17"], ""),
    ("culof", "Aminsed/cuLOF", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("fifty-ninth", "heldout59", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
