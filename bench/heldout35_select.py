#!/usr/bin/env python3
"""How the thirty-fifth held-out set (bench/heldout35.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout35_select.py      # -> bench/heldout35.toml

RULE, written and committed (h/heldout35, 18:44 UTC) before any candidate was fetched or measured
(only the stored index's repository names and code search were looked up, to name candidates that
exist and hold CUDA sources), for GPU data structures and systems software: GPU B-trees / LSM trees,
dynamic memory allocators, hash tables and filters, concurrent queues, string matching
(Aho-Corasick, regex) for packet inspection. Hash tables and joins were touched by heldout6/8/22/28:
their repositories (warpcore, SlabHash and its SlabAlloc, BGHT, cuCollections, stdgpu,
SimpleGPUHashTable, the GPU-join studies, ...) are in bench/used_repos.txt or named by those rules
and are not candidates; forks of a candidate are not candidates.

  Candidates, in this order, named by domain only (none in bench/used_repos.txt nor named by an
  earlier heldout*_select.py, none chosen by how kernelport does on them):
    1. owensgroup/GpuBTree                 GPU B-tree (warp-cooperative insert / search)
    2. owensgroup/MVGpuBTree               multiversion GPU B-tree (snapshots, range queries)
    3. GPUPeople/Ouroboros                 dynamic GPU memory manager (chunk / page queues)
    4. canonizer/halloc                    GPU dynamic memory allocator (Halloc)
    5. prg-titech/dynasoar                 GPU object allocator with SOA layout (DynaSOAr)
    6. saltsystemslab/gallatin             GPU general-purpose memory allocator (Gallatin)
    7. saltsystemslab/warpSpeed            GPU concurrent hash tables (warp-cooperative probing)
    8. zhuqiweigit/DyCuckoo                dynamic GPU cuckoo hash table
    9. sujanamaithili/gpuLSM               GPU log-structured merge tree
   10. iassael/cuda-aho-corasick-wu-manber multi-pattern string matching (Aho-Corasick, Wu-Manber)
   11. kaushiksk/boyer-moore-aho-corasick-in-cuda  string matching (Boyer-Moore, Aho-Corasick)
   12. Krishna-10-7/aho-corasick-cuda-gpu  Aho-Corasick string matching on GPU
   13. GPUPeople/GPUMemManSurvey           survey of GPU memory managers (its own CUDA units)
   14. saltsystemslab/gpu-filters          GPU approximate-membership filters (quotient / Bloom)
   15. GPUPeople/faimGraph                 dynamic GPU graph data structure with its own memory manager
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout33's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuBLAS, cuRAND, cuFFT, cuSPARSE, cuDNN headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers, generated headers and absent submodules do not resolve, and no stand-in
  headers are taken. Files: `.cu` only under the source folder read from the build files after the
  fetch and before any measure (the whole repository when the build names no single folder), less
  vendored folders (third_party, 3rdparty, external, extern), over the size cap, not resolving, or
  byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in path order. Include dirs,
  defines and flags from the project's own build (`-std=c++17` where it asks for older; an -arch
  below CUDA 13's minimum left out). Self-contained check: the first three files taken (all if
  fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two
  (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out
  (DROPPED), as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are
  taken in order until the set holds at least STOP_FILES = 45 files or STOP_PROJECTS = 10 projects.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout35_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 45, 10

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("gpubtree", "owensgroup/GpuBTree", "", [], [], [], ["-std=c++17"], ""),
    ("mvgpubtree", "owensgroup/MVGpuBTree", "", [], [], [], ["-std=c++17"], ""),
    ("ouroboros", "GPUPeople/Ouroboros", "", [], [], [], ["-std=c++17"], ""),
    ("halloc", "canonizer/halloc", "", [], [], [], ["-std=c++17"], ""),
    ("dynasoar", "prg-titech/dynasoar", "", [], [], [], ["-std=c++17"], ""),
    ("gallatin", "saltsystemslab/gallatin", "", [], [], [], ["-std=c++17"], ""),
    ("warpspeed", "saltsystemslab/warpSpeed", "", [], [], [], ["-std=c++17"], ""),
    ("dycuckoo", "zhuqiweigit/DyCuckoo", "", [], [], [], ["-std=c++17"], ""),
    ("gpulsm", "sujanamaithili/gpuLSM", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-ac-wm", "iassael/cuda-aho-corasick-wu-manber", "", [], [], [], ["-std=c++17"], ""),
    ("bm-ac-cuda", "kaushiksk/boyer-moore-aho-corasick-in-cuda", "", [], [], [], ["-std=c++17"], ""),
    ("ac-cuda-gpu", "Krishna-10-7/aho-corasick-cuda-gpu", "", [], [], [], ["-std=c++17"], ""),
    ("gpumemmansurvey", "GPUPeople/GPUMemManSurvey", "", [], [], [], ["-std=c++17"], ""),
    ("gpu-filters", "saltsystemslab/gpu-filters", "", [], [], [], ["-std=c++17"], ""),
    ("faimgraph", "GPUPeople/faimGraph", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED: frozenset = frozenset()  # filled by the self-contained check


def heldout35() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("thirty-fifth", "heldout35", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout35.toml").write_text(heldout35())
