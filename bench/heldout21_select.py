#!/usr/bin/env python3
"""How the twenty-first held-out set (bench/heldout21.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout21_select.py      # -> bench/heldout21.toml

RULE, written and committed (h/heldout21, 20:33 UTC) before any candidate was fetched or measured,
for computer vision, image processing, video and 3-D reconstruction (stereo matching, features,
dense SLAM, rasterisation for reconstruction, video colour conversion, denoising, splatting, NeRF,
point clouds, multi-view stereo):

  Candidates, in this order, named by domain only (none in /work/notes/t38/used.md, none chosen by
  how kernelport does on them):
    1. fixstars/libSGM                             semi-global stereo matching
    2. Celebrandil/CudaSift                        SIFT feature extraction and matching
    3. victorprad/InfiniTAM                        dense SLAM, TSDF volumetric reconstruction
    4. NVlabs/nvdiffrast                           differentiable rasterisation (3-D reconstruction)
    5. NVIDIA/video-sdk-samples                    video codec helpers (colour conversion, resize)
    6. DawyD/bm3d-gpu                              BM3D image denoising
    7. graphdeco-inria/diff-gaussian-rasterization 3-D gaussian splatting renderer
    8. PointCloudLibrary/pcl                       point clouds (its gpu/ modules)
    9. colmap/colmap                               multi-view stereo (PatchMatch)
   10. cdcseacave/openMVS                          multi-view stereo reconstruction
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING (stop 38's set had too few self-contained files): a candidate qualifies if at least
  half of its first 10 `.cu` files by path (all of them if fewer than 10) have every `#include`
  they reach resolve in the repository, the CUDA toolkit or the host compiler's search path
  (heldout2_select.resolves, read textually, with the include dirs of the project's build).
  Files of a qualifying candidate: its `.cu` files only (the local headers they include are copied
  with them by realcorpus_build.py; no header is taken as a source on its own) under the folder(s)
  its own build compiles, within the size cap, less those whose includes do not resolve and
  byte-for-byte copies (heldout2_select.pick); a project with more than FULL (20) such files gives
  every second of them in path order (heldout4_select.capped). Include dirs, defines and nvcc
  flags are those of the project's own build files (read before any measure). A candidate that
  cannot be fetched, does not qualify or gives 0 files drops out (said below). Candidates are
  taken in order until the set holds at least 45 files or 6 projects, whichever comes first.
EXTENSION, written and committed (20:35 UTC) after applying the rule above and before any measure:
  the ten candidates give 10 files from 4 projects: nvdiffrast 4 (csrc/common/: the fifth reaches
  torch/extension.h), video-sdk-samples 2 (Samples/: the others reach Logger.h's winsock.h), bm3d-gpu
  3, pcl 1 (gpu/: the others reach the CMake-generated pcl/pcl_config.h); libSGM (libsgm_config.h,
  CMake-generated), CudaSift (intrin.h), InfiniTAM (windows.h in ORUtils/CUDADefines.h, read
  textually), diff-gaussian-rasterization (glm, a submodule absent from the snapshot), colmap
  (src/colmap/mvs/: Eigen) and openMVS do not qualify (0 of their first .cu files self-contained).
  Eight more candidates, named by domain only, are taken by the same rule in this order until the
  set holds at least 45 files:
   11. FFmpeg/FFmpeg                             video filters (libavfilter's CUDA scale, yadif, ...)
   12. WolframRhodium/VapourSynth-BM3DCUDA       BM3D video denoising
   13. uzh-rpg/vilib                             visual front end (FAST features, pyramids, tracking)
   14. mp3guy/ElasticFusion                      dense surfel SLAM
   15. dhernandez0/sgm                           semi-global stereo matching (embedded)
   16. CVCUDA/CV-CUDA                            image processing operators
   17. pitzer/SiftGPU                            SIFT features
   18. andyzeng/tsdf-fusion                      TSDF volumetric fusion
SECOND EXTENSION, written and committed (20:36 UTC, before any measure): candidates 11-18 give 10
  more files (20 in all, 7 projects): BM3DCUDA 1, vilib 5 (visual_lib/: two reach OpenCV), sgm 4
  (two reach OpenCV); FFmpeg's snapshot is over the fetch limit (540 MB > 500 MB), CV-CUDA does
  not qualify (its first 10 src/ .cu reach the CMake-generated cvcuda/VersionDef.h; 0 of 10),
  ElasticFusion (Eigen), SiftGPU (GL/glew.h) and tsdf-fusion (OpenCV, png++) give 0. Four more,
  named by domain only, by the same rule in this order until the set holds at least 45 files:
   19. AcademySoftwareFoundation/openvdb         sparse volumes, points to grids (NanoVDB's CUDA)
   20. IntelRealSense/librealsense               depth camera: alignment, point cloud, colour
   21. niessner/VoxelHashing                     real-time 3-D reconstruction (voxel hashing)
   22. isl-org/Open3D                            point clouds and TSDF (its t/geometry kernels)
THIRD EXTENSION, written and committed (20:37 UTC, before any measure): candidates 19-22 give 3
  more (librealsense; 23 in all). Most candidates that drop out do so for a header reached only
  inside a Windows branch (`#ifdef _WIN32 #include <windows.h>`, `#if defined(_MSC_VER) #include
  <intrin.h>`), which the text reading counts although no Linux compile reads it. So the rule is
  applied again to the same 22 candidates, in the same order, with one change: an `#include`
  inside a branch taken only on Windows (an #if/#ifdef/#elif whose condition names _WIN32, _WIN64,
  WIN32, _MSC_VER or __MINGW32__ without negation, or the #else of an #ifndef/#if !defined of
  one) is not read (linux_text below). Everything else is as above (same include dirs and
  folders, QUALIFYING on the first 10 .cu, capped at FULL), taken until at least 45 files.
"""
from __future__ import annotations

