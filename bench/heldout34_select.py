#!/usr/bin/env python3
"""How the thirty-fourth held-out set (bench/heldout34.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout34_select.py      # -> bench/heldout34.toml

RULE, written and committed (h/heldout34, 15:59 UTC) before any candidate was fetched or measured
(only the stored index's repository names and code search were looked up, to name candidates that
exist and hold CUDA sources), for physics experiments and observational science: radio
interferometry (calibration, beam models, gridding), pulsar and transient search (dedispersion,
acceleration search), gravitational-wave waveforms and searches, high-energy-physics track
reconstruction, plasma / particle-in-cell codes. Astronomy was taken three times before
(heldout11, 20, 25): their repositories (dedisp, astro-accelerate, bifrost, xgpu, mwa_hyperdrive,
WODEN, gwmcmc, ...) are in bench/used_repos.txt or named by those rules and are not candidates.

  Candidates, in this order, named by domain only (none in bench/used_repos.txt nor named by an
  earlier heldout*_select.py, none chosen by how kernelport does on them):
    1. nlesc-dirac/sagecal                radio interferometric calibration and imaging (its CUDA kernels)
    2. MWATelescope/mwa_hyperbeam         MWA primary-beam model (its CUDA beam kernels)
    3. astrooman/dedisperse               incoherent dedispersion of filterbank data (transient search)
    4. ewanbarr/peasoup                   pulsar acceleration search (dedispersion, harmonic sums, folding)
    5. mikekatz04/BBHx                    gravitational-wave waveforms of massive black-hole binaries, likelihoods
    6. mikekatz04/GBGPU                   gravitational-wave galactic-binary waveforms (LISA)
    7. mikekatz04/lisa-on-gpu             LISA instrument response (TDI) for gravitational waves
    8. dcampora/cu_forward                LHCb VELO track reconstruction (search by triplet)
    9. SegmentLinking/TrackLooper         CMS line-segment tracking (mini-doublets, segments, triplets)
   10. snytav/Gurthang                    particle-in-cell plasma simulation
   11. psc-code/psc                       particle-in-cell plasma code (its CUDA pushers and depositions)
   12. ammarhakim/gkylzero                plasma kinetic / fluid solvers (Gkeyll's CUDA kernels)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout32's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuBLAS, cuRAND, cuFFT, cuSPARSE, cuDNN headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers, generated headers and absent submodules do not resolve, and no stand-in
  headers are taken. Files: `.cu` only under the source folder read from the build files after the
  fetch and before any measure (the whole repository when the build names no single folder), less
  vendored folders (third_party, 3rdparty, external, extern), over the size cap, not resolving, or
  byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order. Include dirs,
  defines and flags from the project's own build (`-std=c++17` where it asks for older; an -arch
  below CUDA 13's minimum left out). Self-contained check: the first three files taken (all if
  fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two
  (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out
  (DROPPED), as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are
  taken in order until the set holds at least STOP_FILES = 45 files or STOP_PROJECTS = 7 projects.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout34_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 45, 7

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES: list = []
DROPPED: frozenset[str] = frozenset()


def heldout34() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("thirty-fourth", "heldout34", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout34.toml").write_text(heldout34())
