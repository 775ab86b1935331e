#!/usr/bin/env python3
"""How the forty-second held-out set (bench/heldout42.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout42_select.py      # -> bench/heldout42.toml

RULE, written and committed (h/heldout42, 03:12 UTC) before any candidate was fetched or measured
(only the stored index's repository names and code search were looked up, to name candidates that
exist and hold CUDA sources), for computational optics and photonics: computer-generated holography,
digital holography, beam propagation and diffraction (Fresnel, angular spectrum), optical coherence
tomography processing, adaptive optics and wavefront reconstruction, ptychography. Not FDTD
electromagnetics (heldout23: fdtd3d, XFDTD), not photon-transport Monte Carlo (heldout7's mcx,
heldout23's MCML, heldout32's CUDAMCFL, heldout34's photon propagation), not medical imaging
reconstruction (heldout32: CT, ultrasound, MRI), not rendering (heldout18/25/36), not radio beams
(heldout25/34). None below is in bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. MartinPersson/HOTlab                 computer-generated holography: weighted Gerchberg-Saxton, Fresnel summation
    2. Openhologram/Openholo                computer-generated holography library (point cloud, depth map, mesh, light field)
    3. DigitalHolography/Holovibes          digital holography: Fresnel / angular-spectrum reconstruction, real time
    4. spectralcode/OCTproZ                 optical coherence tomography processing (k-linearisation, dispersion, IFFT)
    5. Horizon-Surgical-Systems/vortex-oct-fork  optical coherence tomography acquisition and processing
    6. patgd/OFDI-processing-CUDA           optical frequency-domain imaging (OCT) processing
    7. COSMIC-RTC/compass                   adaptive optics simulation: wavefront sensors, reconstructors, DMs
    8. lianqiw/maos                         adaptive optics simulation (MAOS): wavefront sensing, reconstruction
    9. nikitinvv/libtike-cufft              ptychography forward / adjoint operators
   10. kyuepublic/ptychopy                  ptychography reconstruction (ePIE, DM, LSQML)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout40's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here:
  optics codes that include cufft.h in a unit do not resolve) or the host compiler's search path,
  with the include dirs of the project's build; absent third-party headers, generated headers and
  absent submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only under the
  source folder read from the build files after the fetch and before any measure (the whole
  repository when the build names no single folder), less vendored folders (third_party, 3rdparty,
  external, extern), over the size cap, not resolving, or byte-for-byte copies; more than CAP = 12
  gives 12 evenly spaced in path order. Include dirs, defines and flags from the project's own build
  (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left out). Self-contained
  check: the first three files taken (all if fewer) are compiled with `nvcc -c` and the project's
  flags; a project of which fewer than two (one if it gives one) compile, for a reason other than
  CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not qualify
  or gives 0 files. Candidates are taken in order until the set holds at least STOP_FILES = 40
  files or STOP_PROJECTS = 8 projects (the brief: at least 4 projects and 30 files). If fewer than
  4 projects qualify, an EXTENSION (speech and music processing: ASR decoding, vocoders, music
  information retrieval, audio effects; not heldout25's gpuRIR nor anything it named) is written
  and committed before its candidates are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout42_baseline.txt).
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


def heldout42() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("forty-second", "heldout42", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout42.toml").write_text(heldout42())
