#!/usr/bin/env python3
"""How the seventy-first held-out set (bench/heldout71.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout71_select.py      # -> bench/heldout71.toml

RULE, written and committed (h/heldout71, 05:44 UTC, commit dd14f526; rebased onto main bbb2fb67 as f460d82c) before any candidate was fetched or measured
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
Outcome of the rule (before any measure of kernelport, 05:48 UTC): candidates 1-10 all fetched. gpu-jpeg2k 12 (9 of
  its first 10 resolve; 12 spaced of the folder's units), jpeggpu 5 (5 of 5), mi-jpeg 0 (its newest snapshot holds no
  .cu), cujpegxl 12 (9 of 10: capability_cuda.cu reaches "cujpegxl/capability.h", a Bazel include_prefix), HEVC 0 (4
  of 10 resolve, under half: ece408_competition.cu reaches x265's headers), nvtt 1 (the one unit its build compiles),
  bc7_gpu 0 (CUDA/BC7.cu is 100,211 bytes, over the size cap), recoil 5 (5 of 5), multians 1 (1 of 1), puffman 5 (5
  of 5). Seven qualify, so no EXTENSION; the candidates run out at 41 files in seven projects (puffman, the tenth,
  takes the set past STOP_FILES = 40). Check (`nvcc -c`, first three files, 05:48 UTC): gpu-jpeg2k 3/3, jpeggpu 3/3,
  cujpegxl 3/3, nvtt 0/1 (texture<> references, removed in CUDA 12: a removed API, so it stays and counts only where
  the original compiles: nowhere), recoil 2/3 (detect_cuda_occupancy.cu: rans_coded_data.h calls std::min_element
  without <algorithm>, a source bug the project's older toolchain's headers hid), multians 1/1 (after its -arch=sm_70,
  below CUDA 13's minimum, was left out by the rule), puffman 3/3. No project DROPPED. Caveats, said and not acted on:
  gpu-jpeg2k and cujpegxl are 24 of the 41 files; recoil's five units are examples of one library; multians shares
  its decoder lineage with HeCBench's ans-cuda (zjin-lcf/HeCBench is in bench/used_repos.txt; multians is not).
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
    # gpu_jpeg2k/CMakeLists.txt (cuda_add_library per folder: dwt, klt, tier1, preprocessing, misc, ...): CUDA_NVCC_FLAGS
    # -O3 --compiler-options -fpermissive -arch sm_20 (below CUDA 13's minimum, left out) --maxrregcount 64
    # --ptxas-options=-v (a verbose report, left out); no include dirs but FreeImage's (absent here)
    ("gpu-jpeg2k", "etalab/gpu-jpeg2k", "(none in the repository)", [], [], [],
     ["-std=c++17", "-O3", "--compiler-options", "-fpermissive", "--maxrregcount", "64"], "gpu_jpeg2k/"),
    # CMakeLists.txt: library jpeggpu from src/*.cu, include dir include/, CUDA 17
    ("jpeggpu", "nolmoonen/jpeggpu", "MIT (see LICENSE)", ["LICENSE"], ["include"], [], ["-std=c++17"], "src/"),
    # its newest snapshot holds no .cu (the CMake build is a libjpeg-based encoder)
    ("mi-jpeg", "wangrui22/mi-jpeg", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # src/BUILD.bazel (Bazel, rules_cuda): RUNTIME_COPTS -O3 -fno-exceptions -fno-rtti (host-only options, left out),
    # .bazelrc --cxxopt=-std=c++17; includes are workspace-relative ("src/bitstream/...") or same-folder; the
    # capability library's include_prefix "cujpegxl" is a Bazel virtual include dir, not a folder (not given)
    ("cujpegxl", "m-pilia/cujpegxl", "BSD-3-Clause (see LICENSE)", ["LICENSE"], [".", "src", "include"], [],
     ["-std=c++17", "-O3"], "src/"),
    # no build file (kernel.cu is #included by ece408_competition.cu, which reaches x265's headers)
    ("hevc-intra", "rajath26/HighEfficiencyVideoCoding", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # src/nvtt/CMakeLists.txt: CUDA_COMPILE(cuda/CompressKernel.cu) (the one unit the build compiles), HAVE_CUDA,
    # include dirs src/nvtt and extern/rg_etc1_v104; src/CMakeLists.txt: src/, extern/poshlib, extern/stb
    ("nvtt", "castano/nvidia-texture-tools", "MIT (see LICENSE)", ["LICENSE"],
     ["src", "src/nvtt", "extern/poshlib", "extern/stb", "extern/rg_etc1_v104"], ["HAVE_CUDA"], ["-std=c++17"],
     "src/nvtt/cuda/CompressKernel.cu"),
    # bc7_gpu.vcxproj (Visual Studio; no nvcc flags read beyond the CUDA build rule's defaults)
    ("bc7-gpu", "volition-inc/bc7_gpu", "BSD-style (see License.txt)", ["License.txt"], [], [], ["-std=c++17"], "CUDA/"),
    # CMakeLists.txt: CMAKE_CUDA_FLAGS -std=c++20, release -O3, include dir include/; examples/CMakeLists.txt: each
    # example's include dir examples/common (CUDA_ARCHITECTURES 70 left to the default)
    ("recoil", "lin-toto/recoil", "(none in the repository)", [], ["include", "examples/common"], [],
     ["-std=c++20", "-O3"], "examples/"),
    # Makefile: NVCC_FLAGS --std=c++14 (-> 17) -O3 -arch=sm_70 (below CUDA 13's minimum, left out)
    # -Xcompiler="-pthread" -D CUDA -D MULTI, -I include
    ("multians", "weissenberger/multians", "LGPL-3.0 (see LICENSE)", ["LICENSE"], ["include"], ["CUDA", "MULTI"],
     ["-std=c++17", "-O3", "-Xcompiler=-pthread"], "src/"),
    # Makefile: nvcc -O3 -rdc=true -arch=sm_30 (below CUDA 13's minimum, left out) -Xcompiler -Wall
    ("puffman", "yogesh1q2w/puffman", "(none in the repository)", [], [], [],
     ["-std=c++17", "-O3", "-rdc=true", "-Xcompiler", "-Wall"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("seventy-first", "heldout71", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
