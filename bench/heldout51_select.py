#!/usr/bin/env python3
"""How the fifty-first held-out set (bench/heldout51.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout51_select.py      # -> bench/heldout51.toml

RULE, written and committed (h/heldout51, 13:06 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for classic NLP and recommender systems outside LLMs:
word-embedding training (word2vec skip-gram / CBOW, GloVe), topic models (LDA), HMM decoding
(forward / Viterbi) for sequence tagging, CTR models (field-aware factorisation machines).
NARROWED where it overlaps: heldout44 named recommender matrix factorisation (uiuc-cumf/cumf_sgd,
cuMF/cumf_als, Zialus/cumf_ccd, all in bench/used_repos.txt), so ALS / SGD / CCD matrix
factorisation is left out here; heldout24 took LLM / transformer kernels (embedding lookups inside
transformers are not this domain); heldout29 classic ML (SVM, trees, boosting, SOMs); heldout45
took PairHMM for variant calling (gpuPairHMM): HMMs over biological sequences are left out, only
HMMs for tagging / general decoding are taken; heldout37's channel-coding Viterbi (convolutional
codes of a radio link) is not this domain. Nothing of heldouts 48-50 (fractals, GIS, password
cracking). None below is in bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. js1010/cusim                         word2vec (skip-gram / CBOW) and LDA (variational) training
    2. kinchi22/word2vec-acc-cuda           word2vec training (hierarchical softmax, negative sampling)
    3. Ali339275/word2vec-cuda              word2vec skip-gram with negative sampling (baseline, optimised)
    4. Kobnar/NGLoVe                        GloVe embedding training
    5. asez73/hmm                           HMM forward algorithm and Viterbi decoding
    6. pancak3/HMM-Viterbi-CUDA             HMM Viterbi decoding
    7. RTBHOUSE/cuda-ffm                    CTR: field-aware factorisation machines (training, prediction)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout50's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (torch, pybind11, Eigen, cnpy), generated headers and absent submodules do not
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
  than 4 projects qualify, an EXTENSION (text processing on the GPU: tokenisation, n-gram counting,
  near-duplicate detection by MinHash / SimHash, suffix-array construction for text indexing; named
  by domain only, none in bench/used_repos.txt) is written and committed before its candidates are
  fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout51_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("cusim", "js1010/cusim", "", [], [], [], ["-std=c++17"], "cpp/"),
    ("w2v-kinchi", "kinchi22/word2vec-acc-cuda", "", [], [], [], ["-std=c++17"], ""),
    ("w2v-ali", "Ali339275/word2vec-cuda", "", [], [], [], ["-std=c++17"], "src/"),
    ("nglove", "Kobnar/NGLoVe", "", [], [], [], ["-std=c++17"], ""),
    ("hmm-asez", "asez73/hmm", "", [], [], [], ["-std=c++17"], ""),
    ("hmm-viterbi-pancak", "pancak3/HMM-Viterbi-CUDA", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-ffm", "RTBHOUSE/cuda-ffm", "", [], [], [], ["-std=c++17"], "src/"),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("fifty-first", "heldout51", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
