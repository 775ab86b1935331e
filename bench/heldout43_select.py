#!/usr/bin/env python3
"""How the forty-third held-out set (bench/heldout43.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout43_select.py      # -> bench/heldout43.toml

RULE, written and committed (h/heldout43, 06:12 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for computational materials science and reacting-flow
chemistry: phase-field models (dendritic and directional solidification, spinodal decomposition
(Cahn-Hilliard), precipitation, grain growth), discrete dislocation dynamics, kinetic Monte Carlo of
materials, and finite-rate chemical kinetics for combustion (reaction rates, stiff ODE integration of
species source terms). No earlier heldout*_select.py names phase field, dislocations, kinetic Monte
Carlo or combustion chemistry; not micromagnetics (heldout5's mumax), not molecular dynamics
(heldout23), not quantum chemistry (heldout19/28), not lattice Boltzmann or CFD solvers (heldout20/27),
not Ising / spin Monte Carlo (heldout33). None below is in bench/used_repos.txt or named by an
earlier heldout*_select.py; heldout44 (systems / data / media) names none of them.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. circs/GPU-PF                           phase field: directional solidification (Karma group), 2-D / 3-D
    2. myousefi2016/Allen-Cahn-CUDA           phase field: dendritic solidification (Allen-Cahn + heat)
    3. myousefi2016/Cahn-Hilliard-CUDA        phase field: spinodal decomposition (Cahn-Hilliard)
    4. usnistgov/phasefield-precipitate-aging phase field: precipitation in Ni superalloys (NIST)
    5. YigongQin/cuPF                         phase field: alloy solidification and grain growth (melt pool)
    6. TarletonGroup/EasyDD                   discrete dislocation dynamics: segment / surface forces
    7. manasakani/DeviceKMC                   kinetic Monte Carlo of resistive-switching devices
    8. BUAAHPL/OpenHurricane                  combustion CFD: finite-rate chemistry source terms, ODE solvers
    9. SLACKHA/pyJac                          chemical kinetics: analytical Jacobians (its CUDA sources)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout42's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (MPI, VTK, MATLAB's mex.h), generated headers and absent submodules do not
  resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read from the
  build files after the fetch and before any measure (the whole repository when the build names no
  single folder), less vendored folders (third_party, 3rdparty, external, extern), over the size cap,
  not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order.
  Include dirs, defines and flags from the project's own build (`-std=c++17` where it asks for older;
  an -arch below CUDA 13's minimum left out). Self-contained check: the first three files taken (all
  if fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two
  (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED),
  as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are taken in
  order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects. If fewer
  than 4 projects qualify, or the set holds fewer than 30 files after candidate 9, an EXTENSION
  (computational solid mechanics and structural engineering: finite-element assembly and explicit
  dynamics, peridynamics, discrete-element granular mechanics, topology optimisation; not heldout23's
  or heldout40's projects, nor anything bench/used_repos.txt holds) is written and committed before
  its candidates are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout43_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("gpu-pf", "circs/GPU-PF", "", [], [], [], ["-std=c++17"], ""),
    ("allen-cahn", "myousefi2016/Allen-Cahn-CUDA", "", [], [], [], ["-std=c++17"], ""),
    ("cahn-hilliard", "myousefi2016/Cahn-Hilliard-CUDA", "", [], [], [], ["-std=c++17"], ""),
    ("pf-precipitate", "usnistgov/phasefield-precipitate-aging", "", [], [], [], ["-std=c++17"], ""),
    ("cupf", "YigongQin/cuPF", "", [], [], [], ["-std=c++17"], ""),
    ("easydd", "TarletonGroup/EasyDD", "", [], [], [], ["-std=c++17"], ""),
    ("devicekmc", "manasakani/DeviceKMC", "", [], [], [], ["-std=c++17"], ""),
    ("openhurricane", "BUAAHPL/OpenHurricane", "", [], [], [], ["-std=c++17"], ""),
    ("pyjac", "SLACKHA/pyJac", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED: frozenset = frozenset()


def heldout43() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("forty-third", "heldout43", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout43.toml").write_text(heldout43())
