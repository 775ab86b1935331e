#!/usr/bin/env python3
"""How the fifteenth held-out set (bench/heldout15.toml) was chosen (run once; kept so the choice
is reviewable and repeatable):

    python bench/heldout15_select.py      # -> bench/heldout15.toml

Rule, written down before anything was measured on these projects (that of the fourth to
thirteenth sets, bench/heldout13_select.py), for non-ML codes (graph analytics,
computational geometry, cryptography): public CUDA projects that no test, corpus,
labelled or held-out set has used (tests/realcorpus/manifest.toml, bench/heldout*.toml,
tests/labelled*/), whose CUDA files build with plain include dirs. Files as for the second to
thirteenth sets (heldout2_select.pick: every `.cu`/`.cuh` file under the project's CUDA folder
within the size cap, less those whose includes do not resolve here and byte-for-byte copies); a
project with more than FULL such files gives every second of them in path order
(heldout4_select.capped). Never chosen by how kernelport does on a file: the set was measured on
main as it was before anyone changed code for it (bench/scoreboard_heldout15_baseline.txt).

Projects (include dirs, defines and flags are those of each project's own build):
  data61/cuda-fixnum        multi-precision (fixed-width) integer arithmetic, modular
                            exponentiation and Paillier encryption, one number spread over the
                            lanes of a warp "slot" (cryptography) (CSIRO Open Source Software
                            Licence v1.0, MIT/BSD-style, LICENCE); Makefile's -I src -DNDEBUG
                            (its -std=c++11; C++17 for CUDA 13's headers). Its `.cu` files are
                            headers the two programs include; tests/test-suite.cu reaches gtest,
                            not installed here, and drops out;
  AutomataLab/Tigr          graph analytics on virtually transformed graphs (BFS, SSSP, CC, PR,
                            SSWP, BC) (MIT, LICENSE.md); tigr/Makefile's nvcc -c with no
                            include dir (its headers are reached as ../shared/), -std=c++11
                            (C++17 here);
  farkhor/CuSha             vertex-centric graph processing with G-Shards and concatenated
                            windows, and the virtual-warp-centric CSR method it compares with
                            (graph analytics) (MIT, LICENSE); sfBuild.sh's nvcc -O3, no include
                            dir or define;
  ashwin/gDel3D             3D Delaunay triangulation by flipping on the GPU (computational
                            geometry) (BSD-3-Clause style, in each file's header and README.md;
                            no LICENSE file); CMakeLists.txt's include dir GDelFlipping/Main (not
                            in the tree: every include is relative), no define; GpuDelaunay.cu
                            reaches PerfTimer.h's Windows include and drops out.
Looked at and left out by the rule: Celebrandil/CudaSift (SIFT, MIT; every unit reaches
cudautils.h, whose `#include <intrin.h>` is MSVC's header: none of its 5 files is left),
mgawan/ADEPT (Smith-Waterman alignment; its CUDA units are `.cpp` files the CMake build marks as CUDA, which the `.cu`/`.cuh` rule does not take).
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import set_header
from heldout4_select import capped
from heldout9_select import pick_cuda
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent


def heldout15() -> str:
    out = [set_header("fifteenth", "heldout15")]
    r = "data61/cuda-fixnum"; c = head(r)
    out.append(project("cuda-fixnum", r, c, "CSIRO Open Source Software Licence v1.0 (MIT/BSD-style)",
                       ["LICENCE"], ["src"], ["NDEBUG"], ["-std=c++17"],
                       capped(pick_cuda(r, c, ["src"], [""]))))
    r = "AutomataLab/Tigr"; c = head(r)
    out.append(project("tigr", r, c, "MIT", ["LICENSE.md"], [], [], ["-std=c++17"],
                       capped(pick_cuda(r, c, [], [""]))))
    r = "farkhor/CuSha"; c = head(r)
    out.append(project("cusha", r, c, "MIT", ["LICENSE"], [], [], ["-std=c++17"],
                       capped(pick_cuda(r, c, [], [""]))))
    r = "ashwin/gDel3D"; c = head(r)
    out.append(project("gdel3d", r, c, "BSD-3-Clause style (in each file's header; no LICENSE file)",
                       ["README.md"], [], [], ["-std=c++17"],
                       capped(pick_cuda(r, c, [], ["GDelFlipping/"]))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout15.toml").write_text(heldout15())
