#!/usr/bin/env python3
"""How the twenty-fifth held-out set (bench/heldout25.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout25_select.py      # -> bench/heldout25.toml

RULE, written and committed (h/heldout25, 00:20 UTC) before any candidate was fetched or measured
(only the stored index's repository names were looked up, to name candidates that exist), for
graphics and signal processing (ray/path tracers, rasterisers, procedural noise, image/video
filters outside computer-vision libraries, audio/DSP, radio-astronomy correlators, software radio):

  Candidates, in this order, named by domain only (none in /work/notes/t40/used.md, none chosen by
  how kernelport does on them):
    1. rogerallen/raytracinginoneweekendincuda   a path tracer ("Ray Tracing in One Weekend" in CUDA)
    2. stijnherfst/BrickMap                      a voxel (brickmap) path tracer
    3. graphdeco-inria/diff-gaussian-rasterization  the 3D Gaussian splatting rasteriser
    4. CIS565-Fall-2015/Project4-CUDA-Rasterizer a course triangle rasteriser (its base code)
    5. covexp/cuda-noise                         procedural noise (Perlin/simplex/Worley) library
    6. FFmpeg/FFmpeg                             video filters (libavfilter's CUDA filters)
    7. nekopanda/AviSynthCUDAFilters             video filters (deinterlacing, denoising) for AviSynth
    8. DavidDiazGuerra/gpuRIR                    audio: room impulse responses (image-source method)
    9. GPU-correlators/xGPU                      radio-astronomy X-engine correlator (DSP)
   10. gnuradio/gr-cuda                          software radio (GNU Radio CUDA blocks)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING (stop 39's heldout21 rule, reused as heldout24 does): a candidate qualifies if at least
  half of its first 10 `.cu` files by path (all of them if fewer than 10) under its source folder
  have every `#include` they reach resolve in the repository, the CUDA toolkit or the host
  compiler's search path (heldout2_select.resolves, read textually with heldout21's linux_text),
  with the include dirs of the project's build. This machine's CUDA 13 has no cuFFT, cuBLAS or
  cuRAND headers (cufft.h, cublas_v2.h, curand_kernel.h absent): a file that includes one does not
  resolve and so does not count or get taken (the rule takes no stand-in headers). Files of a
  qualifying candidate: its `.cu` files only (local headers are copied with them by
  realcorpus_build.py), under its source folder (read from its build files before any measure; the
  whole repository when the build names no single folder), less vendored third-party folders (a
  path component named third_party, 3rdparty, external or extern), within the size cap, less those
  whose includes do not resolve and byte-for-byte copies (heldout2_select.pick). A project with
  more than CAP = 12 such files gives 12 evenly spaced in path order (files[i*n//12]). Include
  dirs, defines and nvcc flags are those of the project's own build files (read before any
  measure; `-std=c++17` where the build asks for an older standard: CUDA 13's headers need 17).
  Self-contained check, by the rule and not by kernelport (heldout22's): the first three files
  taken (path order; all if fewer) are compiled with `nvcc -c` and the project's flags; a project
  of which fewer than two (one if it gives one file) compile, for a reason other than CUDA 13's
  removed APIs, drops out, as does one that cannot be fetched, does not qualify or gives 0 files
  (said below). Candidates are taken in order until the set holds at least 45 files or 6 projects.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout25_baseline.txt).
"""
