#!/usr/bin/env python3
"""How the twenty-fourth held-out set (bench/heldout24.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout24_select.py      # -> bench/heldout24.toml

RULE, written and committed (h/heldout24, 23:21 UTC) before any candidate was fetched or measured
(only the stored index's repository names were looked up, to name candidates that exist), for
machine-learning kernels outside the big frameworks (attention, quantized GEMM/GEMV, layernorm /
RMSnorm / softmax / rotary, sampling and top-k, RNN kernels, small inference engines):

  Candidates, in this order, named by domain only (none in /work/notes/t40/used.md, no simulation
  project, none chosen by how kernelport does on them):
    1. OpenPPL/ppl.llm.kernel.cuda        LLM inference kernels (attention, int4/int8 GEMM, RMSnorm, rotary)
    2. bytedance/lightseq                 transformer training/inference kernels (softmax, layernorm, dropout, embedding)
    3. NVIDIA/FasterTransformer           transformer inference kernels (sampling/top-k, layernorm, decoder attention)
    4. BBuf/how-to-optim-algorithm-in-cuda softmax / layernorm / RMSnorm / reduce kernels
    5. Bruce-Lee-LY/flash_attention_inference  flash-attention reimplementation (inference)
    6. Bruce-Lee-LY/cuda_hgemv            half-precision GEMV
    7. baidu-research/persistent-rnn      persistent RNN kernels
    8. Tencent/TurboTransformers          transformer inference kernels
    9. likejazz/llama3.cuda               a small LLM inference engine in plain CUDA
   10. InternLM/lmdeploy                  turbomind kernels (quantized GEMM, attention, sampling)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING (stop 39's heldout21 rule, reused): a candidate qualifies if at least half of its first
  10 `.cu` files by path (all of them if fewer than 10) under its source folder have every
  `#include` they reach resolve in the repository, the CUDA toolkit or the host compiler's search
  path (heldout2_select.resolves, read textually with heldout21's linux_text: an include inside a
  Windows-only branch is not read), with the include dirs of the project's build. Files of a
  qualifying candidate: its `.cu` files only (the local headers they include are copied with them
  by realcorpus_build.py), under its source folder (the folder its own build compiles, read from
  its build files before any measure; the whole repository when the build names no single
  folder), less vendored third-party folders (a path component named third_party, 3rdparty,
  external or extern), within the size cap, less those whose includes do not resolve and
  byte-for-byte copies (heldout2_select.pick). PyTorch-extension units reach <torch/extension.h>,
  absent here, so they drop out by that rule. A project with more than CAP = 12 such files gives
  12 of them evenly spaced in path order (files[i*n//12], heldout22's spacing). Include dirs,
  defines and nvcc flags are those of the project's own build files (read before any measure;
  `-std=c++17` where the build asks for an older standard: CUDA 13's headers need 17).
  Self-contained check, by the rule and not by kernelport (heldout22's): the first three files
  taken (path order) are compiled with `nvcc -c` and the project's flags; a project of which fewer
  than two compile (for a reason other than CUDA 13's removed APIs) drops out, as does one that
  cannot be fetched, does not qualify or gives 0 files (said below). Candidates are taken in order
  until the set holds at least 50 files or 6 projects, whichever comes first.
EXTENSION, written and committed (23:22 UTC) after applying the rule to candidates 1-6 and before
  any measure or nvcc check: they give 0 files. This machine's CUDA 13 has no cuBLAS or cuRAND
  headers (cublas_v2.h, cublasLt.h, curand_kernel.h absent), which most ML projects reach:
  ppl.llm.kernel.cuda 0 of its first 10 qualify (ppl/common/log.h, from its ppl.common dependency,
  and cutlass, fetched by CMake), lightseq 0/10 (curand_kernel.h, cublas_v2.h), FasterTransformer
  2/10 (cublasLt.h, its cutlass submodule), how-to-optim-algorithm-in-cuda 4/10 (cublas_v2.h,
  cute), flash_attention_inference 0/10 (its cutlass submodule), cuda_hgemv 0/10 (cublas_v2.h).
  Candidates 7-10 are taken next as the rule says, then these, named by domain only, by the same
  rule in this order, until the set holds at least 50 files or 6 projects:
   11. NVlabs/tiny-cuda-nn                    fully fused MLPs and input encodings (neural graphics)
   12. ztxz16/fastllm                         a small LLM inference engine (its CUDA device)
   13. xlite-dev/LeetCUDA                     softmax / layernorm / RMSnorm / rope / attention kernels
   14. jundaf2/INT8-Flash-Attention-FMHA-Quantization  int8 flash attention
   15. jundaf2/CUDA-INT8-GEMM                 int8 GEMM
   16. alibaba/MNN                            an inference engine (its CUDA backend, source/backend/cuda/)
   17. Infatoshi/cuda-course                  a deep-learning CUDA course (softmax, matmul, ...)
   18. ifromeast/cuda_learning                softmax / layernorm / attention kernels
SECOND EXTENSION, written and committed (23:25 UTC) after the rule and EXTENSION were applied and
  the self-contained check run, before any measure of kernelport: candidates 1-18 give 35 files
  in six projects (persistent-rnn 3, TurboTransformers 6, INT8-Flash-Attention 1, CUDA-INT8-GEMM 1,
  cuda-course 12 of 31, cuda_learning 12 of 35), which met the six-project stop; llama3.cuda
  (cublas_v2.h), lmdeploy (fmt, cutlass, cublasLt), tiny-cuda-nn (its fmt submodule), fastllm
  (json11), LeetCUDA (a utils.h it does not hold, torch) and MNN (flatbuffers, an Apple header)
  give 0. Self-contained check (`nvcc -c`, the build's flags, 23:24 UTC): persistent-rnn 0 of 3
  (its float16.h calls __float2half_rn without including cuda_fp16.h, which CUDA 7.5 and later
  need: not a CUDA 13 API removal), so it drops out; the two jundaf2 projects' units use cp.async,
  which needs sm_80: their CMakeLists.txt compile for the installed GPU's arch (CUDA_ARCH sm_XX),
  so their flags carry `-arch=sm_80` and both then compile (1 of 1 each); TurboTransformers 3/3,
  cuda-course 3/3, cuda_learning 3/3. That leaves 32 files in five projects, so three more
  candidates, named by domain only, are taken by the same rule and check in this order until the
  set holds at least 50 files or 6 projects (the sixth project that passes the check):
   19. coreylowman/dfdx                       a Rust deep-learning library's CUDA tensor-op kernels
   20. EricLBuehler/mistral.rs                an LLM inference engine's CUDA kernels (quantized GEMM/GEMV)
   21. Infatoshi/mnist-cuda                   an MLP trained on MNIST in plain CUDA
Outcome of the rule (before any measure of kernelport, 23:28 UTC): candidate 19, dfdx, qualifies
  (10 of 10) but fails the self-contained check, 0 of 3 (its utilities/compatibility.cuh defines
  __hmax_nan, which CUDA 12's cuda_fp16.hpp now defines too: an addition, not a CUDA 13 removal),
  so it drops out (DROPPED below); candidate 20, mistral.rs (mistralrs-quant/kernels/, 8 of its
  first 10 qualify), passes 3 of 3 and is the sixth project, so the rule stops there (mnist-cuda
  is not taken). The set: 44 files in six projects, TurboTransformers 6, INT8-Flash-Attention 1,
  CUDA-INT8-GEMM 1, cuda-course 12, cuda_learning 12, mistral.rs 12 (of 60). Caveat, said and not
  acted on (the rule has no such clause): mistralrs-quant's mmq_gguf/ and marlin/ files derive
  from llama.cpp's and marlin's kernels (both in used.md).
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout24_baseline.txt).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from heldout2_select import mirror
from heldout21_select import on_linux, qualifies
from heldout2_select import pick, set_header
from realcorpus_select import head, project

ROOT = Path(__file__).resolve().parent.parent
CAP = 12  # a project with more files than this gives CAP of them evenly spaced in path order
STOP_FILES, STOP_PROJECTS = 50, 6
VENDORED = re.compile(r"(^|/)(third_party|3rdparty|external|extern)/")

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build (CMakeLists.txt, setup.py,
# README's command), read after the fetch and before any measure.
CANDIDATES = [
    # CMakeLists.txt: GLOB_RECURSE src/*.cu, include dir include/, --expt-relaxed-constexpr
    ("ppl-llm-kernel", "OpenPPL/ppl.llm.kernel.cuda", "Apache-2.0", ["LICENSE"], ["include", "src"], [],
     ["-std=c++17", "--expt-relaxed-constexpr"], "src/"),
    # CMakeLists.txt (DEVICE_ARCHITECTURE cuda): COMMON_HEADER_DIRS, 3rdparty/cub, LIGHTSEQ_cuda
    ("lightseq", "bytedance/lightseq", "Apache-2.0", ["LICENSE"],
     [".", "lightseq/csrc/kernels/cuda/includes", "lightseq/csrc/layers_new/includes",
      "lightseq/csrc/lsflow/includes", "lightseq/csrc/models/includes", "lightseq/csrc/ops_new/includes",
      "lightseq/csrc/proto/includes", "3rdparty/cub"], ["LIGHTSEQ_cuda"], ["-std=c++17"], "lightseq/csrc/"),
    # CMakeLists.txt: COMMON_HEADER_DIRS, ENABLE_BF16 and ENABLE_FP8 (CUDA >= 12), its CUDA flags
    ("fastertransformer", "NVIDIA/FasterTransformer", "Apache-2.0", ["LICENSE"],
     [".", "3rdparty/trt_fp8_fmha/src", "3rdparty/trt_fp8_fmha/generated"], ["ENABLE_BF16", "ENABLE_FP8"],
     ["-std=c++17", "--expt-extended-lambda", "--expt-relaxed-constexpr", "-DCUDA_PTX_FP8_F2FP_ENABLED"],
     "src/fastertransformer/"),
    # no single build: each kernel folder's README compiles its .cu alone with nvcc
    ("how-to-optim-cuda", "BBuf/how-to-optim-algorithm-in-cuda", "(see LICENSE if present)", ["LICENSE"],
     [], [], ["-std=c++17"], ""),
    # CMakeLists.txt: FAI_SRCS = src/kernel/flash_attn*/*.cu, include dirs src/common, src/kernel, src/ops
    ("flash-attention-inference", "Bruce-Lee-LY/flash_attention_inference", "BSD-3-Clause", ["LICENSE"],
     ["src/common", "src/kernel", "src/ops", "third_party/cutlass/include"], [],
     ["-std=c++17", "-Xcompiler", "-fopenmp", "--expt-relaxed-constexpr"], "src/kernel/"),
    # CMakeLists.txt: HGEMV_SRCS = src/*.cu src/thread/*.cu src/warp/*.cu, include dir src/common
    ("cuda-hgemv", "Bruce-Lee-LY/cuda_hgemv", "BSD-3-Clause", ["LICENSE"], ["src/common"], [],
     ["-std=c++17", "-Xcompiler", "-fopenmp", "--expt-relaxed-constexpr"], "src/"),
    # SConstruct: include/ (prnn/...), src/ compiled
    ("persistent-rnn", "baidu-research/persistent-rnn", "Apache-2.0", ["LICENSE"], ["include", "."], [],
     ["-std=c++17"], "src/"),
    # CMakeLists.txt: include dirs the root, 3rd/cub, 3rd/FP16/include; TT_WITH_CUDA
    ("turbotransformers", "Tencent/TurboTransformers", "BSD-3-Clause", ["LICENSE"],
     [".", "3rd/cub", "3rd/FP16/include"], ["TT_WITH_CUDA"], ["-std=c++17"], "turbo_transformers/"),
    # Makefile: nvcc -DUSE_CUBLAS=1 llama3.cu
    ("llama3-cuda", "likejazz/llama3.cuda", "MIT", ["LICENSE"], [], ["USE_CUBLAS=1"], ["-std=c++17"], ""),
    # CMakeLists.txt: include dirs the root and src/, ENABLE_BF16, C++17
    ("lmdeploy", "InternLM/lmdeploy", "Apache-2.0", ["LICENSE"], [".", "src"], ["ENABLE_BF16"],
     ["-std=c++17", "--expt-relaxed-constexpr", "--expt-extended-lambda"], "src/turbomind/"),
    # EXTENSION
    # CMakeLists.txt: TCNN_INCLUDES include, dependencies, dependencies/fmt/include; C++17; TCNN_MIN_GPU_ARCH
    ("tiny-cuda-nn", "NVlabs/tiny-cuda-nn", "BSD-3-Clause", ["LICENSE.txt"],
     ["include", "dependencies", "dependencies/cutlass/include", "dependencies/fmt/include"],
     ["TCNN_MIN_GPU_ARCH=80", "FMT_UNICODE=0"], ["-std=c++17", "--extended-lambda", "--expt-relaxed-constexpr"],
     "src/"),
    # CMakeLists.txt (USE_CUDA): include, include/utils, include/models, include/blocks, include/devices/*,
    # third_party/json11, gguf, flashinfer; FASTLLM_CUDA_SOURCES under src/devices/cuda/
    ("fastllm", "ztxz16/fastllm", "Apache-2.0", ["LICENSE"],
     ["include", "include/utils", "include/models", "include/blocks", "include/devices/cpu",
      "include/devices/disk", "include/devices/cuda", "third_party/json11", "third_party/gguf",
      "third_party/flashinfer"], ["USE_CUDA"], ["-std=c++17", "-O3", "-DNDEBUG"], "src/devices/cuda/"),
    # no single build (each kernel folder's setup compiles it as a PyTorch extension)
    ("leetcuda", "xlite-dev/LeetCUDA", "GPL-3.0", ["LICENSE"], [], [], ["-std=c++17"], "kernels/"),
    # CMakeLists.txt: inc/, fmha/; CUDA 14 -> 17; --expt-extended-lambda --expt-relaxed-constexpr
    ("int8-fmha", "jundaf2/INT8-Flash-Attention-FMHA-Quantization", "(none in the repository)", [],
     ["inc", "fmha"], [], ["-std=c++17", "--expt-extended-lambda", "--expt-relaxed-constexpr"], "src/"),
    ("int8-gemm", "jundaf2/CUDA-INT8-GEMM", "(none in the repository)", [], ["."], [],
     ["-std=c++17", "--expt-extended-lambda", "--expt-relaxed-constexpr"], ""),
    ("mnn", "alibaba/MNN", "Apache-2.0", ["LICENSE.txt"], ["include", "source", "3rd_party", "schema/current"],
     [], ["-std=c++17"], "source/backend/cuda/"),
    ("cuda-course", "Infatoshi/cuda-course", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    ("cuda-learning", "ifromeast/cuda_learning", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # SECOND EXTENSION
    # dfdx-core/build.rs: nvcc --ptx each src/**/*.cu with the folders of src/**/*.cuh as include dirs
    ("dfdx", "coreylowman/dfdx", "MIT OR Apache-2.0", ["LICENSE-MIT", "LICENSE-APACHE"],
     ["dfdx-core/src/tensor_ops/utilities"], [], ["-std=c++17"], "dfdx-core/src/tensor_ops/"),
    # mistralrs-quant/build.rs: kernels/*/*.cu with its cuda_kernel_builder's flags
    ("mistralrs-quant", "EricLBuehler/mistral.rs", "MIT", ["LICENSE"], ["mistralrs-quant/kernels"], [],
     ["-std=c++17", "-O3", "-U__CUDA_NO_HALF_OPERATORS__", "-U__CUDA_NO_HALF_CONVERSIONS__",
      "-U__CUDA_NO_HALF2_OPERATORS__", "-U__CUDA_NO_BFLOAT16_CONVERSIONS__", "--expt-relaxed-constexpr",
      "--expt-extended-lambda", "--use_fast_math"], "mistralrs-quant/kernels/"),
    ("mnist-cuda", "Infatoshi/mnist-cuda", "(see the repository)", [], [], [], ["-std=c++17"], "cuda/"),
]
# SECOND EXTENSION: failed the self-contained check (nvcc, 0 of its first 3; the docstring says why)
DROPPED = {"baidu-research/persistent-rnn", "coreylowman/dfdx"}
# the jundaf2 builds compile for the installed GPU's arch; cp.async needs sm_80 (SECOND EXTENSION)
ARCH = {"jundaf2/INT8-Flash-Attention-FMHA-Quantization": ["-arch=sm_80"], "jundaf2/CUDA-INT8-GEMM": ["-arch=sm_80"]}


def spaced(files: list[str]) -> list[str]:
    n = len(files)
    return files if n <= CAP else [files[i * n // CAP] for i in range(CAP)]


def taken(repo: str, commit: str, incdirs: list[str], prefix: str) -> list[str]:
    """A candidate's files by the rule, or [] if it does not qualify."""
    ok, looked = on_linux(qualifies, repo, commit, incdirs, prefix)
    print(f"{repo}: qualifying {ok} of the first {looked}", file=sys.stderr)
    if not looked or 2 * ok < looked:
        return []
    return spaced([p for p in on_linux(pick, repo, commit, incdirs, prefix) if not VENDORED.search(p)])


