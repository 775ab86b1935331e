#!/usr/bin/env python3
"""How the seventy-first held-out set (bench/heldout71.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout71_select.py      # -> bench/heldout71.toml

RULE, written and committed (h/heldout71, 05:50 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for image and video codecs: JPEG / JPEG 2000 / JPEG XL
encoders and decoders (DCT / IDCT, quantisation, discrete wavelet transforms, EBCOT / tier-1 coding,
Huffman decoding of entropy-coded segments), H.264 / HEVC / AV1 encoder kernels other than motion
search (intra prediction, transforms, deblocking, CABAC / CAVLC), texture compression encoders
(BC1-BC7 / DXT / ASTC) and the entropy coders codecs use (Huffman, rANS / tANS, arithmetic coding).
NARROWED where it overlaps: heldout22 took "databases, graph analytics, sparse linear algebra,
compression" with error-bounded lossy and floating-point compressors (szcompressor/cuSZp,
burtscher/FPcompress): no scientific-data or floating-point compressor here, no LZ-family byte
compressor; heldout9 took MGARD's parallel Huffman codec for scientific data (not a candidate);
heldout21 took video colour conversion and image filters (NVIDIA/video-sdk-samples: not here, and no
candidate below is a colour-conversion or filter code); heldout44's EXTENSION took video motion
estimation (hetero/cuda's c63, wenchy/x264-CUDA, cloudinary-developers/vp9_cuda_encoder): none of them
is a candidate and the HEVC candidate below is intra prediction, not motion search; CESNET/GPUJPEG is
in bench/used_repos.txt and is not a candidate. Not this stop's heldout68 (quantum simulation, sparse
tensors), heldout69 (cellular automata, lattice spin models) or heldout70 (radar / remote sensing,
scientific visualisation). None below is in bench/used_repos.txt or named by an earlier
heldout*_select.py.

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. etalab/gpu-jpeg2k                  JPEG 2000 codec: DWT / IWT, quantiser, EBCOT tier-1, KLT
    2. nolmoonen/jpeggpu                  JPEG decoder: parallel Huffman decoding, IDCT
    3. wangrui22/mi-jpeg                  JPEG encoder: DCT, quantisation, Huffman coding
    4. m-pilia/cujpegxl                   JPEG XL encoder: DCT, adaptive quantisation, entropy coding
    5. rajath26/HighEfficiencyVideoCoding HEVC intra prediction (planar / DC / angular modes, SATD)
    6. castano/nvidia-texture-tools       texture compression: DXT / BC1-BC5 block encoder kernels
    7. volition-inc/bc7_gpu               texture compression: BC7 block encoder
    8. lin-toto/recoil                    entropy coding: interleaved rANS decoding (Recoil)
    9. weissenberger/multians             entropy coding: massively parallel tANS decoding (MULTIANS)
   10. yogesh1q2w/puffman                 entropy coding: parallel Huffman decompression
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER, NPP or nvJPEG
  headers here) or the host compiler's search path, with the include dirs of the project's build;
  absent third-party headers (OpenCV, libjpeg, torch, Qt, cutil), generated headers and absent
  submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only under the source
  folder read from the build files after the fetch and before any measure (the whole repository when
  the build names no single folder), less vendored folders (third_party, 3rdparty, external, extern),
  over the size cap, not resolving, or byte-for-byte copies; more than CAP = 12 gives 12 evenly spaced
  in path order. Include dirs, defines and flags from the project's own build (`-std=c++17` where it
  asks for older; an -arch below CUDA 13's minimum left out). Self-contained check: the first three
  files taken (all if fewer) are compiled with `nvcc -c` and the project's flags; a project of which
  fewer than two (one if it gives one) compile, for a reason other than CUDA 13's removed APIs, drops
  out (DROPPED), as does one that cannot be fetched, does not qualify or gives 0 files. Candidates are
  taken in order until the set holds at least STOP_FILES = 40 files or STOP_PROJECTS = 8 projects. If
  fewer than 4 projects qualify, the EXTENSION domain applies: lossless general-purpose compressors not
  in heldout22 (LZ4 / Snappy / Deflate / Zstd decoders on the GPU, bit-packing and delta codecs for
  columnar formats outside heldout66's database work), its candidates named by domain only, none in
  bench/used_repos.txt, written and committed before they are fetched.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout71_before.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("gpu-jpeg2k", "etalab/gpu-jpeg2k", "", [], [], [], ["-std=c++17"], ""),
    ("jpeggpu", "nolmoonen/jpeggpu", "", [], [], [], ["-std=c++17"], ""),
    ("mi-jpeg", "wangrui22/mi-jpeg", "", [], [], [], ["-std=c++17"], ""),
    ("cujpegxl", "m-pilia/cujpegxl", "", [], [], [], ["-std=c++17"], ""),
    ("hevc-intra", "rajath26/HighEfficiencyVideoCoding", "", [], [], [], ["-std=c++17"], ""),
    ("nvtt", "castano/nvidia-texture-tools", "", [], [], [], ["-std=c++17"], ""),
    ("bc7-gpu", "volition-inc/bc7_gpu", "", [], [], [], ["-std=c++17"], ""),
    ("recoil", "lin-toto/recoil", "", [], [], [], ["-std=c++17"], ""),
    ("multians", "weissenberger/multians", "", [], [], [], ["-std=c++17"], ""),
    ("puffman", "yogesh1q2w/puffman", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("seventy-first", "heldout71", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
