#!/usr/bin/env python3
"""How the eighteenth held-out set (bench/heldout18.toml) was chosen. The rule below was written
(branch h/heldout18) before anything was fetched or measured; it was run on 2026-12-04 at about
15:10 UTC (branch h/heldout18b), before anything was measured on the set:

    python bench/heldout18_select.py      # -> bench/heldout18.toml

Rule (that of the fourth to seventeenth sets, bench/heldout17_select.py), for computer vision,
image/video processing and rendering (stereo/optical flow, feature extraction, point clouds,
image codecs, neural graphics, ray tracing): public CUDA projects that no test, corpus, labelled
or held-out set has used (tests/realcorpus/manifest.toml, bench/heldout*.toml, tests/labelled*/,
/work/notes/t36/used.md), whose CUDA files build with plain include dirs (no PyTorch extension
headers, no OptiX SDK, no CMake-generated config). Files as for the second to seventeenth sets
(heldout2_select.pick / heldout9_select.pick_cuda: every `.cu`/`.cuh` file under the project's
CUDA folder within the size cap, less those whose includes do not resolve here, read textually,
and byte-for-byte copies); a project with more than FULL such files gives every second of them in
path order (heldout4_select.capped). Target 40-70 files over 3-5 projects. Never chosen by how
kernelport does on a file.

Candidate projects, in this order, taken while the rule admits them and the total stays <= 70:
  fixstars/libSGM                   semi-global matching stereo (Apache-2.0)
  fixstars/cuda-efficient-features  ORB/BAD/HashSIFT feature extraction (Apache-2.0)
  NVlabs/tiny-cuda-nn               neural graphics MLPs / encodings (BSD-3; only if its
                                    dependencies resolve with plain include dirs)
  a CUDA point-cloud or image-codec project, chosen by the same rule if the total is under 40.

Run: the three named candidates give 0 files. libSGM: every unit reaches the CMake-generated
include/libsgm_config.h (via libsgm.h); cuda-efficient-features: every unit reaches OpenCV
(opencv2/core/cuda.hpp, not installed here); tiny-cuda-nn: every unit reaches fmt/format.h or
cutlass (submodules, not in the snapshot). The last line was then applied, point-cloud projects
first and, while the total stayed under 40, the domain line's voxel/ray-tracing rendering, in this
order (by the include resolution alone, never by how kernelport does):
  NVIDIA-AI-IOT/Lidar_AI_Solution   lidar/camera point-cloud perception (BEVFusion, CenterPoint,
                                    sparse-convolution voxelization, on-screen drawing, YUV->RGB,
                                    ROI conversion) (MIT, LICENSE.md); one entry per CMake/Makefile
                                    build with its own include dirs; -std=c++17 (CUDA 13's CCCL
                                    needs 17; their builds say 11/14/17). 20 files.
  NVIDIA-AI-IOT/CUDA-PointPillars   point-cloud 3D detection (Apache-2.0, LICENSE); CMakeLists'
                                    include dirs src, include; -std=c++17. 6 files (its
                                    src/common/launch.cuh and tensor.cu are the same code as
                                    BEVFusion's, a separate repository; kept as the rule says).
  NVIDIA/gvdb-voxels                sparse voxel database: raycasting, point fusion, particle
                                    rendering (Apache-2.0 in LICENSE.txt); gvdb_library's kernels
                                    and src, sample_utils; --use_fast_math (its gvdbPTX target).
                                    17 files.
Looked at and left out by the rule: jan-van-bergen/GPU-Raytracer (0 files: its two .cu do not pass the
include rule with its Src include dir).
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import set_header
from heldout4_select import capped
from heldout9_select import pick_cuda
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent
LIDAR = "NVIDIA-AI-IOT/Lidar_AI_Solution"
# (entry, include dirs of that build, source prefix)
LIDAR_BUILDS = [
    ("lidar-bevfusion", ["CUDA-BEVFusion/src/common", "CUDA-BEVFusion/src", "libraries/cuOSD/src",
                         "libraries/3DSparseConvolution/libspconv/include", "dependencies/stb",
                         "dependencies/dlpack/include"], "CUDA-BEVFusion/"),
    ("lidar-centerpoint", ["CUDA-CenterPoint/include", "CUDA-CenterPoint/3rdparty/libspconv/include"],
     "CUDA-CenterPoint/"),
    ("lidar-spconv", ["libraries/3DSparseConvolution/src",
                      "libraries/3DSparseConvolution/libspconv/include"], "libraries/3DSparseConvolution/"),
    ("lidar-yuvtorgb", ["libraries/YUVToRGB/src", "libraries/YUVToRGB/yuvtorgb_library"],
     "libraries/YUVToRGB/"),
    ("lidar-cuosd", ["libraries/cuOSD/src"], "libraries/cuOSD/"),
    ("lidar-roiconvert", ["libraries/roiconvert/src", "libraries/roiconvert/roi_conversion"],
     "libraries/roiconvert/"),
]
GVDB_INCLUDES = ["source/gvdb_library/kernels", "source/gvdb_library/src", "source/sample_utils"]


def heldout18() -> str:
    out = [set_header("eighteenth", "heldout18")]
    c = head(LIDAR)
    for name, inc, prefix in LIDAR_BUILDS:
        files = pick_cuda(LIDAR, c, inc, [prefix])
        if files:
            out.append(project(name, LIDAR, c, "MIT", ["LICENSE.md"], inc, [], ["-std=c++17"],
                               capped(files)))
    r = "NVIDIA-AI-IOT/CUDA-PointPillars"; c = head(r)
    out.append(project("pointpillars", r, c, "Apache-2.0", ["LICENSE"], ["src", "include"], [],
                       ["-std=c++17"], capped(pick_cuda(r, c, ["src", "include"], ["src/"]))))
    r = "NVIDIA/gvdb-voxels"; c = head(r)
    out.append(project("gvdb", r, c, "Apache-2.0", ["LICENSE.txt"], GVDB_INCLUDES, [],
                       ["-std=c++17", "--use_fast_math"],
                       capped(pick_cuda(r, c, GVDB_INCLUDES, ["source/"]))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout18.toml").write_text(heldout18())