def select(ordinal: str, name_: str, candidates, dropped=frozenset(), arch=None,
           stop_files: int = STOP_FILES, stop_projects: int = STOP_PROJECTS) -> str:
    """The manifest of the held-out set `name_` by this rule over `candidates` (heldout25 reuses it)."""
    out, total = [set_header(ordinal, name_)], 0
    for name, repo, lic, lic_files, incs, defines, flags, prefix in candidates:
        if total >= stop_files or len(out) - 1 >= stop_projects:
            break
        if repo in dropped:
            print(f"{repo}: dropped (self-contained check)", file=sys.stderr)
            continue
        flags = flags + (arch or {}).get(repo, [])
        if not mirror(repo).exists():
            print(f"{repo}: not fetched", file=sys.stderr)
            continue
        commit = head(repo)
        files = taken(repo, commit, incs, prefix)
        print(f"{repo}: {len(files)} {files}", file=sys.stderr)
        if files:
            out.append(project(name, repo, commit, lic, lic_files, incs, defines, flags, files))
            total += len(files)
    return "\n".join(out)


def write_set(ordinal: str, name_: str, candidates, dropped=frozenset(), arch=None, **stops) -> None:
    """bench/NAME_.toml: the manifest `select` makes (the `__main__` of heldout24-45's select scripts)."""
    (ROOT / f"bench/{name_}.toml").write_text(select(ordinal, name_, candidates, dropped, arch, **stops))


def heldout24() -> str:
    return select("twenty-fourth", "heldout24", CANDIDATES, DROPPED, ARCH)


if __name__ == "__main__":
    (ROOT / "bench/heldout24.toml").write_text(heldout24())