import re
from pathlib import Path

import heldout2_select
from heldout2_select import mirror, pick, resolves, set_header
from heldout4_select import capped
import realcorpus_build
from realcorpus_build import read_tree
from realcorpus_select import cu_files, head, project

ROOT = Path(__file__).resolve().parent.parent
WINDOWS = re.compile(rb"\b(_WIN32|_WIN64|WIN32|_MSC_VER|__MINGW32__)\b")
DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")


def linux_text(text: bytes) -> bytes:
    """TEXT with the lines of branches taken only on Windows blanked (THIRD EXTENSION)."""
    out, stack = [], []  # per open #if: [this branch Windows-only, the #if negated a Windows name]
    for line in text.split(b"\n"):
        m = DIRECTIVE.match(line)
        if m:
            kind, cond = m.group(1), m.group(2)
            names = bool(WINDOWS.search(cond))
            negated = kind == b"ifndef" or (names and b"!" in cond)
            if kind in (b"if", b"ifdef", b"ifndef"):
                stack.append([names and not negated, names and negated])
            elif stack and kind == b"elif":
                stack[-1] = [names and b"!" not in cond, False]
            elif stack and kind == b"else":
                stack[-1] = [stack[-1][1], False]
            elif stack and kind == b"endif":
                stack.pop()
            out.append(line)
            continue
        out.append(b"" if any(windows for windows, _ in stack) else line)
    return b"\n".join(out)


def linux_show(mirror_dir: Path, commit: str, path: str, links: set[str]) -> bytes:
    return linux_text(realcorpus_build.show(mirror_dir, commit, path, links))


def on_linux(fn, *args):
    """fn(*args) with heldout2_select reading every file through linux_text."""
    saved = heldout2_select.show
    heldout2_select.show = linux_show
    try:
        return fn(*args)
    finally:
        heldout2_select.show = saved


def qualifies(repo: str, commit: str, incdirs: list[str], prefix: str = "") -> tuple[int, int]:
    """(self-contained, looked at) over the first 10 `.cu` files by path under prefix."""
    tree, links = read_tree(mirror(repo), commit)
    first = cu_files(repo, commit, prefix)[:10]
    ok = sum(resolves(repo, commit, p, incdirs, tree, set(), links) for p in first)
    return ok, len(first)


def taken(repo: str, commit: str, incdirs: list[str], prefix: str) -> list[str]:
    """A candidate's files by the rule (THIRD EXTENSION's reading), or [] if it does not qualify."""
    ok, looked = on_linux(qualifies, repo, commit, incdirs, prefix)
    return capped(on_linux(pick, repo, commit, incdirs, prefix)) if looked and 2 * ok >= looked else []


def heldout21() -> str:
    """The qualifying candidates in order (the 15 others give 0 files; the docstring says why)."""
    out = [set_header("twenty-first", "heldout21")]
    r = "Celebrandil/CudaSift"; c = head(r)  # CMakeLists.txt's Linux branch
    out.append(project("cudasift", r, c, "MIT", ["LICENSE"], ["."], ["_FORCE_INLINES", "VERBOSE_NOT"],
                       ["-std=c++17"], taken(r, c, ["."], "")))
    r = "NVlabs/nvdiffrast"; c = head(r)  # setup.py's nvcc args
    out.append(project("nvdiffrast", r, c, "NVIDIA Source Code License", ["LICENSE.txt"], ["csrc/common"],
                       ["NVDR_TORCH"], ["-std=c++17", "-lineinfo"],
                       taken(r, c, ["csrc/common"], "csrc/common/")))
    r = "NVIDIA/video-sdk-samples"; c = head(r)
    inc = ["Samples/Utils", "Samples"]
    out.append(project("video-sdk", r, c, "NVIDIA Video Codec SDK EULA (in each file's header; no LICENSE file)",
                       ["README.md"], inc, [], ["-std=c++17"], taken(r, c, inc, "Samples/")))
    r = "DawyD/bm3d-gpu"; c = head(r)
    out.append(project("bm3d-gpu", r, c, "BSD-2-Clause", ["LICENSE.md"], ["include"], [], ["-std=c++17"],
                       taken(r, c, ["include"], "src/")))
    r = "WolframRhodium/VapourSynth-BM3DCUDA"; c = head(r)  # source/CMakeLists.txt: CUDA_STANDARD 17
    out.append(project("bm3dcuda", r, c, "GPL-2.0", ["LICENSE"], ["source"], [], ["-std=c++17"],
                       taken(r, c, ["source"], "source/")))
    r = "uzh-rpg/vilib"; c = head(r)  # its nvcc_options
    out.append(project("vilib", r, c, "BSD-3-Clause", ["LICENSE.txt"], ["visual_lib/include"], ["NDEBUG"],
                       ["-std=c++17", "--ftz=true", "--prec-div=false", "--prec-sqrt=false",
                        "--fmad=true", "--default-stream", "per-thread"],
                       taken(r, c, ["visual_lib/include"], "visual_lib/")))
    r = "dhernandez0/sgm"; c = head(r)
    out.append(project("sgm", r, c, "GPL-3.0", ["LICENSE"], ["."], [], ["-std=c++17"], taken(r, c, ["."], "")))
    r = "IntelRealSense/librealsense"; c = head(r)  # CMake/global_config.cmake's RS2_USE_CUDA
    inc = ["include", "src", "third-party"]
    out.append(project("librealsense", r, c, "Apache-2.0", ["LICENSE", "NOTICE.md"], inc, ["RS2_USE_CUDA"],
                       ["-std=c++17"], taken(r, c, inc, "src/")))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout21.toml").write_text(heldout21())
