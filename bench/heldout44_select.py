#!/usr/bin/env python3
"""How the forty-fourth held-out set (bench/heldout44.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout44_select.py      # -> bench/heldout44.toml

RULE, written and committed (h/heldout44, 06:11 UTC) before any candidate was fetched or measured
(only the stored index's repository names and code search were looked up, to name candidates that
exist and hold CUDA sources), for networking and storage systems: GPU packet processing (software
routers, IPv4/IPv6 longest-prefix-match lookup, packet-processing frameworks and pipelines),
packet classification and firewalls (5-tuple rule matching), storage erasure coding (Reed-Solomon /
XOR parity for storage and RAID), GPU-initiated storage and file-system access. Not string matching
for its own sake (heldout35 took Aho-Corasick / Boyer-Moore libraries), not channel coding for radio
links (heldout37: LDPC, polar, turbo, Viterbi, BCH and Reed-Solomon codecs of a physical layer), not
databases, joins or compression (heldout22), not GPU data structures or allocators (heldout35), and
nothing of heldout43's scientific / engineering domain. None below is in bench/used_repos.txt or
named by an earlier heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. dtnaylor/cuda-router                 GPU software router: IPv4 lookup, firewall kernels over packet batches
    2. ANLAB-KAIST/NBA                      packet-processing framework (Network Balancing Act): GPU elements
                                            (IPv4 / IPv6 lookup, IPsec encryption, IDS pattern matching)
    3. hk-kiran/nvrouter                    virtual router on the GPU (routing table lookup, forwarding)
    4. daschr/cuda_firewall                 firewall: DPDK packet I/O and CUDA bit-vector 5-tuple classification
    5. daschr/cuda-classifier               packet classification: 5-tuple first-match search, launch techniques
    6. cthbleachbit/gappp                   GPU-assisted packet-processing pipeline (DPDK, IPv4 routing kernels)
    7. yszheda/GPU-RSCode                   storage erasure coding: Reed-Solomon encode / decode on the GPU
    8. kenji-k6/erasure-code-benchmark      storage erasure coding: XOR and Reed-Solomon codes, GPU encoders
    9. jaredjennings/libgibraltar           storage erasure coding library (Gibraltar: RAID-like parity on GPUs)
   10. ZaidQureshi/bam                      GPU-initiated storage access (BaM: NVMe queues driven from GPU threads)
   11. gpufs/gpufs                          GPU file-system layer (GPUfs: file API called from GPU kernels)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout42's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (DPDK's rte_*.h, MPI, libnuma, ...), generated headers and absent submodules
  do not resolve, and no stand-in headers are taken. Files: `.cu` only under the source folder read
  from the build files after the fetch and before any measure (the whole repository when the build
  names no single folder), less vendored folders (third_party, 3rdparty, external, extern), over the
  size cap, not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced in
  path order. Include dirs, defines and flags from the project's own build (`-std=c++17` where it
  asks for older; an -arch below CUDA 13's minimum left out). Self-contained check: the first three
  files taken (all if fewer) are compiled with `nvcc -c` and the project's flags; a project of which
  fewer than two (one if it gives one) compile, for a reason other than CUDA 13's removed APIs,
  drops out (DROPPED), as does one that cannot be fetched, does not qualify or gives 0 files.
  Candidates are taken in order until the set holds at least STOP_FILES = 40 files or
  STOP_PROJECTS = 8 projects. If fewer than 4 projects qualify, an EXTENSION (media and data
  systems: video encoding and decoding kernels (motion estimation, transforms, entropy coding),
  recommender-system kernels (embedding lookups, matrix factorisation by ALS / SGD), streaming
  analytics; not FFmpeg, gpujpeg nor NVIDIA/video-sdk-samples, which bench/used_repos.txt holds) is
  written and committed before its candidates are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout44_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES: list = []
DROPPED: frozenset = frozenset()


def heldout44() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("forty-fourth", "heldout44", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout44.toml").write_text(heldout44())
