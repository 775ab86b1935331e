#!/usr/bin/env python3
"""How the ninth held-out set (bench/heldout9.toml) was chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout9_select.py      # -> bench/heldout9.toml

Rule, written down before anything was measured on these projects (that of the fourth to seventh
sets, bench/heldout4_select.py), for scientific and numerical libraries: public CUDA projects that
no test, corpus, labelled or held-out set has used (tests/realcorpus/manifest.toml,
bench/heldout*.toml, tests/labelled*/), whose CUDA files build with plain include dirs. Files as
for the second to seventh sets (heldout2_select.pick: every CUDA file under the project's CUDA
folder within the size cap, less those whose includes do not resolve here and byte-for-byte
copies), where a library keeps its kernels in `.cuh` headers its `.cuh` files count too (`nvcc -x
cu -c` compiles a header as a translation unit; one that is a fragment of its includer fails
there and leaves the HIP figure's denominator); a project with more than FULL such files gives
every second of them in path order (heldout4_select.capped). Never chosen by how kernelport does
on a file: the set was measured on main as it was before anyone changed code for it
(bench/scoreboard_heldout9_baseline.txt).

Projects (include dirs, defines and flags are those of each project's own build):
  CODARcode/MGARD            a compression library for scientific data: its legacy CUDA backend's
                             parallel Huffman codec (`src/cuda/ParallelHuffman/*.cu` and
                             `include/cuda/ParallelHuffman/*.cuh`: histograms, canonical codebooks,
                             a parallel merge, cooperative groups) (Apache-2.0, LICENSE);
                             CMakeLists.txt's MGARD_ENABLE_LEGACY_CUDA: include dir `include`, the
                             define, and --expt-relaxed-constexpr -w with separable compilation
                             (-rdc). Its other units (the grid/linear/iterative processing kernels,
                             quantisation, the workflow) instantiate every kernel for 5 dimensions x
                             2 types: one `nvcc -c` (CoefficientRestore.cu, InterpCalcCoeff_3D.cu)
                             ran 11 minutes here on the shared 2 CPUs without finishing, so the
                             originals could not be measured; left out for that cost alone (decided
                             before any port of them was compiled);
  astra-toolbox/astra-toolbox
                             a tomography library: 2-D/3-D forward and back projectors (texture
                             objects, constant memory) (GPL-3.0, COPYING); build/linux/Makefile.in's
                             NVCCFLAGS: -Iinclude -Ilib/include -DASTRA_CUDA -DASTRA_BUILDING_CUDA
                             (the four files that reach cufft.h drop out by the rule);
  gpufit/Gpufit              a curve-fitting library: Levenberg-Marquardt kernels, Gauss-Jordan
                             solver, fit models and estimators as `.cuh` device code (MIT,
                             LICENSE.txt); Gpufit/CMakeLists.txt's include dir `Gpufit`, USE_CUBLAS
                             off (its default; cuBLAS's headers are not installed here);
  FLAMEGPU/FLAMEGPU2         an agent-based simulation library: its runtime's CUDA units and
                             `.cuh` headers (AGPL-3.0, LICENSE.md); include dir `include`, the
                             defines of src/CMakeLists.txt's defaults (FLAMEGPU_SEATBELTS=1, the
                             Philox curand engine) and cmake/common.cmake's
                             --expt-relaxed-constexpr (files reaching glm, jitify, curand or the
                             visualiser drop out by the rule).
Looked at and left out by the rule: icl-utk-edu/magma (every magmablas `.cu` reaches the
CMake-generated magma_config.h and cublas_v2.h; its `.cuh` that resolve are fragments of
magma_internal.h's includers), arrayfire/arrayfire (af/version.h and af/compilers.h are
CMake-generated; 2 of 85 files left), BVLC/caffe (glog, gflags, protobuf-generated caffe.pb.h,
cuBLAS, cuRAND), NVlabs/tiny-cuda-nn (fmt and its other dependencies are git submodules, not in
the snapshot), stotko/stdgpu (CMake-generated stdgpu/config.h; 2 of 47 files left),
ginkgo-project/ginkgo (CMake-generated ginkgo/config.hpp, hwloc, cuBLAS/cuSPARSE),
QMCPACK/qmcpack (its AFQMC kernels reach cuBLAS/cuRAND/cuSOLVER/NCCL; its `.cuh` resolve but are
declarations only), fixstars/libSGM (CMake-generated libsgm_config.h, OpenCV),
cholla-hydro/cholla (cuFFT, MPI, HDF5; one file left), LLNL/sundials (sundials_config.h, MPI),
3dem/relion (two files left). NVIDIA/cuCollections resolves (74) but is a libcu++/CUB/Thrust
library: its ports need libhipcxx, hipCUB and rocThrust, none packaged with this machine's ROCm
(Debian 12), so the set would measure the install rather than kernelport (and its ROCm fork
hipCollections is already a labelled source); left out.
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import pick, set_header
from heldout4_select import capped
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent
CUDA_FILE = r"\.cuh?$"


def pick_cuda(repo: str, commit: str, incdirs: list[str], prefixes: list[str]) -> list[str]:
    """heldout2_select.pick over `.cu` and `.cuh` files under each prefix, in path order."""
    return sorted(f for pre in prefixes for f in pick(repo, commit, incdirs, pre, CUDA_FILE))


def heldout9() -> str:
    out = [set_header("ninth", "heldout9")]
    r = "CODARcode/MGARD"; c = head(r)
    out.append(project("mgard-cuda", r, c, "Apache-2.0", ["LICENSE"], ["include"],
                       ["MGARD_ENABLE_LEGACY_CUDA"],
                       ["-std=c++17", "--expt-relaxed-constexpr", "-w", "-rdc=true"],
                       capped(pick_cuda(r, c, ["include"], ["src/cuda/ParallelHuffman/",
                                                            "include/cuda/ParallelHuffman/"]))))
    r = "astra-toolbox/astra-toolbox"; c = head(r)
    inc = ["include", "lib/include"]
    out.append(project("astra", r, c, "GPL-3.0", ["COPYING"], inc,
                       ["ASTRA_CUDA", "ASTRA_BUILDING_CUDA"], ["-std=c++17"],
                       capped(pick_cuda(r, c, inc, ["cuda/"]))))
    r = "gpufit/Gpufit"; c = head(r)
    out.append(project("gpufit", r, c, "MIT", ["LICENSE.txt"], ["Gpufit"], [], ["-std=c++17"],
                       capped(pick_cuda(r, c, ["Gpufit"], [""]))))
    r = "FLAMEGPU/FLAMEGPU2"; c = head(r)
    out.append(project("flamegpu2", r, c, "AGPL-3.0", ["LICENSE.md"], ["include"],
                       ["FLAMEGPU_SEATBELTS=1", "FLAMEGPU_CURAND_Philox4_32_10"],
                       ["-std=c++17", "--expt-relaxed-constexpr"],
                       capped(pick_cuda(r, c, ["include"], [""]))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout9.toml").write_text(heldout9())
