#!/usr/bin/env python3
"""How the sixteenth held-out set (bench/heldout16.toml) was chosen (run once; kept so the choice
is reviewable and repeatable):

    python bench/heldout16_select.py      # -> bench/heldout16.toml

Rule, written down before anything was measured on these projects (that of the fourth to
fifteenth sets, bench/heldout15_select.py), for bioinformatics (sequence alignment: Smith-Waterman,
X-drop, FM-index read mapping) and sparse linear algebra: public CUDA projects that no test,
corpus, labelled or held-out set has used (tests/realcorpus/manifest.toml, bench/heldout*.toml,
tests/labelled*/, /work/notes/t35/used.md), whose CUDA files build with plain include dirs. Files
as for the second to fifteenth sets (heldout2_select.pick: every `.cu`/`.cuh` file under the
project's CUDA folder within the size cap, less those whose includes do not resolve here and
byte-for-byte copies; vendored third-party code is not the project's folder); a project with more
than FULL such files gives every second of them in path order (heldout4_select.capped). Never
chosen by how kernelport does on a file: the set was measured on main as it was before anyone
changed code for it (bench/scoreboard_heldout16_baseline.txt).

Projects (include dirs, defines and flags are those of each project's own build):
  asbschmidt/CUDASW4        CUDASW++4.0, Smith-Waterman protein database search (half2, float
                            and DPX s16/s32 kernels, thrust, cooperative groups) (Apache-2.0,
                            LICENSE); Makefile's nvcc -std=c++17 --expt-relaxed-constexpr
                            --extended-lambda -rdc=true, no include dir or define (its headers
                            are reached relative to src/). 26 files resolve: every second;
  albertozeni/LOGAN         GPU X-drop pairwise alignment of long reads (LBNL BSD-style, license.txt);
                            Makefile's -Isrc -std=c++14 (C++17 for CUDA 13's headers);
  mkorpar/swsharp           SW#, Smith-Waterman/Needleman-Wunsch alignment library (GPL-3.0,
                            LICENSE); swsharp/Makefile's -I src. Every unit but evalue.cu reaches
                            thread.h/utils.h, whose `#include <windows.h>` (under _WIN32) the
                            include rule does not look through: 1 of 12 files left;
  NVlabs/nvbio              NVIDIA's GPU bioinformatics library (FM-index, BWT/suffix sorting,
                            DP alignment: Smith-Waterman, Gotoh, edit distance) (BSD-3-Clause,
                            LICENSE); CMakeLists.txt's include dirs (the root, contrib,
                            contrib/crc, contrib/bamtools, contrib/cub, contrib/moderngpu/include),
                            -DPLATFORM_X86, -use_fast_math. The library (nvbio/) and its examples
                            (examples/) are taken, not its applications (nvBowtie, nvmem,
                            nvLighter, nvBWT, ...), tests or prototypes, nor contrib/ (vendored
                            moderngpu, lz4, ...); 14 files, no cap.
Looked at and left out by the rule: nahmedraja/GASAL2 (its one `.cu` reaches gasal.h's
configure-written absolute `/usr/local/cuda-10.1/.../cuda_runtime.h`), mgawan/ADEPT (CUDA units
are `.cpp`), weifengliu-ssslab/Benchmark_SpMV_using_CSR5 (CSR5_cuda/main.cu reaches the CUDA
samples' helper_functions.h), dumerrill/merge-spmv (gpu_spmv.cu reaches cuSPARSE; the rest is a
vendored CUB), NVIDIA/AMGX (3 of 209 units resolve: windows.h, mpi.h, cuSPARSE),
NVIDIA-Genomics-Research/GenomeWorks (3 of 55: nvToolsExt.h, not in CUDA 13, gtest),
cusplibrary/cusplibrary (its own units reach testing's unittest or thrust headers CUDA 13 dropped;
what resolves is the vendored b40c BFS library), icl-utk-edu/magma and ginkgo (as for the ninth set).
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import set_header
from heldout4_select import capped
from heldout9_select import pick_cuda
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent
NVBIO_INCLUDE = [".", "contrib", "contrib/crc", "contrib/bamtools", "contrib/cub",
                 "contrib/moderngpu/include"]


def heldout16() -> str:
    out = [set_header("sixteenth", "heldout16")]
    r = "asbschmidt/CUDASW4"; c = head(r)
    out.append(project("cudasw4", r, c, "Apache-2.0", ["LICENSE"], [], [],
                       ["-std=c++17", "--expt-relaxed-constexpr", "--extended-lambda", "-rdc=true"],
                       capped(pick_cuda(r, c, [], ["src/"]))))
    r = "albertozeni/LOGAN"; c = head(r)
    out.append(project("logan", r, c, "LBNL BSD-style", ["license.txt"], ["src"], [], ["-std=c++17"],
                       capped(pick_cuda(r, c, ["src"], ["src/"]))))
    r = "mkorpar/swsharp"; c = head(r)
    out.append(project("swsharp", r, c, "GPL-3.0", ["LICENSE"], ["swsharp/src"], [], [],
                       capped(pick_cuda(r, c, ["swsharp/src"], ["swsharp/"]))))
    r = "NVlabs/nvbio"; c = head(r)
    out.append(project("nvbio", r, c, "BSD-3-Clause", ["LICENSE"], NVBIO_INCLUDE,
                       ["PLATFORM_X86"], ["-use_fast_math"],
                       capped(pick_cuda(r, c, NVBIO_INCLUDE, ["nvbio/", "examples/"]))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout16.toml").write_text(heldout16())
