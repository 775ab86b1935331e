#!/usr/bin/env python3
"""How the nineteenth held-out set (bench/heldout19.toml) was chosen (run once; kept so the choice
is reviewable and repeatable):

    python bench/heldout19_select.py      # -> bench/heldout19.toml

Rule, written down before anything was measured on these projects (that of the fourth to
seventeenth sets, bench/heldout17_select.py), for scientific simulation and numerical methods
(quantum circuit simulation, quantum chemistry, sparse algebraic multigrid solvers): public CUDA
projects that no test, corpus, labelled or held-out set has used (/work/notes/t36/used.md,
bench/heldout*.toml, tests/labelled*/), whose CUDA files build with plain include dirs. Files as
for the second to seventeenth sets (heldout9_select.pick_cuda: every `.cu`/`.cuh` file under the
named folders within the size cap, less those whose includes do not resolve here, read textually,
and byte-for-byte copies); a project with more than FULL such files gives every second of them in
path order (heldout4_select.capped). Folders are named by what they compute, before any file was
measured; never chosen by how kernelport does on a file: the set is measured on main as it was
before anyone changed code for it (bench/scoreboard_heldout19_baseline.txt).

Projects (include dirs, defines and flags are those of each project's own build):
  quantumlib/qsim           quantum circuit (Schroedinger) simulator, its CUDA apps and tests
                            (Apache-2.0, LICENSE); include dir lib (the apps' own relative includes);
  QuEST-Kit/QuEST           quantum exact simulation toolkit, its GPU backend headers
                            quest/src/gpu (MIT, LICENCE.txt); include dirs ., quest/include;
  pyscf/gpu4pyscf           GPU quantum chemistry (integrals, DFT grids, ECP, PBC, multigrid,
                            solvent) under gpu4pyscf/lib (GPL-3.0, LICENSE); include dir
                            gpu4pyscf/lib; 160 files resolve, so capped twice: every fourth taken;
                            -rdc=true (its CMake's CUDA_SEPARABLE_COMPILATION; missed by the first
                            measure, added in stop 37);
Looked at and left out: NVIDIA/AMGX (algebraic multigrid; 0 of its coarsening files under
src/classical, src/aggregation, src/energymin resolve with CMakeLists' include dirs include and
external/rapidjson/include), ctcyang/GraphBLAST (no snapshot can be had here). The set was first
drafted with four gpu4pyscf folders (15 files in all); widened to all of gpu4pyscf/lib before
anything was measured, to reach the 40-70 files aimed at.
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import set_header
from heldout4_select import capped
from heldout9_select import pick_cuda
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent


def heldout19() -> str:
    out = [set_header("nineteenth", "heldout19")]
    r = "quantumlib/qsim"; c = head(r)
    out.append(project("qsim", r, c, "Apache-2.0", ["LICENSE"], ["lib"], [], ["-std=c++17"],
                       capped(pick_cuda(r, c, ["lib"], ["apps/", "tests/"]))))
    r = "QuEST-Kit/QuEST"; c = head(r)
    out.append(project("quest", r, c, "MIT", ["LICENCE.txt"], [".", "quest/include"],
                       ["COMPILE_CUDA=1"], ["-std=c++17"],
                       capped(pick_cuda(r, c, [".", "quest/include"], ["quest/src/gpu/"]))))
    r = "pyscf/gpu4pyscf"; c = head(r)
    # -rdc=true: CUDA_SEPARABLE_COMPILATION ON in the CMakeLists of gint, gvhf, gvhf-md, gvhf-rys,
    # multigrid and pbc (32 of the 40 files; the 8 of cupy_helper, ecp, gdft and sem declare no extern
    # device variable themselves, where -rdc changes nothing but the link), added
    # after the first measure (stop 37): its units read __constant__/__device__ tables other units define
    out.append(project("gpu4pyscf", r, c, "GPL-3.0", ["LICENSE"], ["gpu4pyscf/lib"], [], ["-std=c++17", "-rdc=true"],
                       capped(capped(pick_cuda(r, c, ["gpu4pyscf/lib"],
                                        ["gpu4pyscf/lib/"])))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout19.toml").write_text(heldout19())
