#!/usr/bin/env python3
"""How the sixth held-out set (bench/heldout6.toml) was chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout6_select.py      # -> bench/heldout6.toml

Rule, written down before anything was measured on these projects (that of the fourth and fifth
sets, bench/heldout4_select.py): public CUDA projects that no test, corpus, labelled or held-out
set has used (tests/realcorpus/manifest.toml, bench/heldout*.toml, tests/labelled*/), with a
license, whose `.cu` files build with plain include dirs. Files as for the second to fifth sets
(heldout2_select.pick: every `.cu` under the project's CUDA folder within the size cap, less those
whose includes do not resolve here and byte-for-byte copies); a project with more than FULL such
files gives every second of them in path order (heldout4_select.capped). Never chosen by how
kernelport does on a file: the set was measured on main as it was before anyone changed code for
it (bench/scoreboard_heldout6_baseline.txt).

Projects (include dirs, defines and flags are those of each project's own build):
  NVlabs/CGBN               a warp-cooperative big-number library: groups of 4..32 lanes of a
                            warp work on one number (MIT, LICENSE); its samples' Makefiles pass
                            `-I../../include`; the library's own `.cu` parts are taken by the rule
                            like any `.cu` (most are not self-contained: their nvcc fails, and the
                            HIP figure does not count them);
  owensgroup/BGHT           GPU hash tables on cooperative-groups tiles (Apache-2.0, LICENSE),
                            CMake's include dir `include`, C++17, --expt-extended-lambda and
                            --expt-relaxed-constexpr (the gtest tests drop out by the rule);
  xmrig/xmrig-cuda          an application: a miner's CryptoNight / RandomX / KawPow kernels
                            (GPL-3.0, LICENSE), CMake's include dir `src` and the algorithm
                            defines its options turn on by default;
  b0nes164/GPUSorting       radix sorts written around the warp width (OneSweep, DeviceRadixSort;
                            MIT, LICENSE), built by its Visual Studio project with no include dirs;
  ANL-CESAR/XSBench         a scientific mini-app, the Monte Carlo cross-section lookup kernel,
                            its CUDA version (MIT-style, LICENSE), cuda/Makefile's -std=c++14
                            (raised to 17 as every set does: CUDA 13's CCCL needs it);
  CESNET/GPUJPEG            a JPEG codec's DCT / Huffman / colour kernels (BSD-2-Clause, COPYING),
                            CMake's include dir `.` (HAVE_GPUJPEG_VERSION_H is left out: it names a
                            header CMake generates).
Looked at and left out by the rule: NVIDIA/AMGX (every `.cu` reaches cusparse_v2.h or mpi.h, and
this machine has neither), sleeepyjack/warpcore (its headers need hpc_helpers and kiss_rng, other
repositories that CMake's CPM fetches), owensgroup/SlabHash (needs its SlabAlloc submodule),
cudpp/cudpp (needs the CMake-generated cudpp_config.h); ethereum-mining/ethminer (one `.cu`)
would have fitted but the set has its miner in xmrig-cuda.
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import pick, set_header
from heldout4_select import capped
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent
XMRIG_DEFINES = ["XMRIG_ALGO_CN_LITE", "XMRIG_ALGO_CN_HEAVY", "XMRIG_ALGO_CN_PICO",
                 "XMRIG_ALGO_CN_FEMTO", "XMRIG_ALGO_RANDOMX", "XMRIG_ALGO_KAWPOW",
                 "XMRIG_ALGO_CN_R", "CUB_IGNORE_DEPRECATED_CPP_DIALECT"]


def heldout6() -> str:
    out = [set_header("sixth", "heldout6")]
    r = "NVlabs/CGBN"; c = head(r)
    out.append(project("cgbn", r, c, "MIT", ["LICENSE"], ["include"], [], ["-std=c++17"],
                       capped(pick(r, c, ["include"]))))
    r = "owensgroup/BGHT"; c = head(r)
    out.append(project("bght", r, c, "Apache-2.0", ["LICENSE"], ["include"], [],
                       ["-std=c++17", "--expt-extended-lambda", "--expt-relaxed-constexpr"],
                       capped(pick(r, c, ["include"]))))
    r = "xmrig/xmrig-cuda"; c = head(r)
    out.append(project("xmrig-cuda", r, c, "GPL-3.0", ["LICENSE"], ["src"], XMRIG_DEFINES,
                       ["-std=c++17"], capped(pick(r, c, ["src"]))))
    r = "b0nes164/GPUSorting"; c = head(r)
    out.append(project("gpusorting", r, c, "MIT", ["LICENSE"], [], [], ["-std=c++17"],
                       capped(pick(r, c, []))))
    r = "ANL-CESAR/XSBench"; c = head(r)
    out.append(project("xsbench", r, c, "MIT", ["LICENSE"], [], [], ["-std=c++17"],
                       capped(pick(r, c, [], "cuda/"))))
    r = "CESNET/GPUJPEG"; c = head(r)
    out.append(project("gpujpeg", r, c, "BSD-2-Clause", ["COPYING"], ["."], [], ["-std=c++17"],
                       capped(pick(r, c, ["."]))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout6.toml").write_text(heldout6())
