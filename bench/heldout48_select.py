#!/usr/bin/env python3
"""How the forty-eighth held-out set (bench/heldout48.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout48_select.py      # -> bench/heldout48.toml

RULE, written and committed (h/heldout48, about 12:05 UTC) before any candidate was fetched or measured
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
Outcome of the rule: (filled in after the fetch, before any measure).
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
    ("fractalshark", "mattsaccount364/FractalShark", "", [], [], [], ["-std=c++17"], ""),
    ("fraktal-maus", "Funcry241/mandelbrot-fraktal-maus", "", [], [], [], ["-std=c++17"], ""),
    ("newton-fractal", "aduckinpants/cuda_newton_fractal", "", [], [], [], ["-std=c++17"], ""),
    ("groothuizen-fractal", "DCGroothuizenDijkema/Fractal", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-fractal", "etotheipi/CUDA_Fractal", "", [], [], [], ["-std=c++17"], ""),
    ("cudabuddhabrot", "Totti95U/cudabuddhabrot", "", [], [], [], ["-std=c++17"], ""),
    ("buddhabrot-mb", "maxbergmark/buddhabrot-cuda", "", [], [], [], ["-std=c++17"], ""),
    ("buddhabrot-multigpu", "bochen2029-pixel/buddhabrot-cuda-multigpu", "", [], [], [], ["-std=c++17"], ""),
    ("fractron", "rpmiller4/FractalsInNet", "", [], [], [], ["-std=c++17"], ""),
    ("mandelspace", "HendrikHuebner/mandelspace", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-mandelbox", "kiwijuice56/cuda-mandelbox", "", [], [], [], ["-std=c++17"], ""),
    ("wavefuse", "ifilot/wavefuse", "", [], [], [], ["-std=c++17"], ""),
    ("turing-barrio", "Theodoret/Parallel_2D_Jaguar-Bario-_RK2", "", [], [], [], ["-std=c++17"], ""),
    ("torrential-rainbows", "graveolensa/torrential_rainbows", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


def heldout48() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("forty-eighth", "heldout48", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout48.toml").write_text(heldout48())
