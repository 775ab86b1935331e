#!/usr/bin/env python3
"""How the thirty-sixth held-out set (bench/heldout36.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout36_select.py      # -> bench/heldout36.toml

RULE, written and committed (h/heldout36, 18:44 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for neural rendering, 3-D geometry and point-cloud
processing research code: 3-D Gaussian splatting rasterisers and their variants, NeRF / hash-grid
encoders, mesh processing (voxelisation, sampling), point-cloud operators (farthest point sampling,
ball query, grouping, chamfer / EMD distances), differentiable rendering. Splats, meshes and point
clouds were taken before (heldout8/11/13/18/21/25/27/31): their repositories (diff-gaussian-
rasterization, diff-surfel-rasterization, nvdiffrast, pytorch3d, pcl, tsdf-fusion, voxelhashing,
gpu-voxels, tiny-cuda-nn, kNN-CUDA, 3dgrut, ...) are in bench/used_repos.txt or named by those
rules and are not candidates.

  Candidates, in this order, named by domain only (none in bench/used_repos.txt nor named by an
  earlier heldout*_select.py, none chosen by how kernelport does on them):
    1. Artemarius/cuda-gaussian-splatting    3-D Gaussian splatting in C++/CUDA (projection, tile sort, forward/backward rasteriser, SH)
    2. MrNeRF/gaussian-splatting-cuda        3-D Gaussian splatting training in C++/CUDA (its rasterisers and kernels)
    3. Forceflow/cuda_voxelizer              triangle-mesh voxelisation (surface and solid)
    4. charlesq34/pointnet2                  point-cloud operators: farthest point sampling, ball query, grouping
    5. yulequan/PU-Net                       point-cloud operators: chamfer distance, EMD (auction matching), ball query
    6. charlesq34/pointnet-autoencoder       point-cloud chamfer distance
    7. salehjg/MeshToPointcloudFPS           mesh to point cloud sampling with farthest point sampling
    8. YuvrajPuyam/Differentiable-Rasterizer-Cuda  differentiable triangle-mesh rasteriser (forward/backward, face binning)
    9. Totoro97/f2-nerf                      NeRF with hash-grid encodings (sampler, renderer, fields)
   10. DeliriumV01D/NeRFpp                   NeRF / HashNeRF in C++ (its CUDA kernels)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout34's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuBLAS, cuRAND, cuFFT headers here) or the host
  compiler's search path, with the include dirs of the project's build; absent third-party headers
  (torch/extension.h, TensorFlow's, glm from an absent submodule), generated headers and absent
  submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only under the source
  folder read from the build files after the fetch and before any measure (the whole repository
  when the build names no single folder), less vendored folders (third_party, 3rdparty, external,
  extern), over the size cap, not resolving, or byte-for-byte copies; more than CAP = 12 gives 12
  evenly spaced in path order. Include dirs, defines and flags from the project's own build
  (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left out). Self-contained
  check: the first three files taken (all if fewer) are compiled with `nvcc -c` and the project's
  flags; a project of which fewer than two (one if it gives one) compile, for a reason other than
  CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not qualify
  or gives 0 files. Candidates are taken in order until the set holds at least STOP_FILES = 45
  files or STOP_PROJECTS = 8 projects.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout36_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 45, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES: list = []
DROPPED: frozenset = frozenset()


def heldout36() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("thirty-sixth", "heldout36", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout36.toml").write_text(heldout36())
