#!/usr/bin/env python3
"""How the sixty-first held-out set (bench/heldout61.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout61_select.py      # -> bench/heldout61.toml

RULE, written and committed (h/heldout61, 23:27 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for neural-network training written from scratch in
CUDA: MLP / CNN / RNN / LSTM forward and backward passes, loss functions, optimisers (SGD, momentum,
Adam, Adadelta) and weight updates in hand-written kernels; small deep-learning frameworks and
autograd / tensor engines whose kernels are raw CUDA; educational "from scratch" MNIST / CIFAR
trainers holding their own kernels. NARROWED where it overlaps: heldout29's extensions named four
from-scratch networks (BobMcDear/neural-network-cuda, EAGEA/Neural-Network-CUDA-Library,
zhxfl/CUDA-CNN, da-nie/CUDA-CNN-GAN-VAE) and heldout24 named Infatoshi/mnist-cuda and LLM training /
inference kernels (llm.c, lightseq): none of those, no LLM / transformer kernels, no classic ML
(heldout29: SVM, trees, SOMs, spiking nets), no word-embedding training (word2vec / GloVe, taken
earlier), no wrappers whose only device code is cuDNN / cuBLAS calls, no single-op pytorch C++
extensions; nothing of this stop's heldout62 (random numbers, sampling) or heldout63 (OR
metaheuristics, scheduling). None below is in bench/used_repos.txt or named by an earlier
heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. shi510/mlfe                        a small deep-learning framework (operators, im2col / col2im,
                                          max-pool, SGD / Adam / Adadelta kernels)
    2. OmerFarukTutkun/CUDA-Trainer       a network trainer from scratch (layers, activations, losses, Adam)
    3. teatime77/mkfn                     generated CNN / RNN / LSTM / DNC layers, forward and backward, in CUDA
    4. milik0/back-prop-in-cuda           an MLP's backpropagation from scratch (naive, shared, warp, fused kernels)
    5. MahdiTheProgrammer/CUDA-C-         a deep-learning framework from scratch (conv2d, linear, max-pool)
    6. adamgizis/neuralnetcuda            a one-hidden-layer MLP on MNIST (ReLU, softmax, training)
    7. italoaa/Mnist-from-scratch         an MNIST MLP: forward and backward kernels, cross-entropy
    8. NicolasNoya/CUDA_MNIST             an MNIST MLP: forward and backward propagation kernels
    9. whileskies/tinyautograd            an autograd engine's CUDA ops (micrograd-like, MNIST)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER, cuDNN headers
  here) or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (torch, Eigen, OpenCV, pybind11), generated headers and absent submodules do not
  resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read from the
  build files after the fetch and before any measure (the whole repository when the build names no
  single folder), less vendored folders (third_party, 3rdparty, external, extern), over the size cap,
  not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order.
  Include dirs, defines and flags from the project's own build (`-std=c++17` where it asks for older;
  an -arch below CUDA 13's minimum left out). Self-contained check: the first three files taken (all
  if fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two
  (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED),
  as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are taken in
  order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects. If fewer
  than 4 projects qualify, an EXTENSION (neural-network inference written from scratch for CNNs and
  RNNs outside LLMs: LeNet / VGG / ResNet forward kernels, im2col and direct convolution, pooling,
  batch-norm inference; named by domain only, none in bench/used_repos.txt) is written and committed
  before its candidates are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout61_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("mlfe", "shi510/mlfe", "(see the repository)", [], ["."], [], ["-std=c++17"], "mlfe/"),
    ("cuda-trainer", "OmerFarukTutkun/CUDA-Trainer", "(see the repository)", [], [], [], ["-std=c++17"], ""),
    ("mkfn", "teatime77/mkfn", "(see the repository)", [], [], [], ["-std=c++17"], "src/"),
    ("back-prop-in-cuda", "milik0/back-prop-in-cuda", "(see the repository)", [], [], [], ["-std=c++17"], "src/"),
    ("cuda-c-dl", "MahdiTheProgrammer/CUDA-C-", "(see the repository)", [], [], [], ["-std=c++17"], ""),
    ("neuralnetcuda", "adamgizis/neuralnetcuda", "(see the repository)", [], [], [], ["-std=c++17"], ""),
    ("mnist-from-scratch", "italoaa/Mnist-from-scratch", "(see the repository)", [], [], [], ["-std=c++17"], ""),
    ("cuda-mnist-noya", "NicolasNoya/CUDA_MNIST", "(see the repository)", [], [], [], ["-std=c++17"], ""),
    ("tinyautograd", "whileskies/tinyautograd", "(see the repository)", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("sixty-first", "heldout61", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
