#!/usr/bin/env python3
"""How the fourth held-out set (bench/heldout4.toml) was chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout4_select.py      # -> bench/heldout4.toml

Rule, written down before anything was measured on these projects: public CUDA projects that no
test, corpus, labelled or held-out set has used (tests/realcorpus/manifest.toml,
bench/heldout*.toml, tests/labelled*/), with a license, whose `.cu` files build with plain include
dirs. Files as for the second and third sets (heldout2_select.pick: every `.cu` under the
project's CUDA folder within the size cap, less those whose includes do not resolve here and
byte-for-byte copies); a project with more than FULL such files gives every second of them in
path order, so that no one project dominates the set and it can be measured in an hour on this
machine. Never chosen by how kernelport does on a file: the set was measured on main as it was
before anyone changed code for it (bench/scoreboard_heldout4_baseline.txt).

Projects (include dirs and flags are those of each project's own build):
  ArchaeaSoftware/cudahandbook  the CUDA Handbook's samples (BSD-2-Clause in each file's header
                                and CMakeLists.txt; no LICENSE file), CMake's `chLib` include dir;
  vetter/shoc                   the SHOC benchmark suite's CUDA programs (BSD-3-Clause,
                                LICENSE.md), its configure's src/common and src/cuda/common;
  alicevision/popsift           a SIFT library (MPL-2.0, COPYING.md), include dir `src` (files
                                that need its CMake-generated sift_config.h drop out by the rule);
  huggingface/candle            candle-kernels, the CUDA kernels of a Rust ML framework
                                (MIT OR Apache-2.0), its build.rs's flags.
Looked at and left out: wangzyon/NVIDIA_SGEMM_PRACTICE (2 files), NVIDIA/warp (its native code
needs warp's generated headers), the projects the labelled sets searched for lint labels.
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import pick, set_header
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent
FULL = 20  # a project with more files than this gives every second one


def capped(files: list[str]) -> list[str]:
    return files if len(files) <= FULL else files[::2]


def heldout4() -> str:
    out = [set_header("fourth", "heldout4")]
    r = "ArchaeaSoftware/cudahandbook"; c = head(r)
    out.append(project("cudahandbook", r, c, "BSD-2-Clause (in each file's header; no LICENSE file)",
                       ["README", "CMakeLists.txt"], ["chLib"], [], ["-std=c++17"],
                       capped(pick(r, c, ["chLib"]))))
    r = "vetter/shoc"; c = head(r)
    inc = ["src/common", "src/cuda/common"]
    out.append(project("shoc", r, c, "BSD-3-Clause", ["LICENSE.md"], inc, [], ["-std=c++17"],
                       capped(pick(r, c, inc, "src/cuda/"))))
    r = "alicevision/popsift"; c = head(r)
    out.append(project("popsift", r, c, "MPL-2.0", ["COPYING.md"], ["src"], [], ["-std=c++17"],
                       capped(pick(r, c, ["src"], "src/"))))
    r = "huggingface/candle"; c = head(r)
    out.append(project("candle-kernels", r, c, "MIT OR Apache-2.0", ["LICENSE-MIT", "LICENSE-APACHE"],
                       [], [], ["-std=c++17", "--expt-relaxed-constexpr", "-O3"],
                       capped(pick(r, c, [], "candle-kernels/"))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout4.toml").write_text(heldout4())
