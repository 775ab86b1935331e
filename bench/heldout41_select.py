#!/usr/bin/env python3
"""How the forty-first held-out set (bench/heldout41.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout41_select.py      # -> bench/heldout41.toml

RULE, written and committed (h/heldout41, 03:12 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for electronic design automation and digital hardware
simulation: gate-level logic (re-)simulation, fault simulation, RTL simulation on the GPU, static
timing analysis, global routing, placement, SPICE-like circuit simulation. No earlier set named this
domain (heldout19's quantum circuit simulation, quantumlib/qsim, is not EDA and is not a candidate).
Forks and copies of a candidate are not candidates (NVlabs/GEM's ChipFlow/GEM, ChipFlow/Loom,
ChipFlow/Jacquard, gpu-eda/Jacquard and the personal copies; DREAMPlace's many forks; RTLflow's
copies), nor tools whose CUDA is only a vendored third-party folder of another candidate.

  Candidates, in this order, named by domain only (none in bench/used_repos.txt nor named by an
  earlier heldout*_select.py, none chosen by how kernelport does on them):
    1. ManiSadati/GPU_Logic_resimulator         timing-aware gate-level logic re-simulation (ICCAD 2020 C)
    2. ADEPT-Group/GPU-Accelerated-Logic-Re-simulation  the same problem, another team's simulator
    3. dr-jaytong/logic-gate-sim                gate-level simulator for mutation and fault simulation
    4. matthewbeckler/trax_fault_sim_cuda       fault simulation (TRAX and transition faults)
    5. NVlabs/GEM                               RTL simulation: AIG mapped to a virtual Boolean processor
    6. dian-lun-lin/RTLflow                     RTL simulation with batch stimulus (RTL to CUDA)
    7. cuhk-eda/GCS-Timer                       static timing analysis (current-source model)
    8. qqq1357962/InstantGR                     GPU 3-D global routing
    9. xkdciizdkeji/papr                        global routing with a GPU maze router (GAMER)
   10. cuhk-eda/Xplace                          GPU global placement (its CUDA operators)
   11. limbo018/DREAMPlace                      GPU placement (its CUDA operators)
   12. rachelselinar/DREAMPlaceFPGA             FPGA placement (its CUDA operators)
   13. mpekatsoula/mspice                       SPICE simulator with CUDA iterative solvers
   14. risia/CUDA-SPICE-Circuit-Sim             SPICE circuit simulator (DC, transient, MOSFET models)
   15. chenxm1986/cktso-gpu                     sparse LU refactorisation for SPICE circuit matrices
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout40's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuBLAS, cuRAND, cuSPARSE, cuSOLVER, cuFFT headers here) or
  the host compiler's search path, with the include dirs of the project's build; absent third-party
  headers (PyTorch's torch/extension.h, pybind11, Eigen, Boost, ...), generated headers and absent
  submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only under the source
  folder read from the build files after the fetch and before any measure (the whole repository when
  the build names no single folder), less vendored folders (third_party, 3rdparty, external, extern),
  over the size cap, not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced
  in path order. Include dirs, defines and flags from the project's own build (`-std=c++17` where it
  asks for older; an -arch below CUDA 13's minimum left out). Self-contained check: the first three
  files taken (all if fewer) are compiled with `nvcc -c` and the project's flags; a project of which
  fewer than two (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops
  out (DROPPED), as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are
  taken in order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects
  (the brief asks for a thick set: at least 4 projects and 30 files).
  If fewer than 4 projects qualify, an EXTENSION (radar and sonar signal processing: SAR image
  formation / backprojection, pulse compression, CFAR, sonar beamforming; not software radio nor
  InSAR) is written and committed before its candidates are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout41_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES: list = []
DROPPED: frozenset = frozenset()


def heldout41() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("forty-first", "heldout41", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout41.toml").write_text(heldout41())
