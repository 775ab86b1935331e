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
Outcome of the rule (before any measure of kernelport, 07:36 UTC): candidates 1-9 all fetched. Public optics CUDA puts
  cuFFT, cuRAND, cuBLAS or a host library in nearly every unit: Holographic-Projector-Simulations 2 of its 7 (cuda/:
  curand.h / curand_kernel.h, cuBLAS), SLMLab 0 of 1 (SLMLabDLL/kernel.cu: cufft.h), phasereconstruction 1 of 5 (cufft.h,
  OpenCV), MegapixelAO 0 of 5 (cufft.h, the CUDA samples' helper_cuda.h / helper_functions.h, GLFW, OpenCV),
  PhaseIntensityMicroscope 0 of 3 (cufft.h, helper_cuda.h), Inverse_solver 0 of 10 (MATLAB's mex.h, cufft.h), photon 0
  (its one built unit reaches curand_kernel.h; the source given as the unit's path), gpgpu-rainbow-raytracer 0 of 2
  (curand_kernel.h); SLM-Playground 1 of 1 (MyCUDA.cu). One project qualifies, so the EXTENSION applies.
EXTENSION and SECOND ROUND, written and committed (h/heldout74, 07:36 UTC) after the rule was applied to candidates 1-9,
  before any candidate below was fetched and before any measure of kernelport (only repository names, file lists and
  code search looked up): the narrowed EXTENSION domain (microphone-array beamforming, geometric room acoustics
  outside gpuRIR) gave no repository with CUDA sources in the stored index (code searches for delay-and-sum /
  steered-response-power microphone beamformers and ray / image-source room acoustics returned ultrasound and radio
  beamformers, MATLAB gpuArray, numba and OptiX codes, all outside the narrowed domain or without .cu), so it names
  none. As heldout56 did, a second round of the optics domain, named by domain only, none in bench/used_repos.txt or
  named by an earlier select script, is taken next by the same rule and check in this order:
   10. Openhologram/OpenHologram            computer-generated holograms from depth maps and point clouds (KETI's
                                         first public release; a separate repository from heldout42's Openhologram/Openholo)
Outcome of the SECOND ROUND (before any measure, 07:37 UTC): OpenHologram 0 of its 1 .cu at its newest snapshot
  (OpenHolo_DepthMap/Hologram/src/HologramKernel.cu reaches cufft.h). The set still holds 1 file in one project, so a
  THIRD ROUND, written and committed (h/heldout74, 07:36 UTC) before its candidates were fetched and before any measure
  (only repository names, file lists and code search looked up), takes optical interferometry and structured-light
  phase retrieval (fringe-pattern phase extraction and unwrapping: wave-optics measurement, none of heldout42's
  sub-domains), named by domain only, by the same rule and check in this order:
   11. TWANG006/G-LS3U                      interferometric fringe patterns: reference-based dynamic phase retrieval,
                                         windowed Fourier filtering, random phase-shift extraction (AIA)
   12. YuhuaXu/PhaseUnwrapping              structured-light phase unwrapping (reference-image PatchMatch on the GPU)
Outcome of the THIRD ROUND (before any measure, 07:39 UTC): G-LS3U 0 of its first 10 (MKL's mkl.h, cufft.h, OpenCV;
  its Utils/helper_cuda.h is in the repository), PhaseUnwrapping 0 of 1 (OpenCV, curand_kernel.h). Check (`nvcc -c`, the
  build's flags): SLM-Playground 0/1: MyCUDA.cu (a SAXPY example of a LabVIEW DLL, not optics) declares its entry point
  `extern "C" __declspec(dllexport)`, which nvcc on Linux rejects: a Windows-only source, not a CUDA 13 removal, so it
  drops out (DROPPED below). The optics domain gives 0 files.
EXTENSION, second round, written and committed (h/heldout74, 07:37 UTC) before any candidate below was fetched and before
  any measure of kernelport (only repository names, file lists and code search looked up): the narrowed sub-domains
  of the committed EXTENSION gave, on a further search, one repository with CUDA sources: airborne-ultrasound
  phased-array beamforming / acoustic holography (transducer arrays rather than microphone arrays: the same steering
  mathematics in emission; said here as a widening). So that the set measures something, audio DSP outside every
  repository heldout42 / heldout56 named is added: this overlaps heldout56's sub-domain "audio effects" (not its
  repositories), said openly. Named by domain only, none in bench/used_repos.txt or an earlier select script, taken
  by the same rule and check in this order:
   E1. shinolab/autd3-backend-cuda          airborne-ultrasound phased arrays: multi-focus acoustic holography (GS-PAT,
                                         LM, Gerchberg-Saxton) on the GPU
   E2. tskare/gpuaudiobench                 audio DSP benchmarks: FIR / IIR filters, gain, modal synthesis, waveguides
   E3. Stimmer02/CU.Pressor                 audio effect: multiband compressor plugin (VST3) processing units
Outcome of the EXTENSION's second round (before any measure of kernelport, 07:39 UTC): E1-E3 fetched.
  autd3-backend-cuda 1 (cuda_src/kernel.cu, 1 of 1 resolves), gpuaudiobench 0 of its first 10 (every unit reaches
  bench_utils.cuh, which includes the CUDA samples' helper_cuda.h, outside the repository; three reach cufft.h),
  CU.Pressor 10 of its 12 (9 of its first 10 resolve; ProcessingUnit_fftBandSplit.cu and ProcessingUnit_volume.cu's
  path order puts the cufft.h-reaching fftBandSplit unit out; 10 files under CAP). Check (`nvcc -c`, the build's
  flags, 07:39 UTC): autd3-backend-cuda 1/1, CU.Pressor 3/3. The set: 11 files in two projects (autd3-cuda 1,
  cupressor 10), none of them optics: the optics domain and its narrowed extension give no file that qualifies.
  Caveats, said and not acted on: 11 files in two projects, 10 from one plug-in library (buffers and processing units
  of one compressor); the brief's domain is not represented (public optics CUDA reaches cuFFT / cuRAND / cuBLAS /
  OpenCV / mex.h almost everywhere, and the one unit without them is a Windows-only SAXPY example).
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
    # cuda/Makefile: nvcc main.cu -l curand -l cublas -std=c++14 (-> 17), -arch=compute_70 -code=sm_70 (below CUDA 13's
    # minimum, left out); the .cu under cuda/ (the repository root's kernel.cu / main.cu are older copies outside it)
    ("holoprojector", "voschezang/Holographic-Projector-Simulations", "MIT (see LICENSE)", ["LICENSE"], [], [],
     ["-std=c++17"], "cuda/"),
    # SLMLabDLL/SLMLab.vcxproj (the DLL the LabVIEW front end loads; Backups/ holds older copies and a vendored HOTlab):
    # Release|x64 NDEBUG, _CONSOLE (WIN32, WIN64 left out on Linux), kernel.cu; cufft.lib linked
    ("slmlab", "Molecular-Nanophotonics/SLMLab", "(none in the repository)", [], [], ["NDEBUG", "_CONSOLE"],
     ["-std=c++17"], "SLMLabDLL/"),
    # CUDAFiles/CMakeLists.txt: src/*.cu, include dir CUDAFiles/include (and OpenCV's), -std=c++14 (-> 17),
    # CUDA_SEPARABLE_COMPILATION ON (-rdc=true), -arch compute_30 (below CUDA 13's minimum, left out)
    ("phasereconstruction", "vikroe/phasereconstruction", "MIT (see LICENSE)", ["LICENSE"], ["CUDAFiles/include"], [],
     ["-std=c++17", "-rdc=true"], "CUDAFiles/src/"),
    # ao/CMakeLists.txt: library flowCUDA from ao/src/*.cu and the projects' / tests' executables under ao/;
    # include_directories(deps utils src, the CUDA samples' common/inc: outside the repository), CXX_STANDARD 11 (-> 17)
    ("megapixelao", "vccimaging/MegapixelAO", "CC BY-NC-SA 4.0 (see LICENSE)", ["LICENSE"],
     ["ao/deps", "ao/utils", "ao/src"], [], ["-std=c++17"], "ao/"),
    # cuda/CMakeLists.txt: library cws_A_phi from cuda/src/cws_A_phi.cu and prepare_cufft_warmup.cu; include dirs
    # deps, src (and the CUDA samples' common/inc, OpenCV: outside the repository)
    ("phaseintensity", "vccimaging/PhaseIntensityMicroscope", "CC BY-NC-SA 4.0 (see LICENSE)", ["LICENSE"],
     ["cuda/deps", "cuda/src"], [], ["-std=c++17"], "cuda/src/"),
    # two mexcuda builds (Codes/CUDA_CODE/compile_CudaBorn.m: -DFFT_CUDA NVCC_FLAGS=--use_fast_math, -std=c++17;
    # Codes/sub_code/goldstein_GPU/compile_all.m: no flags), so the whole Codes/ folder
    ("inverse-solver", "BMOLKAIST/Inverse_solver", "MIT (see LICENSE)", ["LICENSE"], [], ["FFT_CUDA"],
     ["-std=c++17", "--use_fast_math"], "Codes/"),
    # cuda_codes/Release/subdir.mk (Nsight): nvcc -I../ -O3 -Xcompiler -fPIC of ../parallel_ray_tracing.cu only (the
    # folder otherwise holds a vendored library, CubicInterpolationCUDA, with its own license); compute_20 left out
    ("photon", "lalitkrajendran/photon", "GPL-3.0 (see LICENSE.txt)", ["LICENSE.txt"], ["cuda_codes"], [],
     ["-std=c++17", "-O3", "-Xcompiler", "-fPIC"], "cuda_codes/parallel_ray_tracing.cu"),
    # RainbowRayTracer/CMakeLists.txt: RainbowRayTracer.cu, CUDA_STANDARD 17, CUDA_SEPARABLE_COMPILATION ON
    ("rainbow", "dogrego/gpgpu-rainbow-raytracer", "(none in the repository)", [], [], [], ["-std=c++17", "-rdc=true"],
     "RainbowRayTracer/"),
    # LabVIEW CUDA DLL Example/MyCUDADLL/MyCUDADLL/MyCUDADLL.vcxproj: Release|x64 NDEBUG, _CONSOLE (WIN32, WIN64 left out)
    ("slm-playground", "Molecular-Nanophotonics/SLM-Playground", "(none in the repository)", [], [],
     ["NDEBUG", "_CONSOLE"], ["-std=c++17"], "LabVIEW CUDA DLL Example/"),
    # SECOND ROUND (committed before it was fetched; its build read after the fetch)
    # several Visual Studio builds (OpenHolo_DepthMap/Hologram/build/Hologram.vcxproj: include dirs .. and the solution's
    # parent, i.e. OpenHolo_DepthMap/Hologram and OpenHolo_DepthMap; OpenHolo_KETI/.../ophgen_pointcloud_gpu.vcxproj), so
    # the whole repository; Release|x64 NDEBUG, _CONSOLE (WIN32, WIN64, the Qt defines of its GUI left out)
    ("openhologram", "Openhologram/OpenHologram", "BSD-2-Clause (see LICENSE)", ["LICENSE"],
     ["OpenHolo_DepthMap/Hologram", "OpenHolo_DepthMap"], ["NDEBUG", "_CONSOLE"], ["-std=c++17"], ""),
    # THIRD ROUND (committed before they were fetched; builds read after the fetch)
    # one Visual Studio project per folder (AIA, DPRA, WFT, Utils, Test, App_DPRA), so the whole repository;
    # WFT/WFT.vcxproj: include dirs OpenCV's and $(SolutionDir)\Utils; Release NDEBUG, _WINDOWS, _USRDLL, WFT_EXPORTS,
    # WFT_FPA_DLL_EXPORTS_MODE, CUDA_API_PER_THREAD_DEFAULT_STREAM (WIN32 left out on Linux)
    ("g-ls3u", "TWANG006/G-LS3U", "MIT (see LICENSE)", ["LICENSE"], ["Utils"],
     ["NDEBUG", "_WINDOWS", "_USRDLL", "WFT_EXPORTS", "WFT_FPA_DLL_EXPORTS_MODE", "CUDA_API_PER_THREAD_DEFAULT_STREAM"],
     ["-std=c++17"], ""),
    # PatchMatch/PatchMatch/PatchMatch.vcxproj: kernel.cu (OpenCV)
    ("phaseunwrapping", "YuhuaXu/PhaseUnwrapping", "(none in the repository)", [], [], ["NDEBUG", "_CONSOLE"],
     ["-std=c++17"], "PatchMatch/"),
    # EXTENSION, second round (committed before they were fetched; builds read after the fetch)
    # build.rs (cc crate, cuda): cuda_src/kernel.cu with -cudart=shared and the sm_75..87 -gencode list (left out: the
    # scoreboard compiles for no particular GPU)
    ("autd3-cuda", "shinolab/autd3-backend-cuda", "MIT (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], "cuda_src/"),
    # cuda/Makefile (a CUDA-samples makefile): NVCCFLAGS -m64, the SMS -gencode list left out; the .cu under cuda/
    ("gpuaudiobench", "tskare/gpuaudiobench", "GPL-3.0 (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17", "-m64"], "cuda/"),
    # CMakeLists.txt (the VST3 plugin) links a prebuilt source/compressor_CUDA/lib/Compressor.lib and adds
    # source/compressor_CUDA/src as include dir; the library's .cu under that folder (no build file for it)
    ("cupressor", "Stimmer02/CU.Pressor", "GPL-3.0 (see LICENSE)", ["LICENSE"], ["source/compressor_CUDA/src"], [],
     ["-std=c++17"], "source/compressor_CUDA/src/"),
]
DROPPED = frozenset({"Molecular-Nanophotonics/SLM-Playground"})


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("seventy-fourth", "heldout74", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
