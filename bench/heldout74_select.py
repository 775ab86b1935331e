#!/usr/bin/env python3
"""How the seventy-fourth held-out set (bench/heldout74.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout74_select.py      # -> bench/heldout74.toml

RULE, written and committed (h/heldout74, 07:33 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for computational optics and holography:
computer-generated holograms (point-source superposition, phase patterns for spatial light
modulators and holographic optical tweezers), wave-optics reconstruction (in-line digital
holographic microscopy, optical diffraction tomography), adaptive optics and coded wavefront
sensing, lens / camera optics simulation (light-field camera image formation, refraction and
dispersion through lenses and droplets).
NARROWED where it overlaps: heldout42 took "computational optics and photonics" and named HOTlab
(MartinPersson and ILLIXR), Openholo, Holovibes, OCTproZ, vortex-oct, OFDI, COSMIC-RTC/compass,
lianqiw/maos, libtike-cufft and ptychopy: none of those here, and no optical coherence tomography
and no ptychography (heldout42's sub-domains not re-taken); not FDTD electromagnetics (heldout23),
photon-transport Monte Carlo (heldout7/23/32/34: mcx, MCML, CUDAMCFL, photon propagation), medical
image reconstruction (heldout32), rendering path tracers (heldout10/18/20/25/36: the droplet
candidate below traces physical refraction and dispersion through a water sphere onto a screen, an
optics experiment, not a renderer), nor radio beams (heldout25/34). Other tasks of this stop
(agent-based / swarm, atmosphere / ocean / climate / hydrology, game physics) are not taken: the
adaptive-optics candidates sense and correct wavefronts, they model no atmosphere. The EXTENSION
domain the brief offers (audio and acoustics DSP) overlaps heldout42's extensions (speech, music,
audio effects) and heldout56 (audio effects, synthesis, room acoustics FDTD), heldout25 (gpuRIR),
heldout32/41/70 (ultrasound, sonar and radar beamforming): if it is needed its candidates are
narrowed to microphone-array (airborne sound) beamforming and geometric (ray / image-source) room
acoustics outside gpuRIR, named by domain only, none in bench/used_repos.txt or an earlier select
script, written and committed before they are fetched. None below is in bench/used_repos.txt or
named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. voschezang/Holographic-Projector-Simulations  computer-generated holograms: point-source superposition
                                         (holographic projector), brute force and Monte Carlo estimators
    2. Molecular-Nanophotonics/SLMLab    phase patterns for spatial light modulators (holographic optical tweezers)
    3. vikroe/phasereconstruction        in-line digital holographic microscopy: iterative / FISTA phase reconstruction
    4. vccimaging/MegapixelAO            adaptive optics: coded wavefront sensor solver, SLM closed loop
    5. vccimaging/PhaseIntensityMicroscope  coded wavefront sensing: quantitative phase and intensity retrieval
    6. BMOLKAIST/Inverse_solver          optical diffraction tomography: inverse scattering solvers, phase unwrapping
    7. lalitkrajendran/photon            camera optics simulation: light-field / lens image formation by ray tracing
    8. dogrego/gpgpu-rainbow-raytracer   geometric optics: refraction and dispersion through water droplets (rainbow)
    9. Molecular-Nanophotonics/SLM-Playground  spatial light modulator phase computation (a CUDA DLL)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout73's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here:
  optics codes that include cufft.h in a unit do not resolve) or the host compiler's search path,
  with the include dirs of the project's build; absent third-party headers (OpenCV, MATLAB's mex.h,
  LabVIEW, glm), generated headers and absent submodules do not resolve, and no stand-in headers are
  taken. Files: `.cu` only under the source folder read from the build files after the fetch and
  before any measure (the whole repository when the build names no single folder), less vendored
  folders (third_party, 3rdparty, external, extern), over the size cap, not resolving, or
  byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order. Include dirs,
  defines and flags from the project's own build (`-std=c++17` where it asks for older; an -arch
  below CUDA 13's minimum left out). Self-contained check: the first three files taken (all if
  fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two (one
  if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED), as
  does one that cannot be fetched, does not qualify or gives 0 files. Candidates are taken in order
  until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects. If fewer than 4
  projects qualify, the EXTENSION domain (narrowed as above) applies.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout74_before.txt, and with rocThrust / hipCUB bench/scoreboard_heldout74_rocmlibs.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("holoprojector", "voschezang/Holographic-Projector-Simulations", "", [], [], [], ["-std=c++17"], ""),
    ("slmlab", "Molecular-Nanophotonics/SLMLab", "", [], [], [], ["-std=c++17"], ""),
    ("phasereconstruction", "vikroe/phasereconstruction", "", [], [], [], ["-std=c++17"], ""),
    ("megapixelao", "vccimaging/MegapixelAO", "", [], [], [], ["-std=c++17"], ""),
    ("phaseintensity", "vccimaging/PhaseIntensityMicroscope", "", [], [], [], ["-std=c++17"], ""),
    ("inverse-solver", "BMOLKAIST/Inverse_solver", "", [], [], [], ["-std=c++17"], ""),
    ("photon", "lalitkrajendran/photon", "", [], [], [], ["-std=c++17"], ""),
    ("rainbow", "dogrego/gpgpu-rainbow-raytracer", "", [], [], [], ["-std=c++17"], ""),
    ("slm-playground", "Molecular-Nanophotonics/SLM-Playground", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("seventy-fourth", "heldout74", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
