#!/usr/bin/env python3
"""How the fifty-third held-out set (bench/heldout53.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout53_select.py      # -> bench/heldout53.toml

RULE, written and committed (h/heldout53, 14:59 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for extended-precision and numerical arithmetic
libraries: double-double / quad-double and multiple-precision FLOATING-POINT arithmetic on the
device, interval arithmetic, automatic differentiation on the device (forward / reverse mode, dual
numbers, tape evaluation), special-function libraries implemented in CUDA (Bessel, gamma, erf),
polynomial evaluation and root finding, quadrature. NARROWED where it overlaps: heldout15
(data61/cuda-fixnum), heldout30 (cryptography) and heldout45 (number theory, multi-limb big
integers, NVlabs/CGBN) took big-INTEGER arithmetic, so multi-limb integer libraries (GMP mpn ports,
fixnum, CGBN-like) are left out here; heldout48 took fractals, so a fractal renderer's double-double
(deep zoom) is not a candidate; heldout52 took lattice field theory (QUDA's double-single is
theirs); heldout54 takes dense matrix factorisations and eigensolvers, so a multiple-precision
library counts here for its arithmetic and level-1/2 BLAS only (no factorisation is a reason to
take it). Nothing of heldouts 48-51's domains (fractals, GIS, password cracking, NLP /
recommenders), heldout43's stiff chemistry ODEs or heldout26's finance / MCMC. None below is in
bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. aoki-t/libgqd                     double-double and quad-double arithmetic (a GQD port)
    2. kisupov/mpres-blas                multiple-precision floating point (residue number system)
    3. neilkichler/cuinterval            interval arithmetic (IEEE 1788 operations as kernels)
    4. Entrolution/echidna               automatic differentiation: tape forward / reverse / Taylor kernels
    5. mickeyouyou/cuad                  automatic differentiation (tapeless forward mode, Jacobians)
    6. stsds/CuBesselK                   special functions: modified Bessel function of the second kind
    7. Olvilock/pade-laplace             polynomial root finding (Aberth) in the Pade-Laplace method
    8. ivanbgd/CUDA_Quad_C               quadrature (rectangle, trapezoid, Simpson rules)
    9. dhmnr/cuCALC                      quadrature and numerical differentiation of device functions
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (torch, Eigen, MPI, GMP / MPFR, ADOL-C), generated headers and absent
  submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only under the source
  folder read from the build files after the fetch and before any measure (the whole repository when
  the build names no single folder), less vendored folders (third_party, 3rdparty, external,
  extern), over the size cap, not resolving, or byte-for-byte copies; more than CAP = 12 gives 12
  evenly spaced in path order. Include dirs, defines and flags from the project's own build
  (`-std=c++17` where it asks for older; an -arch below CUDA 13's minimum left out). Self-contained
  check: the first three files taken (all if fewer) are compiled with `nvcc -c` and the project's
  flags; a project of which fewer than two (one if it gives one) compile, for a reason other than
  CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not qualify
  or gives 0 files. Candidates are taken in order until the set holds at least STOP_FILES = 40 files
  or STOP_PROJECTS = 8 projects. If fewer than 4 projects qualify, the EXTENSION (Monte Carlo and
  quasi-Monte Carlo multi-dimensional integration, VEGAS-style adaptive sampling; named by domain
  only, none in bench/used_repos.txt, not heldout26's finance / MCMC) is written and committed
  before its candidates are fetched.
Outcome of the rule (before any measure of kernelport, 15:03 UTC): candidates 1-9 all fetched. libgqd 9
  (7 of its first 10 resolve), mpres-blas 0 (1 of its first 10 resolves: its tests reach MPFR, MPACK and
  garprec / CAMPARY headers not here), cuinterval 9 (tests/ reaching boost-ext ut drop out), echidna 1,
  cuad 5 (traceless_cuda.cu and coordinate_transform/ reach ADOL-C, absent; the 5 left are its Jacobian,
  matrix and vector-add trials and two cudaMalloc benchmarks), CuBesselK 1, pade-laplace 7, CUDA_Quad_C 3,
  cuCALC 4 (src/context/ and src/math/ do not resolve). Check (`nvcc -c`, first three files): libgqd 0/3
  (libgqd/inc/inline.cu uses MSVC's `__int64`: not a CUDA 13 removal) -> DROPPED; cuinterval 3/3, echidna
  1/1, cuad 3/3, CuBesselK 1/1, pade-laplace 3/3, CUDA_Quad_C 3/3, cuCALC 3/3. The stops (40 files, 8
  projects) are not reached: the candidates run out at 30 files in seven projects; seven qualify, so no
  EXTENSION. Caveats, said and not acted on: no double-double / quad-double or multiple-precision float
  library is left (libgqd dropped, mpres-blas unresolved), so the domain is carried by interval
  arithmetic, AD, a special function, root finding and quadrature; cuad's 5 files are small trials (two
  cudaMalloc benchmarks are not AD); echidna and CuBesselK give one file each.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout53_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    # libgqd/libgqd.vcxproj and test/test.vcxproj (Visual Studio, no flags read): libgqd/inc/*.cu are included as
    # headers (../libgqd/inc/...); the build names two folders, so the whole repository
    ("libgqd", "aoki-t/libgqd", "BSD-3-Clause (README.md)", ["README.md"], [], [], ["-std=c++17"], ""),
    # CMakeLists.txt: include_directories(src/ tests/); -Xcompiler=-fopenmp; CMAKE_CUDA_STANDARD 14 (-> 17); every
    # .cu is under tests/ (the library is headers under src/)
    ("mpres-blas", "kisupov/mpres-blas", "GPL-3.0 (see LICENSE)", ["LICENSE"], ["src", "tests"], [],
     ["-std=c++17", "-Xcompiler=-fopenmp"], "tests/"),
    # CMakeLists.txt: include/ (target_include_directories), cuda_std_20, --expt-relaxed-constexpr; src/, examples/
    # and tests/ are built, so the whole repository
    ("cuinterval", "neilkichler/cuinterval", "MIT (see LICENSE)", ["LICENSE"], ["include"], [],
     ["-std=c++20", "--expt-relaxed-constexpr"], ""),
    # src/gpu/kernels/*.cu compiled at run time by NVRTC (FLOAT_TYPE defaults to float in the source); no flags
    ("echidna", "Entrolution/echidna", "MIT or Apache-2.0 (see LICENSE-MIT)", ["LICENSE-MIT", "LICENSE-APACHE"], [], [],
     ["-std=c++17"], "src/gpu/kernels/"),
    # build.bash: nvcc -arch=sm_61 (left out) -std=c++11 (-> 17) -I/usr/local/adolc/include (outside the repository)
    ("cuad", "mickeyouyou/cuad", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # Makefile: NVCCFLAGS -I./include (and the CUDA include dir); CU_SOURCES src/logbesselk.cu
    ("cubesselk", "stsds/CuBesselK", "(none in the repository)", [], ["include"], [], ["-std=c++17"], "src/"),
    # CMakeLists.txt: src/*.cu src/device/*.cu, include/; CUDA_STANDARD 23 (-> 20, the newest nvcc takes),
    # CUDA_SEPARABLE_COMPILATION (-rdc=true), --extended-lambda --expt-relaxed-constexpr
    ("pade-laplace", "Olvilock/pade-laplace", "MIT (see LICENSE)", ["LICENSE"], ["include"], [],
     ["-std=c++20", "-rdc=true", "--extended-lambda", "--expt-relaxed-constexpr"], "src/"),
    # no build file: three stand-alone programs at the root
    ("cuda-quad", "ivanbgd/CUDA_Quad_C", "MIT (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    # CMakeLists.txt: include/, CMAKE_CXX_STANDARD 11 (-> 17), CUDA_SEPARABLE_COMPILATION (-rdc=true); the library's
    # sources under src/ (architecture 75 left out)
    ("cucalc", "dhmnr/cuCALC", "MIT (see LICENSE)", ["LICENSE"], ["include"], [], ["-std=c++17", "-rdc=true"], "src/"),
]
# failed the self-contained check (nvcc, 0 of its first 3: MSVC-only `__int64` in libgqd/inc/inline.cu)
DROPPED = frozenset({"aoki-t/libgqd"})


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("fifty-third", "heldout53", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
