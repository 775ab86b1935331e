#!/usr/bin/env python3
"""How the seventh held-out set (bench/heldout7.toml) was chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout7_select.py      # -> bench/heldout7.toml

Rule, written down before anything was measured on these projects (that of the fourth and fifth
sets, bench/heldout4_select.py): public CUDA projects that no test, corpus, labelled or held-out
set has used (tests/realcorpus/manifest.toml, bench/heldout*.toml, tests/labelled*/), whose `.cu`
files build with plain include dirs. Files as for the second to fifth sets (heldout2_select.pick:
every `.cu` under the project's CUDA folder within the size cap, less those whose includes do not
resolve here and byte-for-byte copies); a project with more than FULL such files gives every
second of them in path order (heldout4_select.capped). Never chosen by how kernelport does on a
file: the set was measured on main as it was before anyone changed code for it
(bench/scoreboard_heldout7_baseline.txt).

Projects (include dirs, defines and flags are those of each project's own build):
  deeperlearning/professional-cuda-c-programming
                             teaching code: the book's chapter examples (`examples/`; the
                             `solutions/` folder redoes the same programs), whose Makefiles pass
                             `--relocatable-device-code true` (dynamic parallelism, chapter 3) and
                             `-Xcompiler -fopenmp` (chapter 6). The repository states no license
                             (book sample code, Wiley/Wrox 2014): recorded as such; nothing of it
                             is committed here, the set is materialised from the pinned commit;
  szcompressor/cuSZ          a library: error-bounded lossy compression kernels (histograms,
                             Huffman, Lorenzo/spline predictors, statistics with warp ops and CUB)
                             (BSD-3-Clause, LICENSE); cmake/cuda.cmake's include dirs, defines
                             PSZ_USE_CUDA / _PORTABLE_USE_CUDA and --extended-lambda /
                             --expt-relaxed-constexpr (files that reach the CMake-generated
                             cusz_version.h drop out by the rule);
  src-d/kmcuda               an ML kernels library: K-means and kNN with warp shuffles
                             (Apache-2.0, LICENSE.md); src/CMakeLists.txt's -DCUDA_ARCH=61 (its
                             default), -D_MWAITXINTRIN_H_INCLUDED -D_FORCE_INLINES and OpenMP;
  fangq/mcx                  a scientific code: Monte Carlo photon transport, its random-number
                             generator units (GPL-3.0, LICENSE.txt; mcx_core.cu is over the size
                             cap), src/Makefile's -Isrc and USE_ATOMIC / SAVE_DETECTORS;
  LLNL/zfp                   a compression library's CUDA backend, src/cuda_zfp (BSD-3-Clause,
                             LICENSE), include dir `include` of src/cuda_zfp/CMakeLists.txt.
Looked at and left out by the rule: akrizhevsky/cuda-convnet2 (every file reaches cublas_v2.h or
the cuda-samples helpers), nicehash/nheqminer (Windows.h, sm_32_intrinsics.h, the miner's CPU
tree), cudpp/cudpp (its CMake-generated cudpp_config.h), tromp/cuckoo (one file), eyalroz/
cuda-api-wrappers (nvFatbin.h, not in this toolkit; three files left), NVIDIA/cub's examples
(windows.h; three left). NVIDIA/thrust's examples resolve (60) but are Thrust host programs:
their ports need rocThrust, which this machine's ROCm (Debian 12) does not package, so the set
would measure the install rather than kernelport; left out.
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import pick, set_header
from heldout4_select import capped
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent


def heldout7() -> str:
    out = [set_header("seventh", "heldout7")]
    r = "deeperlearning/professional-cuda-c-programming"; c = head(r)
    out.append(project("pro-cuda-c", r, c,
                       "none stated in the repository (book sample code, Wiley/Wrox 2014)",
                       ["README.md"], [], [],
                       ["-std=c++17", "-rdc=true", "-Xcompiler", "-fopenmp"],
                       capped(pick(r, c, [], "examples/"))))
    r = "szcompressor/cuSZ"; c = head(r)
    inc = ["psz/src", "psz/include", "portable/include", "codec/hf/include", "codec/fzg/include"]
    out.append(project("cusz", r, c, "BSD-3-Clause", ["LICENSE"], inc,
                       ["PSZ_USE_CUDA", "_PORTABLE_USE_CUDA", "PHF_USE_CUDA"],
                       ["-std=c++17", "--extended-lambda", "--expt-relaxed-constexpr"],
                       capped(pick(r, c, inc))))
    r = "src-d/kmcuda"; c = head(r)
    out.append(project("kmcuda", r, c, "Apache-2.0", ["LICENSE.md"], ["src"],
                       ["CUDA_ARCH=61", "_MWAITXINTRIN_H_INCLUDED", "_FORCE_INLINES"],
                       ["-std=c++17", "-Xcompiler", "-fopenmp"], capped(pick(r, c, ["src"]))))
    r = "fangq/mcx"; c = head(r)
    out.append(project("mcx", r, c, "GPL-3.0", ["LICENSE.txt"], ["src"],
                       ["USE_ATOMIC", "SAVE_DETECTORS"], ["-std=c++17", "-use_fast_math"],
                       capped(pick(r, c, ["src"], "src/"))))
    r = "LLNL/zfp"; c = head(r)
    out.append(project("zfp-cuda", r, c, "BSD-3-Clause", ["LICENSE"], ["include"], [],
                       ["-std=c++17"], capped(pick(r, c, ["include"], "src/cuda_zfp/"))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout7.toml").write_text(heldout7())
