#!/usr/bin/env python3
"""How the fourteenth held-out set (bench/heldout14.toml) was chosen (run once; kept so the choice
is reviewable and repeatable):

    python bench/heldout14_select.py      # -> bench/heldout14.toml

Rule, written down before anything was measured on these projects (that of the fourth to
thirteenth sets, bench/heldout13_select.py), for machine-learning, quantisation and dense linear
algebra kernels: public CUDA projects that no test, corpus, labelled or held-out set has used
(tests/realcorpus/manifest.toml, bench/heldout*.toml, tests/labelled*/), with a license, whose
CUDA files build with plain include dirs (no cuBLAS/cuSPARSE/cuRAND, which are not installed
here, no torch). Files as for the second to thirteenth sets (heldout2_select.pick: every
`.cu`/`.cuh` file under the project's CUDA folder within the size cap, less those whose includes
do not resolve here and byte-for-byte copies); a project with more than FULL such files gives
every second of them in path order (heldout4_select.capped). Never chosen by how kernelport does
on a file: the set was measured on main as it was before anyone changed code for it
(bench/scoreboard_heldout14_baseline.txt).

Projects (include dirs, defines and flags are those of each project's own build):
  leimao/CUDA-GEMM-Optimization  dense SGEMM/HGEMM kernels step by step (coalescing, block,
                             thread and warp tiling, vectorised loads, double buffering, WMMA
                             tensor cores) (MIT, LICENSE); CMakeLists.txt's include dir
                             `include`, C++14 (C++17 for CUDA 13's headers);
  KnowingNothing/MatmulTutorial  tensor-core matmul tutorial (ldmatrix, mma.sync, cp.async
                             multi-stage pipelines, swizzled shared memory) and a reduction
                             (Apache-2.0, LICENSE); its cmd.sh's `nvcc -arch=sm_80 -DDEBUG`;
                             the folders examples/atom, examples/matmul/this-sm80 and
                             examples/reduction (examples/matmul/mlir-gen is 43 machine-generated
                             copies of one kernel; this-sm90/this-sm100 need Hopper/Blackwell's
                             wgmma/TMA/tcgen05, which no AMD or Apple target has);
  ap-hynninen/cutt           cuTT, a tensor-transpose library (the permutations of tensor
                             contractions; warp-shuffle and shared-memory kernels, a GPU
                             performance model) (MIT, in each file's header; no LICENSE file);
                             its Makefile's -std=c++11 (C++17 for CUDA 13), -D_FORCE_INLINES;
  IST-DASLab/marlin          Marlin, the FP16xINT4 quantised GEMM kernel for LLM inference
                             (Apache-2.0, LICENSE); its setup.py builds marlin_cuda_kernel.cu
                             for sm_80 (cp.async, ldmatrix, mma.sync), C++17;
  Yinghan-Li/YHs_Sample      hand-tuned SGEMM kernels (Volta-style and Ampere cp.async
                             pipelines) and the memory-hierarchy microbenchmarks they were tuned
                             with (GPL-3.0, LICENSE); its build.sh's `nvcc -std=c++11 -arch
                             sm_${2}` (C++17 for CUDA 13; sm_80, which ampere_sgemm.cu needs).
Looked at and left out by the rule: andrewkchan/yalm (its vendored fmt/format.h reaches MSVC's
intrin.h), likejazz/llama3.cuda and wangzyon/NVIDIA_SGEMM_PRACTICE (cuBLAS), icl-utk-edu/slate
(its src/cuda units reach BLAS++'s blas.hh, not in the tree; 1 header left), hgyhungry/ge-spmm
(cuSPARSE; 1 header left), Xtra-Computing/thundergbm and hpcgarage/ParTI (cuSPARSE/cuSOLVER,
MPI: none left), Bruce-Lee-LY/cuda_hgemv (none left), BBuf/how-to-optim-algorithm-in-cuda and
Infatoshi/cuda-course (no license), tpoisonooo/how-to-optimize-gemm (none left: cuBLAS).
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import set_header
from heldout4_select import capped
from heldout9_select import pick_cuda
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent


def heldout14() -> str:
    out = [set_header("fourteenth", "heldout14")]
    r = "leimao/CUDA-GEMM-Optimization"; c = head(r)
    out.append(project("cuda-gemm-optimization", r, c, "MIT", ["LICENSE"], ["include"], [],
                       ["-std=c++17"], capped(pick_cuda(r, c, ["include"], ["src/"]))))
    r = "KnowingNothing/MatmulTutorial"; c = head(r)
    out.append(project("matmul-tutorial", r, c, "Apache-2.0", ["LICENSE"], [], ["DEBUG"],
                       ["-std=c++17", "-arch=sm_80"],
                       capped(pick_cuda(r, c, [], ["examples/atom/", "examples/matmul/this-sm80/",
                                                   "examples/reduction/"]))))
    r = "ap-hynninen/cutt"; c = head(r)
    out.append(project("cutt", r, c, "MIT (in each file's header; no LICENSE file)",
                       ["README.md"], [], ["_FORCE_INLINES"], ["-std=c++17"],
                       capped(pick_cuda(r, c, [], ["src/"]))))
    r = "IST-DASLab/marlin"; c = head(r)
    out.append(project("marlin", r, c, "Apache-2.0", ["LICENSE"], [], [],
                       ["-std=c++17", "-arch=sm_80"], capped(pick_cuda(r, c, [], ["marlin/"]))))
    r = "Yinghan-Li/YHs_Sample"; c = head(r)
    out.append(project("yhs-sample", r, c, "GPL-3.0", ["LICENSE"], [], [],
                       ["-std=c++17", "-arch=sm_80"], capped(pick_cuda(r, c, [], ["cuda/"]))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout14.toml").write_text(heldout14())
