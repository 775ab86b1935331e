#!/usr/bin/env python3
"""How the twenty-fifth held-out set (bench/heldout25.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout25_select.py      # -> bench/heldout25.toml

RULE, written and committed (h/heldout25, 00:19 UTC, commit 652fc0b) before any candidate was fetched or measured
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
EXTENSION, written and committed (00:22 UTC) after applying the rule to candidates 1-10 and before
  any nvcc check or measure: they give 15 files in three projects. rtweekend-cuda's newest snapshot
  holds main.cc only (the .cu chapters live on branches), 0 files; BrickMap 1 of its first 3
  qualify (glm, glad, GLFW, FastNoiseSIMD from vcpkg, absent here); diff-gaussian-rasterization
  0/3 (its third_party/glm submodule is not in the snapshot); the CIS565 rasterizer 0/1 (its
  util/checkCUDAError.h is not in the repository); FFmpeg cannot be fetched (the snapshot is over
  the fetch size limit); AviSynthCUDAFilters 0/10 (Windows headers); gpuRIR 0/1 (cufft.h,
  curand.h); cuda-noise 1 file, xGPU 12 (of 19: its FFT codelets; cuda_xengine.cu reaches the
  generated xgpu_version.h), gr-cuda 2. Candidates, named by domain only, taken next by the same
  rule in this order until the set holds at least 45 files or 6 projects:
   11. CIS565-Fall-2015/Project3-CUDA-Path-Tracer  a course path tracer (its base code)
   12. hhergeth/CudaTracerLib                 a path/photon tracing library
   13. ThomasKroes/exposure-render            a volume renderer (Monte Carlo volume path tracing)
   14. AcademySoftwareFoundation/openvdb      NanoVDB's CUDA volume code (nanovdb/)
   15. cascade-space-co/gr-cuda               software radio (GNU Radio CUDA DSP blocks)
   16. JLBLine/WODEN                          radio interferometer simulator (beam models, visibilities)
   17. MWATelescope/mwa_hyperdrive            radio calibration (beam and visibility modelling kernels)
   18. AmusementClub/vs-nlm-cuda              a video denoising filter (non-local means) for VapourSynth
Outcome of the rule (before any measure of kernelport, 00:27 UTC): CIS565 path tracer 0/1 (its
  util/checkCUDAError.h is not in the repository), exposure-render 0/1 (Windows/Qt headers), NanoVDB
  0/10 (read textually, its util headers reach intrin.h and tbb/ inside #if branches the rule does
  not evaluate), cascade-space-co/gr-cuda cannot be fetched (no snapshot), WODEN has no .cu in its
  newest snapshot; CudaTracerLib (5 of its first 10 qualify), mwa_hyperdrive (3/3) and vs-nlm-cuda
  (1/1) qualify. Build flags re-read before the check: cuda-noise, gr-cuda and CudaTracerLib set
  CUDA_SEPARABLE_COMPILATION ON, so their flags carry -rdc=true. Self-contained check (`nvcc -c`,
  00:26 UTC): cuda-noise 1/1, xGPU 3/3, gr-cuda 2/2, CudaTracerLib 2/3 (Material.cu: Texture.h(250)
  "type name is not allowed", a C++ front-end error, not a CUDA 13 removal), mwa_hyperdrive 3/3,
  vs-nlm-cuda 1/1: all pass, and vs-nlm-cuda is the sixth project, so the rule stops there.
  The set: 31 files in six projects, cuda-noise 1, xGPU 12 (of 19), gr-cuda 2, CudaTracerLib 12
  (of 53), mwa_hyperdrive 3, vs-nlm-cuda 1. Caveats, said and not acted on: xGPU's 12 files are
  FFT codelets of one family (src/fft/, forward and inverse, different sizes), so they weigh alike;
  mwa_hyperdrive's build also compiles its .cu with hipcc (it is already HIP-ported by its authors).
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout25_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 45, 6

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build (CMakeLists.txt, Makefile,
# Visual Studio property sheets), read after the fetch and before any measure.
CANDIDATES = [
    # Makefile: nvcc main.cu at the root (the newest snapshot's root holds main.cc only)
    ("rtweekend-cuda", "rogerallen/raytracinginoneweekendincuda", "Apache-2.0", ["LICENSE"], [], [],
     ["-std=c++17"], ""),
    # CMakeLists.txt: src/*.cu with glm, glad, glfw, FastNoiseSIMD from vcpkg (find_package)
    ("brickmap", "stijnherfst/BrickMap", "MIT", ["LICENSE"], ["src"], [], ["-std=c++17"], "src/"),
    # CMakeLists.txt: cuda_rasterizer/ with cuda_rasterizer and third_party/glm (a submodule); C++17
    ("diff-gaussian-rasterization", "graphdeco-inria/diff-gaussian-rasterization", "(non-commercial, LICENSE.md)",
     ["LICENSE.md"], ["cuda_rasterizer", "third_party/glm"], [], ["-std=c++17"], "cuda_rasterizer/"),
    # CMakeLists.txt: include dirs ., external, external/include; src/ and util/
    ("cis565-rasterizer", "CIS565-Fall-2015/Project4-CUDA-Rasterizer", "(see the repository)", [],
     [".", "external", "external/include"], [], ["-std=c++17"], "src/"),
    # examples/benchmark/CMakeLists.txt: main.cu, -arch=sm_61 -use_fast_math
    # (and CUDA_SEPARABLE_COMPILATION ON: -rdc=true)
    ("cuda-noise", "covexp/cuda-noise", "BSD-3-Clause", ["LICENSE"], ["include"], [],
     ["-std=c++17", "-use_fast_math", "-rdc=true"], ""),
    # (not fetched: the snapshot is over the fetch size limit)
    ("ffmpeg", "FFmpeg/FFmpeg", "LGPL-2.1-or-later", ["COPYING.LGPLv2.1"], ["."], [], ["-std=c++17"], "libavfilter/"),
    # Common.props: AdditionalIncludeDirectories $(SolutionDir)include;$(SolutionDir)common
    ("avisynth-cuda-filters", "nekopanda/AviSynthCUDAFilters", "(see the repository)", [],
     ["include", "common"], [], ["-std=c++17"], ""),
    # CMakeLists.txt: src/gpuRIR_cuda.cu (cuFFT, cuRAND)
    ("gpurir", "DavidDiazGuerra/gpuRIR", "AGPL-3.0", ["LICENSE"], ["src"], [], ["-std=c++17"], "src/"),
    # src/Makefile (correlator) and src/fft/Makefile (its FFT codelets): -I. each; -ftz=true
    ("xgpu", "GPU-correlators/xGPU", "GPL-3.0", ["LICENSE"], ["src", "src/fft"], [],
     ["-std=c++17", "-ftz=true", "-prec-sqrt=false"], "src/"),
    # lib/CMakeLists.txt: lib/*.cu into gnuradio-cuda-cu, include dirs include, lib; CUDA_SEPARABLE_COMPILATION ON
    ("gr-cuda", "gnuradio/gr-cuda", "GPL-3.0 (per its source headers; no license file in the repository)", [],
     ["include", "lib"], [], ["-std=c++17", "-rdc=true"], "lib/"),
    # EXTENSION
    # CMakeLists.txt: include dirs ${EXTERNAL}, ${EXTERNAL}/include (external/), .; src/ and stream_compaction/
    ("cis565-pathtracer", "CIS565-Fall-2015/Project3-CUDA-Path-Tracer", "(see the repository)", [],
     [".", "external", "external/include"], [], ["-std=c++17"], ""),
    # CMakeLists.txt: include dirs the root, ext, ext/ext-boost; CMAKE_CXX_STANDARD 17;
    # CUDA_SEPARABLE_COMPILATION ON (-rdc=true); the .cu under Base/ Engine/ Integrators/ ...
    ("cudatracerlib", "hhergeth/CudaTracerLib", "MIT", ["LICENSE"], [".", "ext", "ext/ext-boost"], [],
     ["-std=c++17", "-rdc=true"], ""),
    # Source/CMakeLists.txt: Source/core.cu with its Source/*.cuh
    ("exposure-render", "ThomasKroes/exposure-render", "(see the repository)", [], ["Source"], [],
     ["-std=c++17"], "Source/"),
    # nanovdb/nanovdb/CMakeLists.txt: include dir nanovdb/ (../), examples add ex_util;
    # CMAKE_CUDA_FLAGS --extended-lambda -use_fast_math; C++17
    ("nanovdb", "AcademySoftwareFoundation/openvdb", "Apache-2.0", ["LICENSE"],
     ["nanovdb", "nanovdb/nanovdb/examples/ex_util"], [], ["-std=c++17", "--extended-lambda", "-use_fast_math"],
     "nanovdb/nanovdb/"),
    # (no snapshot can be had)
    ("gr-cuda-cascade", "cascade-space-co/gr-cuda", "GPL-3.0", ["COPYING"], ["include", "lib"], [],
     ["-std=c++17"], "lib/"),
    # CMakeLists.txt (no .cu files in the newest snapshot)
    ("woden", "JLBLine/WODEN", "MPL-2.0", ["LICENSE"], ["include"], [], ["-std=c++17"], ""),
    # build.rs: every src/gpu/*.cu with the cc crate's nvcc defaults (double precision by default)
    ("mwa-hyperdrive", "MWATelescope/mwa_hyperdrive", "MPL-2.0", ["LICENSE", "LICENSE-NVIDIA"], ["src/gpu"], [],
     ["-std=c++17"], "src/gpu/"),
    # CMakeLists.txt: source/kernel.cu with VS_INCLUDE_DIR and the build folder (config.h)
    ("vs-nlm-cuda", "AmusementClub/vs-nlm-cuda", "GPL-3.0", ["LICENSE"], ["source"], [], ["-std=c++17"], "source/"),
]


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("twenty-fifth", "heldout25", CANDIDATES, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
