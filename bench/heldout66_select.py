#!/usr/bin/env python3
"""How the sixty-sixth held-out set (bench/heldout66.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout66_select.py      # -> bench/heldout66.toml

RULE, written and committed (h/heldout66, 02:11 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for GPU database and query processing: GPU query-engine
prototypes (code-generated scan / join / group-by / order-by operators), relational operators on the
GPU (selection scans, hash and nested-loop joins, group-by aggregation), GPU stream processing
(windowed stream joins, complex-event filters and sliding windows), and a GPU key-value store used
for lookups. NARROWED where it overlaps: heldout22 took "databases, joins, compression" and named
anilshanbhag/crystal, psiul/ICDE2019-GPU-Join, anilshanbhag/gpu-compression, BowenforGit/GPU-Joins-
Evaluation and anilshanbhag/gpu-topk, so none of those, no project that copies crystal's sources
(jiashenC/gpudb-char-and-opt carries crystal/ and crystal-opt/: left out), no compression /
compressed-column decoding (heldout22) and no top-k selection (heldout22, heldout47); not graph
analytics (heldout15/22), not string matching (heldout35), not GPU hash tables / data structures for
their own sake (heldout22, heldout35: a key-value store counts here only as a request-serving store),
nothing of heldout44's networking and storage, nothing of heldout65's ODE / dynamical systems. None
below is in bench/used_repos.txt or named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them; larger
  projects first, as the brief prefers):
    1. kay21s/gpudb                          GPU query engine (YSmart-generated SSB / TPC-H: scan, hash join, group-by, order-by)
    2. TU-Berlin-DIMA/gpu-stream-join-benchmark  windowed stream joins on the GPU (nested-loop, hash, sort-merge)
    3. arosharodrigo/siddhi                  complex-event processing on the GPU (Siddhi: filters, sliding windows, stream joins)
    4. yabuta/modifications                  GPU join and scan executors for an in-memory DBMS (VoltDB)
    5. DBGroup-SUSTech/GPUDB-Prefetch        prefetching in GPU query processing (hash-join probe, B-tree lookup)
    6. sujalsin/gpu-sql-operators            SQL operators on the GPU (hash join, aggregation, filter)
    7. diegomestre2/tpchQ01_GPU              TPC-H query 1 on the GPU (filter and grouped aggregation)
    8. cmrschwarz/cuda-group-by              group-by aggregation strategies on the GPU
    9. njersin/RAPIDS-Hash-based-Groupby     hash-based group-by aggregation
   10. Aygun2000/KVS-CUDA                    GPU key-value store (batched insert and lookup)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (JNI's jni.h, TBB, gtest, cuco, moderngpu), generated headers and absent
  submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only under the source
  folder read from the build files after the fetch and before any measure (the whole repository when
  the build names no single folder), less vendored folders (third_party, 3rdparty, external, extern),
  over the size cap, not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced
  in path order. Include dirs, defines and flags from the project's own build (`-std=c++17` where it
  asks for older; an -arch below CUDA 13's minimum left out). Self-contained check: the first three
  files taken (all if fewer) are compiled with `nvcc -c` and the project's flags; a project of which
  fewer than two (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops
  out (DROPPED), as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are
  taken in order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects.
  If fewer than 4 projects qualify, an EXTENSION (GPU CSV parsing and data-frame / ETL kernels:
  tokenising delimited text, type conversion of columns, filter / sort / join of data frames in
  plain CUDA; no earlier RULE took them; named by domain only, none in bench/used_repos.txt) is
  written and committed before its candidates are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout66_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("sixty-sixth", "heldout66", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
