#!/usr/bin/env python3
"""How the forty-eighth held-out set (bench/heldout48.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout48_select.py      # -> bench/heldout48.toml

RULE, written and committed (h/heldout48, 11:53 UTC, commit 16280e8f) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for fractals, generative art and GPU visual demos:
escape-time fractals (Mandelbrot / Julia / Newton, deep-zoom perturbation renderers), Buddhabrot
renderers, fractal flames and iterated function systems, 3-D fractals by ray marching (Mandelbulb,
Mandelbox), reaction-diffusion and other pattern-forming demos, generative-art colourings of complex
functions. NARROWED where it overlaps: heldout25 took procedural noise (covexp/cuda-noise) and path
tracing, heldout33/39 cellular automata and game of life, heldout18/25/36 rendering (ray tracers,
rasterisers, splats): none of those here (a ray marcher of a distance-estimated fractal is this
domain, a general path tracer is not). Not heldout49's geospatial / GIS nor heldout50's password
recovery / hash cracking. No earlier heldout*_select.py's RULE names fractals, flames, attractors,
reaction-diffusion or generative art; none below is in bench/used_repos.txt or named by an earlier
heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. mattsaccount364/FractalShark          deep-zoom Mandelbrot: perturbation, high-precision reference orbits
    2. Funcry241/mandelbrot-fraktal-maus     Mandelbrot explorer (progressive / perturbation kernels, colouring)
    3. aduckinpants/cuda_newton_fractal      Newton fractals and escape-time sampling, colour pipelines
    4. DCGroothuizenDijkema/Fractal          Mandelbrot and Newton fractals (a DLL for Python)
    5. etotheipi/CUDA_Fractal                Mandelbrot / Julia tiles and IFS
    6. Totti95U/cudabuddhabrot               Buddhabrot renderer with a denoise filter
    7. maxbergmark/buddhabrot-cuda           Buddhabrot renderer
    8. bochen2029-pixel/buddhabrot-cuda-multigpu  Buddhabrot renderer on several GPUs
    9. rpmiller4/FractalsInNet               fractal flames (Fractron 9000's CUDA kernels)
   10. HendrikHuebner/mandelspace            3-D fractals by ray marching (Mandelbulb, Mandelbox, Menger)
   11. kiwijuice56/cuda-mandelbox            Mandelbox ray marcher
   12. ifilot/wavefuse                       reaction-diffusion in 3-D (Gray-Scott, Lotka-Volterra, ...)
   13. Theodoret/Parallel_2D_Jaguar-Bario-_RK2  Turing patterns (Barrio reaction-diffusion, RK2)
   14. graveolensa/torrential_rainbows       generative art: colourings of complex functions, one kernel a piece
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER, NPP headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (OpenGL / GLEW / GLUT / GLFW, SDL, Qt, ImGui, glm, Boost, the old CUDA SDK's
  cutil), generated headers and absent submodules do not resolve, and no stand-in headers are taken.
  Files: `.cu` only under the source folder read from the
  build files after the fetch and before any measure (the whole repository when the build names no
  single folder), less vendored folders (third_party, 3rdparty, external, extern), over the size cap,
  not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order.
  Include dirs, defines and flags from the project's own build (`-std=c++17` where it asks for older;
  an -arch below CUDA 13's minimum left out). Self-contained check: the first three files taken (all
  if fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two
  (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED),
  as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are taken in
  order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects (the brief:
  at least 4 projects and 30 files). If fewer than 4 projects qualify, an EXTENSION (chaos and
  dynamical-systems visualisation: bifurcation diagrams, Lyapunov-exponent maps, basins of attraction,
  strange-attractor density images; named by domain only, none in bench/used_repos.txt) is written and
  committed before its candidates are fetched.
Outcome of the rule (before any measure of kernelport, 12:10 UTC): candidates 1-14 all fetched. FractalShark 0 (its
  first 10 `.cu` files by path, the whole repository, reach gmp.h through HpSharkFloat.h, or cuda_header.cu's
  QuadDouble includes), fraktal-maus 0 (2 of its first 6 resolve: GL/glew.h, pch.hpp's GLFW), newton-fractal 12
  (evenly spaced of its 29 .cu, ui_app/third_party/ vendored), Groothuizen 0 (npp.h), CUDA_Fractal 0 (the old
  SDK's cutil_inline.h), cudabuddhabrot 2 (kernel.cu reaches Windows.h and curand), buddhabrot-mb 0 (curand_kernel.h),
  buddhabrot-multigpu 0 (src/main.cu is over the size cap), fractron 2, mandelspace 4, cuda-mandelbox 0 (1 of 3
  resolves: SFML), wavefuse 1 (rd3d.cu reaches the CMake-generated config.h), turing-barrio 1, torrential-rainbows 12
  (evenly spaced of its 271). Seven qualify, so no EXTENSION (the rule asks one under four); the candidates run out
  at 34 files before either stop. Check (`nvcc -c`, first three files): newton-fractal 3/3, cudabuddhabrot 1/2
  (denoiseFilter.cu calls fprintf(stderr, ...) without <cstdio>: a code error, not a removed API: DROPPED),
  fractron 0/2 (texture<> references, removed in CUDA 12: a removed API, so it stays and its files count only where
  the original compiles: none), mandelspace 3/3, wavefuse 0/1 (cudaDeviceProp::clockRate, removed in CUDA 13: stays),
  turing-barrio 1/1, torrential-rainbows 3/3. The set: 32 files in six projects. Caveats, said and not acted on:
  32 files (the brief asks 30 at least), torrential-rainbows' 12 are variants of one template (one colouring of a
  complex function each, the same launch code), newton-fractal's 12 are one project's library and tests.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout48_baseline.txt).
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
    # CMakeLists.txt: CUDA_STANDARD 20; HpSharkFloatLib/ (its generated_inst/ units, committed) and FractalSharkGpuLib/
    # (GPU_Render.cu), include dirs the lib folders, FractalSharkLib, FractalSharkPlatform/Common and the root;
    # --expt-relaxed-constexpr -diag-suppress=177 (--threads=0 is a build-speed flag, left out); several folders, no
    # single one: the whole repository
    ("fractalshark", "mattsaccount364/FractalShark", "GPL-3.0 (see LICENSE)", ["LICENSE"],
     [".", "FractalSharkLib", "HpSharkFloatLib", "FractalSharkPlatform/Common", "FractalSharkGpuLib"], [],
     ["-std=c++20", "--expt-relaxed-constexpr", "-diag-suppress=177"], ""),
    # CMakeLists.txt: src/*.cu, include dir src, --std=c++20 --expt-relaxed-constexpr; defines GLEW_NO_IMAGING
    # GLEW_NO_GLU CAPY_DEFAULT_ON=1 __NV_NO_VECTOR_DEPRECATION_DIAG (its -Xcompiler warning flags left out)
    ("fraktal-maus", "Funcry241/mandelbrot-fraktal-maus", "MIT (see LICENSE)", ["LICENSE"], ["src"],
     ["GLEW_NO_IMAGING", "GLEW_NO_GLU", "CAPY_DEFAULT_ON=1", "__NV_NO_VECTOR_DEPRECATION_DIAG"],
     ["-std=c++20", "--expt-relaxed-constexpr"], "src/"),
    # build.ps1 (newton_fractal.cu) and ui_app/build_*.cmd: nvcc -O2 -std=c++17 -I. -I.\src from ui_app/; two builds,
    # no single folder: the whole repository (ui_app/third_party/ is vendored)
    ("newton-fractal", "aduckinpants/cuda_newton_fractal", "(none in the repository)", [], ["ui_app", "ui_app/src"], [],
     ["-std=c++17", "-O2"], ""),
    # Makefile (nmake): nvcc -c -I./src/ src/cu_mandelbrot.cu src/cu_newton.cu
    ("groothuizen-fractal", "DCGroothuizenDijkema/Fractal", "MIT (see LICENSE)", ["LICENSE"], ["src"], [],
     ["-std=c++17"], "src/"),
    # Makefile (a CUDA-samples makefile): INCLUDES -I/usr/local/cuda/samples/common/inc (outside the repository),
    # -m64; the sm_20..52 gencode list left out; the repository's root
    ("cuda-fractal", "etotheipi/CUDA_Fractal", "(none in the repository)", [], [], [], ["-std=c++17", "-m64"], ""),
    # buddhabrot.vcxproj: kernel.cu; defines WIN32 WIN64 NDEBUG _CONSOLE (platform defines left out, NDEBUG kept)
    ("cudabuddhabrot", "Totti95U/cudabuddhabrot", "(none in the repository)", [], [], ["NDEBUG"], ["-std=c++17"],
     "buddhabrot/"),
    # no build file: the repository's root
    ("buddhabrot-mb", "maxbergmark/buddhabrot-cuda", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # build.sh: nvcc -O3 -std=c++17 src/main.cu src/lodepng.cpp (sm_80..120 gencodes left out)
    ("buddhabrot-multigpu", "bochen2029-pixel/buddhabrot-cuda-multigpu", "MIT (see LICENSE)", ["LICENSE"], [], [],
     ["-std=c++17", "-O3"], "src/"),
    # Fractron9000/Kernels/make_cuda.bat: nvcc -ptx -DWIN32 -D_MBCS (platform defines left out; compute_10 left out)
    # of kernels.cu (committed, preprocessed from kernels.c); CudaEngine/ holds an older kernels.cu: the Fractron9000 folder
    ("fractron", "rpmiller4/FractalsInNet", "GPL-2.0 (see Fractron9000/Resources/license.txt)",
     ["Fractron9000/Resources/license.txt"], [], [], ["-std=c++17"], "Fractron9000/"),
    # CMakeLists.txt: src/cuda/*.cu, CUDA_SEPARABLE_COMPILATION (-rdc=true), CUDA_STANDARD 14 (-> 17), -O3
    # --use_fast_math (-arch=sm_70 below CUDA 13's minimum, left out)
    ("mandelspace", "HendrikHuebner/mandelspace", "(see LICENSE.txt, empty)", [], [], [],
     ["-std=c++17", "-rdc=true", "-O3", "--use_fast_math"], "src/cuda/"),
    # no build file (README: nvcc on main/); main/
    ("cuda-mandelbox", "kiwijuice56/cuda-mandelbox", "MIT (see LICENSE.md)", ["LICENSE.md"], [], [], ["-std=c++17"],
     "main/"),
    # src/CMakeLists.txt: CUDA_ADD_LIBRARY of src/*.cu, CUDA_SEPARABLE_COMPILATION (-rdc=true), include dir src,
    # -std=c++17
    ("wavefuse", "ifilot/wavefuse", "GPL-3.0 (see LICENSE)", ["LICENSE"], ["src"], [], ["-std=c++17", "-rdc=true"],
     "src/"),
    # a Visual Studio solution, no flags read: the repository's root
    ("turing-barrio", "Theodoret/Parallel_2D_Jaguar-Bario-_RK2", "(none in the repository)", [], [], [],
     ["-std=c++17"], ""),
    # each folder's Makefile: nvcc -Xptxas -O3 -use_fast_math -maxrregcount=48 -c kernel.cu (-ccbin=icc left out);
    # one build a folder, no single folder: the whole repository
    ("torrential-rainbows", "graveolensa/torrential_rainbows", "(none in the repository)", [], [], [],
     ["-std=c++17", "-O3", "--use_fast_math", "-maxrregcount=48"], ""),
]
# the self-contained check: 1 of its 2 compile (a code error, not a removed API)
DROPPED = frozenset({"Totti95U/cudabuddhabrot"})


def heldout48() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("forty-eighth", "heldout48", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout48.toml").write_text(heldout48())
