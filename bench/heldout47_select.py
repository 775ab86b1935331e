#!/usr/bin/env python3
"""How the forty-seventh held-out set (bench/heldout47.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout47_select.py      # -> bench/heldout47.toml

RULE, written and committed (h/heldout47, 09:16 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for time-series similarity, statistical estimation and
retrieval: dynamic time warping and soft-DTW, Kalman / state-space filters, entropic optimal transport
(Sinkhorn), Gaussian-process regression, information retrieval (document-query scoring with top-k
selection, inverted-index filtering for similarity joins, top-k query processing). NARROWED where it
overlaps: heldout26 took "time-series" with finance / statistics / MCMC / particle filters and named
zpzim/SCAMP (matrix profile), so matrix profile (SCAMP/SCRIMP) and particle filters / SMC are left out
here; heldout16 took edit distance (string DP), DTW over numeric series is not that; heldout28 took
cheminformatics fingerprint similarity search and heldout29 classic ML (SVM, trees, SOMs), neither
taken here; nothing of heldout46's GPU emulators / interpreters / RL environments; no LLM sampler
top-k. None below is in bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. alexkyllo/cuTimeWarp                 dynamic time warping and soft-DTW (naive, tiled, diagonal-major)
    2. mbm6448/CUDA_DTW                     dynamic time warping distance and query
    3. ctralie/linmdtw                      dynamic time warping (linear-memory alignment, diagonal kernel)
    4. Benzlxs/CUDAkalmanFilter             Kalman filter (matrix kernels for predict / update)
    5. Ergus/GPUKalmanFilter                Kalman filter fit of tracks
    6. SebastianRueClausen/cuGAL            Sinkhorn (log-domain) optimal transport for graph alignment
    7. e-thereal/gapputils                  Gaussian-process regression (gapputils/GaussianProcesses/)
    8. xiatwhu/baidu_topk                   information retrieval: document-query scoring and top-k
    9. shushengyuan/topk                    information retrieval: document-query scoring and top-k
   10. RafaelQuirino/fgssjoin_2_files       set-similarity join: inverted-index filtering and checking
   11. vazois/TopK                          top-k query processing (threshold / rank aggregation)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout45's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (torch, Eigen, MPI), generated headers and absent submodules do not
  resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read from the
  build files after the fetch and before any measure (the whole repository when the build names no
  single folder), less vendored folders (third_party, 3rdparty, external, extern), over the size cap,
  not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order.
  Include dirs, defines and flags from the project's own build (`-std=c++17` where it asks for older;
  an -arch below CUDA 13's minimum left out). Self-contained check: the first three files taken (all
  if fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two
  (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED),
  as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are taken in
  order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects (the brief:
  at least 4 projects and 30 files). If fewer than 4 projects qualify, an EXTENSION (spatial
  statistics: kriging, inverse-distance-weighted interpolation, variograms, spatial kernel density /
  heat maps; named by domain only, none in bench/used_repos.txt) is written and committed before its
  candidates are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout47_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
]
DROPPED = frozenset()


def heldout47() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("forty-seventh", "heldout47", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout47.toml").write_text(heldout47())
