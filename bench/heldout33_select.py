#!/usr/bin/env python3
"""How the thirty-third held-out set (bench/heldout33.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout33_select.py      # -> bench/heldout33.toml

RULE, written and committed (h/heldout33, 16:00 UTC) before any candidate was fetched or measured
(only the stored index's repository names, its .cu paths and code search were looked up, to name
candidates that exist and hold CUDA sources), for optimisation and discrete solvers (SAT solvers on
GPU, combinatorial search: TSP, sudoku; GPU game-tree / MCTS rollouts; cellular automata), a domain
no earlier heldout*_select.py took (cuPDLP-C, cuPDLPx, ising-gpu, mrpso, psondimension, warp-drive,
FLAMEGPU2, ALIEN and TIGR were named or used before and are not candidates; NVIDIA/cuopt is left
out because its build needs RAFT / RMM / CCCL from its conda environment, which the task's brief
(plain nvcc projects, no big dependencies) rules out; metaheuristics (particle swarm, simulated
annealing, ant colony, genetic algorithms) are used by earlier sets and skipped; forks of a
candidate are not candidates):

  Candidates, in this order, named by domain only (none in bench/used_repos.txt nor named by an
  earlier heldout*_select.py, none chosen by how kernelport does on them):
    1. muhos/ParaFROST                    SAT solver: GPU preprocessing / inprocessing (BVE, subsumption, ERE)
    2. nicolasprevot/GpuShareSat          SAT solver: GPU clause-sharing library beside CPU solvers
    3. JerryAZR/minisat                   SAT solver: MiniSat with GPU unit propagation
    4. adamp87/MCTS                       Monte Carlo tree search with CUDA rollouts (game AI)
    5. milleniumbug/cudaGameOfLife        cellular automaton (Game of Life, block-sparse board)
    6. krocki/LOGO-TSP-Solver             TSP: GPU 2-opt local optimisation
    7. manicely6005/tsp2opt_cuda          TSP: GPU 2-opt
    8. Manomenu/gpu_sudoku                sudoku: GPU constraint propagation
    9. evcu/cuda-sudoku-solver            sudoku: GPU propagate-and-fork search
   10. ForMyPainandForMyWay/MCTS-Gobang   MCTS for Gobang with GPU rollouts
   11. algae-elbaum/cellular_automata     3-D cellular automata on GPU
   12. djjbxxz/CUDA_MCTS                  MCTS with a CUDA selection kernel
   13. adamp87/sudoku                     sudoku solver (its CUDA units, if any)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING (heldout21's rule, reused through heldout24_select.select as heldout25-32 do): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all of them if fewer
  than 10) under its source folder have every `#include` they reach resolve in the repository, the
  CUDA toolkit (CUDA 13, with its cccl/ thrust and cub) or the host compiler's search path
  (heldout2_select.resolves, read textually with heldout21's linux_text), with the include dirs of
  the project's build. This machine's CUDA 13 has no cuBLAS, cuRAND, cuFFT, cuSPARSE or cuDNN
  headers: a file that includes one (directly or through a local header) does not resolve, so it
  does not count toward qualifying and is not taken; the rule takes no stand-in headers. Likewise
  absent third-party headers (Boost, Qt, OpenGL/GLUT/GLEW, SDL, Eigen, gtest, ...), headers a build
  generates, and git submodules absent from the snapshot.
  Files of a qualifying candidate: its `.cu` files only (local headers are copied with them by
  realcorpus_build.py), under its source folder (read from its build files after the fetch and
  before any measure; the whole repository when the build names no single folder), less vendored
  third-party folders (a path component named third_party, 3rdparty, external or extern), within
  the size cap, less those whose includes do not resolve and byte-for-byte copies
  (heldout2_select.pick). A project with more than CAP = 12 such files gives 12 evenly spaced in
  path order (files[i*n//12]). Include dirs, defines and nvcc flags are those of the project's own
  build files (read after the fetch and before any measure; `-std=c++17` where the build asks for
  an older standard: CUDA 13's headers need 17; a build's -arch below CUDA 13's minimum is left
  out). Self-contained check, by the rule and not by kernelport (heldout22's): the first three
  files taken (path order; all if fewer) are compiled with `nvcc -c` and the project's flags; a
  project of which fewer than two (one if it gives one file) compile, for a reason other than
  CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not
  qualify or gives 0 files (said below). Candidates are taken in order until the set holds at
  least STOP_FILES = 45 files or STOP_PROJECTS = 10 projects (many candidates of this domain are
  single-purpose programs of one to four units: the project stop is set so the set stays thick).
EXTENSION, written and committed (h/heldout33, 16:01 UTC, before any nvcc check or measure of kernelport; only
  repository names and .cu paths of the index looked up for the candidates below) after applying the rule to
  candidates 1-13: they give 19 files in six projects (GpuShareSat 11, cudaGameOfLife 2, tsp2opt_cuda 2,
  gpu_sudoku 2, cuda-sudoku-solver 1, cellular_automata 1). ParaFROST 0 of its first 10 (src/gpu/definitions.hpp
  includes </usr/include/sys/resource.h> by absolute path, absent here where the header is under the multiarch
  folder; cache.cu also reaches the absent cuarena submodule), minisat 0/1 (mtl/IntTypes.h reaches sys/int_types.h,
  read textually), adamp87/MCTS 0/1 (curand.h), LOGO-TSP-Solver 0/1 (src/headers.h reaches sys/sysctl.h, gone from
  glibc), MCTS-Gobang 0/1 (curand_kernel.h), CUDA_MCTS and adamp87/sudoku hold no .cu. Candidates, named by domain
  only, taken next by the same rule and check in this order until the set holds at least 45 files or 10 projects:
   14. tianluoabc/CuLAP                   linear assignment problem: GPU Hungarian algorithm (Date and Nagi)
   15. suzukiiichiro/N-Queens             N-queens combinatorial search (its CUDA programs)
   16. DewgongAgarwal/LAP_6679            linear assignment problem: GPU O(n^3) / O(n^4) Hungarian algorithms
   17. ankan-ban/perft_gpu                chess move-generation game-tree search (perft) on GPU
   18. ERGO-Code/HiGHS                    LP solver: its GPU PDLP (cuPDLP-C / HiPDLP) CUDA units
Outcome of the rule (before any measure of kernelport, 16:03 UTC): candidates 14-16 qualify (CuLAP 3 of 3,
  N-Queens 10/10, LAP_6679 10/10: 12 evenly spaced of 38 and of 20 .cu); perft_gpu 0/1 (perft.cu reaches
  moderngpu-master's headers, which reach the CUDA samples' helper headers, absent) and HiGHS 0/3 (cublas_v2.h,
  cusparse.h). Check (`nvcc -c`, the build's flags, 16:02 UTC): GpuShareSat 3/3 (with its build's -dc, -rdc=true,
  read from glucose-syrup/mtl/template.mk after a first try without it failed at ptxas for an unresolved extern
  device function), cudaGameOfLife 2/2, tsp2opt_cuda 2/2, cellular_automata 1/1, CuLAP 3/3, N-Queens 3/3, LAP_6679
  3/3; cuda-sudoku-solver 0/1 for a CUDA 12 removal only (a kernel calls cudaDeviceSynchronize, device-side launch
  synchronisation, gone with CDP1): stays, and counts toward the done-when only if its original compiles;
  gpu_sudoku 1/2 (main_program.cu assigns high_resolution_clock::now() to a steady_clock::time_point, which holds
  only under MSVC, where the two clocks are one) drops out (DROPPED). The candidates are exhausted: the set is 44
  files in eight projects (GpuShareSat 11, cudaGameOfLife 2, tsp2opt_cuda 2, cuda-sudoku-solver 1,
  cellular_automata 1, CuLAP 3, N-Queens 12, LAP_6679 12), short of the 45-file stop by one, said and not patched.
  Caveats, said and not acted on: N-Queens' and LAP_6679's units are stand-alone teaching / research programs, each
  a step of a series (several N-Queens files share most of their code); LAP_6679's n3GPU/ and n4GPU/ units are
  pieces its main.cu links.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout33_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 45, 10

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    # install.sh (GPU build): src/gpu's Makefile from templates/makefile.gpu; -I../../dep (the repo's dep/: moderngpu
    # and the cuarena submodule, absent from the snapshot), --std c++17 -DNDEBUG -O3 -use_fast_math, with dep/moderngpu
    # --expt-extended-lambda --expt-relaxed-constexpr, -rdc=true (-m64 -arch=native left out)
    ("parafrost", "muhos/ParaFROST", "GPL-3.0", ["LICENSE"], ["src/gpu", "dep"], ["NDEBUG"],
     ["-std=c++17", "-O3", "-use_fast_math", "--expt-extended-lambda", "--expt-relaxed-constexpr", "-rdc=true"],
     "src/gpu/"),
    # glucose-syrup/gpu/Makefile + mtl/template.mk (release): -I$(MROOT) (the repository root), -D __STDC_LIMIT_MACROS
    # -D __STDC_FORMAT_MACROS -O3 -D NDEBUG, CUFLAGS -std=c++11 (-> 17) -arch=sm_50 (below CUDA 13's minimum: left out);
    # DEPDIR gpuShareLib is the GPU library the solver builds; its .cu rule is `nvcc ... -dc` (-rdc=true: read from
    # template.mk after the self-contained check's first try without it failed at ptxas for an extern device function)
    ("gpusharesat", "nicolasprevot/GpuShareSat", "MIT (Glucose / MiniSat)", ["LICENCE"], ["."],
     ["__STDC_LIMIT_MACROS", "__STDC_FORMAT_MACROS", "NDEBUG"], ["-std=c++17", "-O3", "-rdc=true"], "gpuShareLib/"),
    # Makefile: -I. -D __STDC_LIMIT_MACROS -D __STDC_FORMAT_MACROS, release -O3 -D NDEBUG; CUDASRCS minisat/core/*.cu
    ("minisat-gpu", "JerryAZR/minisat", "MIT (MiniSat)", ["LICENSE"], ["."],
     ["__STDC_LIMIT_MACROS", "__STDC_FORMAT_MACROS", "NDEBUG"], ["-std=c++17", "-O3"], "minisat/core/"),
    # the top CMakeLists.txt builds src/cc/* (no .cu); deprecated/src/cc/hearts/CMakeLists.txt builds ../mcts.cu with
    # include_directories(..) (deprecated/src/cc), -lineinfo -std=c++11 (-> 17)
    ("mcts-adamp87", "adamp87/MCTS", "(none in the repository)", [], ["deprecated/src/cc"], [],
     ["-std=c++17", "-lineinfo"], "deprecated/src/cc/"),
    # CMakeLists.txt: cuda_add_executable(src/*.cu ...), -std=c++11 (-> 17)
    ("cudagameoflife", "milleniumbug/cudaGameOfLife", "MIT", ["LICENSE.txt"], ["src"], [], ["-std=c++17"], "src/"),
    # Makefile (HAVE_CUDA = 1 builds src/cuda/*.cu): INCLUDE_DIRS src/solvers src/utils src src/parser src/cuda src/cl
    # src/kdtree++, NVCCFLAGS -O3 -DHAVE_CUDA
    ("logo-tsp", "krocki/LOGO-TSP-Solver", "(none in the repository)", [],
     ["src/solvers", "src/utils", "src", "src/parser", "src/cuda", "src/cl", "src/kdtree++"], ["HAVE_CUDA"],
     ["-std=c++17", "-O3"], "src/"),
    # Makefile: SRCDIR src, NVCCFLAGS -O3 -std=c++11 (-> 17) -w --use_fast_math (-Xptxas -v, sm_20..52 left out)
    ("tsp2opt", "manicely6005/tsp2opt_cuda", "MIT", ["LICENSE.txt"], ["src"], [],
     ["-std=c++17", "-O3", "-w", "--use_fast_math"], "src/"),
    # SudokuGPU/SudokuGPU.vcxproj (Release): NDEBUG, -std=c++17 (WIN32/WIN64/_CONSOLE left out)
    ("gpu-sudoku", "Manomenu/gpu_sudoku", "(none in the repository)", [], ["SudokuGPU"], ["NDEBUG"],
     ["-std=c++17"], "SudokuGPU/"),
    # run.sh: nvcc -arch sm_35 (below CUDA 13's minimum: left out) -rdc=true sudokusolver.cu
    ("cuda-sudoku-solver", "evcu/cuda-sudoku-solver", "(none in the repository)", [], [], [],
     ["-std=c++17", "-rdc=true"], ""),
    # CMakeLists.txt: CuRoll from cuda/*, include dir include/, --default-stream=per-thread (CXX 20 is the host
    # sources' standard; no CUDA standard set -> 17)
    ("mcts-gobang", "ForMyPainandForMyWay/MCTS-Gobang", "GPL-3.0", ["LICENSE"], ["include"], [],
     ["-std=c++17", "--default-stream=per-thread"], "cuda/"),
    # Makefile: nvcc -O3 -c gpu/gpu_automata_cuda.cu (sm_20..35 left out)
    ("cellular-automata", "algae-elbaum/cellular_automata", "(none in the repository)", [], ["gpu"], [],
     ["-std=c++17", "-O3"], "gpu/"),
    # the newest snapshot holds no .cu (a Visual Studio project whose kernel.cu is gone): gives 0 files
    ("cuda-mcts", "djjbxxz/CUDA_MCTS", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # the newest snapshot holds no .cu: gives 0 files
    ("sudoku-adamp87", "adamp87/sudoku", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # EXTENSION (build flags read after the fetch, before any measure)
    # build.sh: cd include; nvcc -c *.cu (no flags)
    ("culap", "tianluoabc/CuLAP", "Apache-2.0", ["LICENSE"], ["include"], [], ["-std=c++17"], "include/"),
    # no build file: each program's header says `nvcc -O3 CUDA**_N-Queen.cu`
    ("n-queens", "suzukiiichiro/N-Queens", "(none in the repository)", [], [], [], ["-std=c++17", "-O3"], ""),
    # no build file (n3GPU/ and n4GPU/ hold two programs)
    ("lap-6679", "DewgongAgarwal/LAP_6679", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # Makefile: nvcc -dc perft.cu -arch=sm_35 (below CUDA 13's minimum: left out) -O3 -Xcompiler -Ofast -std=c++11
    # (-> 17); the build compiles perft.cu alone (moderngpu-master/ is a vendored copy of moderngpu it does not build),
    # so the source path is perft.cu
    ("perft-gpu", "ankan-ban/perft_gpu", "MIT", ["LICENSE"], ["."], [],
     ["-std=c++17", "-rdc=true", "-O3", "-Xcompiler", "-Ofast"], "perft.cu"),
    # highs/CMakeLists.txt (CUPDLP_GPU): cudalin from pdlp/cupdlp/cuda/*.cu and pdlp/hipdlp/pdhg.cu, CUDA_SEPARABLE_COMPILATION,
    # CUDA_ARCHITECTURES 75;80;86 (left out: nvcc's default), include dirs highs/ and highs/pdlp/cupdlp
    ("highs-pdlp", "ERGO-Code/HiGHS", "MIT", ["LICENSE.txt"], ["highs", "highs/pdlp/cupdlp"], [],
     ["-std=c++17", "-rdc=true"], "highs/pdlp/"),
]
DROPPED = frozenset({"Manomenu/gpu_sudoku"})  # fewer than 2 of its 2 in the self-contained check (Outcome says why)


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("thirty-third", "heldout33", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
