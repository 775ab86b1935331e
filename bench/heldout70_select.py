#!/usr/bin/env python3
"""How the seventieth held-out set (bench/heldout70.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout70_select.py      # -> bench/heldout70.toml

RULE, written and committed (h/heldout70, 04:56 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for radar, sonar and remote-sensing signal and image
processing: synthetic-aperture radar image formation (back-projection, range-Doppler, omega-k,
autofocus), pulse compression and matched filtering, CFAR detection, moving-target indication and
Doppler / range processing, sonar beamforming, hyperspectral image processing (spectral unmixing,
endmember extraction, anomaly and target detection, spectral matching, dimensionality reduction,
segmentation of hyperspectral cubes), lidar point processing for remote sensing. NARROWED where it
overlaps: heldout32 took ultrasound / medical beamforming (qyNut/cubf, supra, ...: no ultrasound here),
heldout37 wireless communications / SDR, heldout20/25/34 radio astronomy (no correlators, no
dedispersion, no radio-telescope beamformers), heldout49 GIS raster map algebra and LiDAR
rasterisation for mapping, heldout18 lidar perception for driving, and heldout38 took remote-sensing
InSAR (a787854/InSAR-on-Sentinel-1-TOPS-data): no interferometry here, so from ALUs (a Sentinel-1 /
PALSAR toolbox whose other algorithms are InSAR coregistration, coherence and geocoding) only its SAR
focusing folder algs/palsar-focus/ (range compression, Doppler centroid, range-Doppler algorithm) is
taken. Nothing of heldout68's quantum simulation or heldout69's cellular automata. None below is in
bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. tbensonatl/gotcha-back                  SAR back-projection image formation (GOTCHA data, video SAR)
    2. charlotte-visionlab/uncc_sar_focusing   SAR focusing: GPU back-projection and autofocus
    3. cgi-estonia-space/ALUs                  SAR focusing (PALSAR range-Doppler algorithm), algs/palsar-focus/ only
    4. CodeMonkey19940630/CUDA_Signal_Algorithm radar signal chain: echo simulation, matched filter / pulse
                                               compression, moving-target indication, 2-D CFAR, jamming models
    5. fliterui/cudaWriteByMyself              radar pulse compression, MTD (Doppler) and CFAR detection
    6. JungleComputing/cbir                    hyperspectral: SPCA dimensionality reduction, N-FINDR endmembers,
                                               linear spectral unmixing (content-based image retrieval)
    7. ngageoint/SWIRSignalDetection           SWIR / hyperspectral spectral-signature matching against a library
    8. mahossam/RHSEG-Hyperspectral-GPU        hyperspectral recursive hierarchical segmentation (HSWO)
    9. Ttl/torchbp                             SAR back-projection and polar-format imaging (PyTorch extension)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (MATLAB's mex.h, torch, GDAL, Boost, Qt, Eigen, MPI), generated headers and
  absent submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only under the
  source folder read from the build files after the fetch and before any measure (the whole
  repository when the build names no single folder), less vendored folders (third_party, 3rdparty,
  external, extern), over the size cap, not resolving, or byte-for-byte copies; more than CAP = 12
  gives 12 evenly spaced in path order. Include dirs, defines and flags from the project's own build
  (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left out). Self-contained
  check: the first three files taken (all if fewer) are compiled with `nvcc -c` and the project's
  flags; a project of which fewer than two (one if it gives one) compile, for a reason other than
  CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not qualify or
  gives 0 files. Candidates are taken in order until the set holds at least STOP_FILES = 40 files or
  STOP_PROJECTS = 8 projects. If fewer than 4 projects qualify, the EXTENSION domain applies:
  scientific visualisation (isosurface extraction / marching cubes, volume ray casting with transfer
  functions, streamline and particle tracing in flow fields) outside heldout25's and heldout36's
  renderers and heldout57's marching cubes (Juanxpeke, lurtz, KinectFusion family named there), its
  candidates named by domain only, none in bench/used_repos.txt, written and committed before they are
  fetched.
Outcome of the rule: (filled in after the fetch, before any measure of kernelport).
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout70_before.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("gotcha-back", "tbensonatl/gotcha-back", "", [], [], [], ["-std=c++17"], ""),
    ("uncc-sar-focusing", "charlotte-visionlab/uncc_sar_focusing", "", [], [], [], ["-std=c++17"], ""),
    ("alus-palsar-focus", "cgi-estonia-space/ALUs", "", [], [], [], ["-std=c++17"], "algs/palsar-focus/"),
    ("cuda-signal-algorithm", "CodeMonkey19940630/CUDA_Signal_Algorithm", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-write-by-myself", "fliterui/cudaWriteByMyself", "", [], [], [], ["-std=c++17"], ""),
    ("cbir", "JungleComputing/cbir", "", [], [], [], ["-std=c++17"], ""),
    ("swir-signal-detection", "ngageoint/SWIRSignalDetection", "", [], [], [], ["-std=c++17"], ""),
    ("rhseg-hyperspectral", "mahossam/RHSEG-Hyperspectral-GPU", "", [], [], [], ["-std=c++17"], ""),
    ("torchbp", "Ttl/torchbp", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("seventieth", "heldout70", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
