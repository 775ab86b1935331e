#!/usr/bin/env python3
"""How the seventeenth held-out set (bench/heldout17.toml) was chosen (run once; kept so the choice
is reviewable and repeatable):

    python bench/heldout17_select.py      # -> bench/heldout17.toml

Rule, written down before anything was measured on these projects (that of the fourth to
fifteenth sets, bench/heldout15_select.py), for classic GPU libraries and applications outside
ML and linear algebra (GPU primitives, physics simulation): public CUDA projects
that no test, corpus, labelled or held-out set has used (tests/realcorpus/manifest.toml,
bench/heldout*.toml, tests/labelled*/), whose CUDA files build with plain include dirs. Files as
for the second to fifteenth sets (heldout2_select.pick: every `.cu`/`.cuh` file under the
project's CUDA folder within the size cap, less those whose includes do not resolve here, read
textually, and byte-for-byte copies); a project with more than FULL such files gives every second
of them in path order (heldout4_select.capped). Never chosen by how kernelport does on a file: the
set was measured on main as it was before anyone changed code for it
(bench/scoreboard_heldout17_baseline.txt).

Projects (include dirs, defines and flags are those of each project's own build):
  chrxh/alien               artificial-life simulation: cells, bonds and particles under
                            physics (collisions, forces, radiation) and genome-driven cell
                            functions (BSD-3-Clause, LICENSE); CMakeLists.txt's include dirs
                            source and external, CMAKE_CXX_STANDARD 20, separable compilation
                            (-rdc=true) and -use_fast_math. 85 files resolve; every second taken;
  cudpp/cudpp               CUDA data-parallel primitives (scan, compact, reduce, sort, rand,
                            tridiagonal, list rank, hashing) (BSD-style, license.txt);
                            CMakeLists' include, src/cudpp{,/app,/kernel,/cta}, src/cudpp_hash
                            (ext/moderngpu and ext/cub are submodules, not in the snapshot).
                            Every unit reaching the CMake-generated cudpp_config.h drops out:
                            7 files are left;
  InteractiveComputerGraphics/cuNSearch
                            fixed-radius neighbourhood search for SPH particle simulation
                            (MIT, LICENSE); CMakeLists.txt's include dirs include and Utils
                            (cuNSearch.cu and cuNSearchDeviceData.cu reach the CMake-generated
                            cuNSearch_export.h and drop out).
Looked at and left out by the rule: rigaya/NVEnc (its CUDA video filters, NVEncCore/NVEncFilter*.cu,
with meson.build's include dirs: every filter reaches rgy_osdep.h, whose Windows.h, conio.h and
io.h are read textually; 10 of its files first seemed to resolve because a UTF-8 byte-order mark
hid their first line's include from realcorpus_build.INCLUDE (seen when the built tree lacked the header
they include; fixed before the first measure):
0 files), Xtra-Computing/thundersvm and Xtra-Computing/thundergbm
(every unit reaches the CMake-generated config.h: 0 files), akrizhevsky/cuda-convnet2 (the CUDA
samples' helper_cuda.h, Python.h: 2 files), andyschwarzl/gpuNUFFT (CMake-generated config: 0
files), NVIDIA/video-sdk-samples (4 files), FFmpeg/FFmpeg (its snapshot is over the fetch limit,
so its libavfilter `.cu` filters could not be read).
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import set_header
from heldout4_select import capped
from heldout9_select import pick_cuda
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent
CUDPP_INCLUDES = ["include", "src/cudpp", "src/cudpp/app", "src/cudpp/kernel", "src/cudpp/cta",
                  "src/cudpp_hash"]


def heldout17() -> str:
    out = [set_header("seventeenth", "heldout17")]
    r = "chrxh/alien"; c = head(r)
    out.append(project("alien", r, c, "BSD-3-Clause", ["LICENSE"], ["source", "external"], [],
                       ["-std=c++20", "-rdc=true", "-use_fast_math"],
                       capped(pick_cuda(r, c, ["source", "external"], ["source/EngineGpuKernels/"]))))
    r = "cudpp/cudpp"; c = head(r)
    out.append(project("cudpp", r, c, "BSD-style", ["license.txt"], CUDPP_INCLUDES, [], ["-std=c++17"],
                       capped(pick_cuda(r, c, CUDPP_INCLUDES, ["src/"]))))
    r = "InteractiveComputerGraphics/cuNSearch"; c = head(r)
    out.append(project("cunsearch", r, c, "MIT", ["LICENSE"], ["include", "Utils"], [], ["-std=c++17"],
                       capped(pick_cuda(r, c, ["include", "Utils"], ["src/", "Utils/"]))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout17.toml").write_text(heldout17())
