#!/usr/bin/env python3
"""How the twelfth held-out set (bench/heldout12.toml) was chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout12_select.py      # -> bench/heldout12.toml

Rule, written down before anything was measured on these projects (that of the fourth to eleventh
sets, bench/heldout11_select.py), for kernel collections and applications: public CUDA projects
that no test, corpus, labelled or held-out set has used (tests/realcorpus/manifest.toml,
bench/heldout*.toml, tests/labelled*/), whose CUDA files build with plain include dirs. Files as
for the second to eleventh sets (heldout2_select.pick: every `.cu`/`.cuh` file under the project's
CUDA folder within the size cap, less those whose includes do not resolve here and byte-for-byte
copies; a `.cuh` that is a fragment of its includer fails `nvcc -x cu -c` and leaves the HIP
figure's denominator); a project with more than FULL such files gives every second of them in
path order (heldout4_select.capped). Never chosen by how kernelport does on a file: the set was
measured on main as it was before anyone changed code for it
(bench/scoreboard_heldout12_baseline.txt).

Projects (include dirs, defines and flags are those of each project's own build):
  PaddleJitLab/CUDATutorial  a CUDA course (Chinese): vector add, matmul and SGEMM optimisation
                             steps (tiling, vectorised loads, warp tiling, double buffering),
                             reductions step by step (interleaved, bank-conflict free, unrolled
                             last warp), thread-id layouts, naive convolution (`docs/`)
                             (Apache-2.0, LICENSE); no build files for the lessons: plain nvcc,
                             -std=c++17 (the im2col lesson reaches cuBLAS/cuDNN and drops out);
  Tongkaio/CUDA_Kernel_Samples
                             a kernel-sample collection: SGEMM kernels 1-7, warp-shuffle sum/max/
                             softmax reductions, transposes, element-wise, examples (MIT,
                             LICENSE). Each folder is its own CMake project with its own
                             `include` dir holding a `utils.cuh` of its own, so each is a project
                             here (kernel-samples-<folder>), with that folder's include dir;
                             byte-for-byte copies across folders are taken once (the first in
                             path order); the SGEMV and cuBLAS examples reach cublas_v2.h (not
                             installed here) and drop out;
  Bruce-Lee-LY/decoding_attention
                             LLM decoding attention kernels (FP16 MMA PTX, templates per head
                             dim) (BSD-3-Clause, LICENSE); CMakeLists.txt's include dirs
                             csrc/common, csrc/kernel, csrc/ops and CUDA_NVCC_FLAGS -std=c++17
                             --expt-relaxed-constexpr (its -Xcompiler -fopenmp kept);
  ankan-ban/llama_cu_awq     a single-file Llama-2 inference engine with INT4 AWQ GEMV kernels
                             (MIT, LICENSE); its one unit llama2_q4.cu with its headers, built by
                             CMakeLists.txt with plain nvcc (-std=c++17 here).
Looked at and left out by the rule: Bruce-Lee-LY/cuda_hgemm (every unit reaches cublas_v2.h through
src/common/common.h; cuBLAS is not installed here), Bruce-Lee-LY/flash_attention_inference (the
flash_attn_v2 units reach the cutlass submodule, the fmha units cublas-free but none resolves),
fireice-uk/xmr-stak (its two nvidia units name <windows.h> under #ifdef, which the textual rule
counts as unresolved), NVlabs/nvdiffrast (NVIDIA Source Code License, non-commercial; its
rasteriser is cudaraster, unfit before).
"""
from __future__ import annotations

from pathlib import Path

from heldout2_select import set_header
from heldout4_select import capped
from heldout9_select import pick_cuda
from realcorpus_select import git, head, project

ROOT = Path(__file__).resolve().parent.parent

SAMPLE_FOLDERS = ["sgemm", "reduce/sum", "reduce/max", "reduce/softmax", "reduce/softmax_matrix",
                  "transpose", "elementwise", "example"]


def blob(repo: str, commit: str, path: str) -> str:
    return git(repo, "rev-parse", f"{commit}:{path}").decode().strip()


def heldout12() -> str:
    out = [set_header("twelfth", "heldout12")]
    r = "PaddleJitLab/CUDATutorial"; c = head(r)
    out.append(project("cudatutorial", r, c, "Apache-2.0", ["LICENSE"], [], [], ["-std=c++17"],
                       capped(pick_cuda(r, c, [], ["docs/"]))))
    r = "Tongkaio/CUDA_Kernel_Samples"; c = head(r)
    seen: set[str] = set()
    for folder in SAMPLE_FOLDERS:
        inc = [f"{folder}/include"] if folder not in ("elementwise", "example") else []
        files = []
        for f in pick_cuda(r, c, inc, [f"{folder}/"]):
            if blob(r, c, f) not in seen:
                seen.add(blob(r, c, f))
                files.append(f)
        out.append(project("kernel-samples-" + folder.replace("/", "-"), r, c, "MIT", ["LICENSE"],
                           inc, [], ["-std=c++17"], capped(files)))
    r = "Bruce-Lee-LY/decoding_attention"; c = head(r)
    inc = ["csrc/common", "csrc/kernel", "csrc/ops"]
    out.append(project("decoding-attention", r, c, "BSD-3-Clause", ["LICENSE"], inc, [],
                       ["-std=c++17", "--expt-relaxed-constexpr", "-Xcompiler", "-fopenmp"],
                       capped(pick_cuda(r, c, inc, ["csrc/"]))))
    r = "ankan-ban/llama_cu_awq"; c = head(r)
    out.append(project("llama-cu-awq", r, c, "MIT", ["LICENSE"], [], [], ["-std=c++17"],
                       capped(pick_cuda(r, c, [], [""]))))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout12.toml").write_text(heldout12())
