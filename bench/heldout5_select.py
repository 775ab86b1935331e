#!/usr/bin/env python3
"""How the fifth held-out set (bench/heldout5.toml) was chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout5_select.py      # -> bench/heldout5.toml

Rule, written down before anything was measured on these projects (that of the fourth set,
bench/heldout4_select.py): public CUDA projects that no test, corpus, labelled or held-out set has
used (tests/realcorpus/manifest.toml, bench/heldout*.toml, tests/labelled*/), with a license,
whose `.cu` files build with plain include dirs. Files as for the second to fourth sets
(heldout2_select.pick: every `.cu` under the project's CUDA folder within the size cap, less those
whose includes do not resolve here and byte-for-byte copies); a project with more than FULL such
files gives every second of them in path order (heldout4_select.capped). Never chosen by how
kernelport does on a file: the set was measured on main as it was before anyone changed code for
it (bench/scoreboard_heldout5_baseline.txt).

Projects (include dirs and flags are those of each project's own build):
  tpruvot/ccminer            an application: a GPU miner whose hash kernels share the project's
                             own cuda_helper.h / cuda_vectors.h macros (GPL-3.0, LICENSE.txt);
                             its Makefile.am's nvcc `-I.` and bundled-jansson include dir (files
                             that reach miner.h need libcurl's headers and drop out by the rule);
  moderngpu/moderngpu        a header-only CUDA kernels library's tests, demos and tutorials
                             (BSD-2-Clause, LICENSE.md), CMake's include dir `src` and its
                             --expt-extended-lambda / --expt-relaxed-constexpr;
  baidu-research/warp-ctc    an ML kernels library, the CTC loss (Apache-2.0, LICENSE), include
                             dir `include` (the test that needs its test helpers drops out);
  mumax/3                    a scientific code: the micromagnetic simulator's CUDA kernels
                             (GPL-3.0, LICENSE), compiled by cuda/Makefile one file at a time.
Looked at and left out: Xtra-Computing/thundersvm (both .cu need its CMake-generated config.h),
Tony-Tan/CUDA_Freshman (no license), lammps/lammps (snapshot over the fetch limit).
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import pick, set_header
from heldout4_select import capped
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent


def heldout5() -> str:
    out = [set_header("fifth", "heldout5")]
    r = "tpruvot/ccminer"; c = head(r)
    inc = [".", "compat/jansson"]
    out.append(project("ccminer", r, c, "GPL-3.0", ["LICENSE.txt"], inc, [], ["-std=c++17"],
                       capped(pick(r, c, inc))))
    r = "moderngpu/moderngpu"; c = head(r)
    out.append(project("moderngpu", r, c, "BSD-2-Clause", ["LICENSE.md"], ["src"], [],
                       ["-std=c++17", "--expt-extended-lambda", "--expt-relaxed-constexpr"],
                       capped(pick(r, c, ["src"]))))
    r = "baidu-research/warp-ctc"; c = head(r)
    out.append(project("warp-ctc", r, c, "Apache-2.0", ["LICENSE"], ["include"], [],
                       ["-std=c++17"], capped(pick(r, c, ["include"]))))
    r = "mumax/3"; c = head(r)
    out.append(project("mumax3", r, c, "GPL-3.0", ["LICENSE"], [], [], ["-std=c++17"],
                       capped(pick(r, c, [], "cuda/"))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout5.toml").write_text(heldout5())
