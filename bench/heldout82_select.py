#!/usr/bin/env python3
"""How the eighty-second held-out set (bench/heldout82.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout82_select.py      # -> bench/heldout82.toml

RULE, written and committed (h/heldout82, 10:22 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for camera and photography image pipelines and classic
image processing: raw (Bayer) demosaicing, white balance / colour correction, HDR merge and tone
mapping, image morphology (erode / dilate / open / close), edge detection as a project's own pipeline
(Sobel / Canny), bilateral and guided filters (and the dehazing built on them), panorama stitching and
image warping (remap, homography, pyramid blending), image resizing / pyramids.
NARROWED where it overlaps: heldout21 took computer vision, image processing and video (stereo
matching, SIFT / features, SLAM, video colour conversion, BM3D denoising, FFmpeg's and vilib's
filters / pyramids), heldout18 stereo / optical flow / feature extraction (libSGM,
cuda-efficient-features), heldout8 jetson-utils' colour conversion / resize / warp, heldout25 image /
video filters outside computer-vision libraries (FFmpeg, AviSynthCUDAFilters), heldout15 looked at
CudaSift, heldout64 stereo / denoising BP and dense CRF filtering, heldout70 hyperspectral / radar
images, heldout71 image codecs, heldout73 cryo-EM image processing, heldout32 medical imaging, heldout69
a colours / imgproc cellular-automaton project: so NO denoising (BM3D, NLM, video denoisers), no
stereo, optical flow, feature detection / matching (SIFT / ORB / FAST / Harris as features), no video
framework filter plug-ins (FFmpeg, AviSynth, VapourSynth), no video colour-space conversion or codec,
no medical, radar or hyperspectral images, no template matching, Hough transform or segmentation
(heldout8/49/51/55/58/59 named those among their domains), none of the repositories those sets named.
A Canny / Sobel counts only as a project's own edge-detection pipeline, not a toolkit sample.
No OpenCV-dependent file (a file whose includes reach OpenCV does not resolve, as usual). Not this
stop's heldout80 / heldout81: no repository whose name contains "cuda-" or "gpu-". None below is in
bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. saronic-technologies/libdebayer      raw demosaicing library (Malvar 2004, Menon 2007 kernels)
    2. sjf/cuda_demosaicing                 raw demosaicing: bilinear and AHD, colour-space steps
    3. Copper280z/cuda_debayer              Bayer demosaicing of camera frames
    4. cjolivier01/hm-cupano                panorama stitching: remap / warp, Laplacian-pyramid blending,
                                            colour / exposure adjustment
    5. kinap/canny-edge-detector            Canny edge-detection pipeline (gaussian, Sobel, NMS, hysteresis)
    6. arashsm79/parallel-canny-edge-detector  Canny edge-detection pipeline
    7. AlexanderYakovenko1/cuda_canny_filter Canny filter (separable convolutions, NMS, hysteresis)
    8. bernardelli/Bilateral-Filter-GPU     bilateral filter by the bilateral grid (splat, blur, slice)
    9. TomHeaven/Dark-Channel-Haze-Removal-with-CUDA  dark-channel dehazing with a guided filter
   10. Jimmy-Hu/TinyDIP                     image-processing library: CUDA perspective warping, bicubic
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout67's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER, NPP headers
  here) or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (OpenCV, torch, Qt, Magick++, libpng), generated headers and absent submodules do
  not resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read from
  the build files after the fetch and before any measure (the whole repository when the build names
  no single folder), less vendored folders, over the size cap, not resolving, or byte-for-byte copies;
  more than CAP = 12 gives 12 evenly spaced in path order. Include dirs, defines and flags from the
  project's own build (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left
  out). Self-contained check: the first three files taken (all if fewer) are compiled with `nvcc -c`
  and the project's flags; a project of which fewer than two (one if it gives one) compile, for a
  reason other than CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched,
  does not qualify or gives 0 files. Candidates are taken in order until the set holds at least
  STOP_FILES = 40 files or STOP_PROJECTS = 8 projects. If fewer than 4 projects qualify, the
  EXTENSION domain applies: GPU video / frame processing utilities outside heldout44/70/71 (frame
  colour-space conversion, scaling, frame interpolation), narrowed the same way, its candidates named
  by domain only, none in bench/used_repos.txt, written and committed before they are fetched.
Outcome of the rule: (filled in after the fetch, before any measure of kernelport).
The set is measured on this branch's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout82_before.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("libdebayer", "saronic-technologies/libdebayer", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-demosaicing", "sjf/cuda_demosaicing", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-debayer", "Copper280z/cuda_debayer", "", [], [], [], ["-std=c++17"], ""),
    ("hm-cupano", "cjolivier01/hm-cupano", "", [], [], [], ["-std=c++17"], ""),
    ("canny-kinap", "kinap/canny-edge-detector", "", [], [], [], ["-std=c++17"], ""),
    ("canny-arashsm79", "arashsm79/parallel-canny-edge-detector", "", [], [], [], ["-std=c++17"], ""),
    ("canny-yakovenko", "AlexanderYakovenko1/cuda_canny_filter", "", [], [], [], ["-std=c++17"], ""),
    ("bilateral-grid", "bernardelli/Bilateral-Filter-GPU", "", [], [], [], ["-std=c++17"], ""),
    ("dehaze", "TomHeaven/Dark-Channel-Haze-Removal-with-CUDA", "", [], [], [], ["-std=c++17"], ""),
    ("tinydip", "Jimmy-Hu/TinyDIP", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("eighty-second", "heldout82", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
