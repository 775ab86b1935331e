#!/usr/bin/env python3
"""How the thirteenth held-out set (bench/heldout13.toml) was chosen (run once; kept so the choice
is reviewable and repeatable):

    python bench/heldout13_select.py      # -> bench/heldout13.toml

Rule, written down before anything was measured on these projects (that of the fourth to
eleventh sets, bench/heldout11_select.py), for scientific codes: public CUDA projects that no
test, corpus, labelled or held-out set has used (tests/realcorpus/manifest.toml,
bench/heldout*.toml, tests/labelled*/), whose CUDA files build with plain include dirs. Files as
for the second to eleventh sets (heldout2_select.pick: every `.cu`/`.cuh` file under the
project's CUDA folder within the size cap, less those whose includes do not resolve here and
byte-for-byte copies); a project with more than FULL such files gives every second of them in
path order (heldout4_select.capped). Never chosen by how kernelport does on a file: the set was
measured on main as it was before anyone changed code for it
(bench/scoreboard_heldout13_baseline.txt).

Projects (include dirs, defines and flags are those of each project's own build):
  gamer-project/gamer        an adaptive-mesh astrophysics code (BSD-3-Clause, LICENSE); the
                             Makefile that src/configure.py writes with its defaults and
                             --gpu=true: -I include -I Model_Hydro/GPU_Hydro, -DMODEL=HYDRO ...
                             -DGPU -DSERIAL (below), nvcc -dc. 47 of its 72 `.cu` files are
                             symbolic links to the shared CPU_*.cpp sources, which reach GAMER.h
                             (MPI, HDF5, GSL, FFTW, Grackle, libyt, cuFFTDx), and 17 of the rest
                             reach the same: 2 units are left (the warp-synchronous and
                             shuffle block reductions of src/GPU_Utility);
  UK-MAC/CloverLeaf_CUDA     a 2D Lagrangian-Eulerian hydrodynamics mini-app (kernels in
                             `kernel_files/*.cuknl` included by the `*_cuda.cu` units) (GPL-3.0,
                             in every file's header; no LICENSE file); Makefile's -DNO_ERR_CHK
                             (its -DMPI_HDR selects the MPI build; MPI is not installed here);
  UK-MAC/TeaLeaf_CUDA        a 2D implicit heat-conduction mini-app (CG/Chebyshev/PPCG
                             solvers) (GPL-3.0, in the files' headers; no LICENSE file);
                             Makefile's -DNO_ERR_CHK;
  ANL-CESAR/RSBench          a Monte Carlo neutron-transport proxy (multipole cross-section
                             lookups) (MIT, LICENSE); C++17 (its cuda/Makefile's -std=c++14: CUDA 13's
                             Thrust, which its header includes, needs C++17);
  treecode/Bonsai            a gravitational N-body tree-code (tree build, multipole
                             properties, warp-level tree walks) with the b40c radix-sort
                             library it carries (`runtime/include/b40c`, warp-synchronous
                             scans and reductions) (Apache-2.0, LICENSE-2.0.txt);
                             runtime/CMakeLists.txt's include dirs include and renderer, its
                             -DKEPLER (sm_35 and newer), C++17 for CUDA 13's headers (its
                             -std=c++14); capped (most of its CUDAkernels units reach MSVC's
                             typeinfo.h or a cuPrintf.cu not in the tree and drop out).
Looked at and left out by the rule: cp2k/cp2k (5 units; libxstream), Mantevo/miniFE (3 a
variant), nest/nest-gpu (the autotools-generated config.h), nahmedraja/GASAL2 (1 unit), CERN/TIGRE (every Common/CUDA unit but gpuUtils.cu reaches
MATLAB's mex.h/tmwtypes.h; 1 of 15 left), SPECFEM/specfem3d (its src/gpu units reach mpi.h and the
configure-generated config.h; its kernels/*.cu include nothing and are compiled with
`-include mesh_constants_gpu.h`, which reaches config.h), flatironinstitute/finufft (cufft.h:
cuFFT is not installed here), cholla-hydro/cholla (global.h reaches cuFFT/hipFFT, HDF5, MPI; 1
left), AcademySoftwareFoundation/openvdb's NanoVDB (intrin.h and TBB), GPUSPH/gpusph (its
build-generated *.opt headers and Chrono), RaulPPelaez/UAMMD (Boost.Preprocessor),
ANL-CESAR/SimpleMOC-kernel
(cuRAND is not installed here).
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import set_header
from heldout4_select import capped
from heldout9_select import pick_cuda
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent

GAMER_DEFINES = ["MODEL=HYDRO", "NCOMP_PASSIVE_USER=0", "FLU_SCHEME=CTU", "LR_SCHEME=PPM",
                 "RSOLVER=HLLC", "EOS=EOS_GAMMA", "NLEVEL=10", "MAX_PATCH=1000000",
                 "PATCH_SIZE=8", "TIMING", "RANDOM_NUMBER=RNG_GNU_EXT", "OPENMP", "GPU", "SERIAL",
                 "GPU_COMPUTE_CAPABILITY=860"]


def heldout13() -> str:
    out = [set_header("thirteenth", "heldout13")]
    r = "gamer-project/gamer"; c = head(r)
    inc = ["include", "src/Model_Hydro/GPU_Hydro"]
    out.append(project("gamer", r, c, "BSD-3-Clause", ["LICENSE"], inc, GAMER_DEFINES,
                       ["-std=c++17", "-rdc=true"], capped(pick_cuda(r, c, inc, ["src/"]))))
    r = "UK-MAC/CloverLeaf_CUDA"; c = head(r)
    out.append(project("cloverleaf", r, c, "GPL-3.0 (in each file's header; no LICENSE file)",
                       ["README.md"], [], ["NO_ERR_CHK"], ["-std=c++17"],
                       capped(pick_cuda(r, c, [], [""]))))
    r = "UK-MAC/TeaLeaf_CUDA"; c = head(r)
    out.append(project("tealeaf", r, c, "GPL-3.0 (in each file's header; no LICENSE file)",
                       ["README.md"], [], ["NO_ERR_CHK"], ["-std=c++17"],
                       capped(pick_cuda(r, c, [], [""]))))
    r = "ANL-CESAR/RSBench"; c = head(r)
    out.append(project("rsbench", r, c, "MIT", ["LICENSE"], [], [], ["-std=c++17"],
                       capped(pick_cuda(r, c, [], ["cuda/"]))))
    r = "treecode/Bonsai"; c = head(r)
    inc = ["runtime/include", "runtime/renderer"]
    out.append(project("bonsai", r, c, "Apache-2.0", ["LICENSE-2.0.txt"], inc, ["KEPLER"],
                       ["-std=c++17"], capped(pick_cuda(r, c, inc, ["runtime/"]))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout13.toml").write_text(heldout13())
