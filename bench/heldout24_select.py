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
"""
