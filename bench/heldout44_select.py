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
Outcome of the rule (before any measure of kernelport, 06:20 UTC): cuda-router 5 files (qualifying 5 of 7), NBA 5
  (5 of 7), nvrouter 0 (0 of 4: its utils.cu reaches cuRAND's
  curand_kernel.h, absent here), cuda_firewall 0 (DPDK's rte_*.h), cuda-classifier
  2, gappp 0 (1 of 5: DPDK, fmt), GPU-RSCode 5, erasure-code-benchmark 1 (its libraries/ are absent submodules; the one GPU
  unit resolves), libgibraltar 1, bam 0 (0 of 10: include/freestanding is an
  absent submodule), gpufs 12 of 34 (12 spaced).
  Self-contained check (`nvcc -c`, the build's flags, first three files): cuda-router 2 of 3 (both.cu: HTONL undefined),
  NBA 1 of 3 (its IPsec units embed OpenSSL's EVP_CIPHER_CTX, opaque since OpenSSL 1.1: not a CUDA 13 removal) -> DROPPED,
  cuda-classifier 2 of 2, GPU-RSCode 0 of 3 for CUDA 13's removed APIs only (cudaThreadSynchronize,
  cudaDeviceProp::computeMode in its copied helper_cuda.h): stays, erasure-code-benchmark 1 of 1, libgibraltar 0 of 1
  (its kernel reads N and M that its run-time driver passes as -DN=n -DM=m for each code, no build value) -> DROPPED,
  gpufs 0 of 3 for a removed API only (the pre-CUDA 9 __shfl in libgpufs/util.cu.h): stays. The set: 25 files in five
  projects (cuda-router 5, cuda-classifier 2, gpu-rscode 5, erasure-code-bench 1, gpufs 12); at least 4 projects qualify,
  so no extension. Caveats, said and not acted on: a thin set (the originals of gpufs and GPU-RSCode mostly use APIs CUDA 13
  removed, so they do not count toward the done-when), gpufs's 12 files share one library's headers, and 2 of the 5
  projects are course / benchmark code.
EXTENSION, written and committed (h/heldout44, 06:18 UTC) after the rule was applied and the first measure of the 25
  files above had run (bench/scoreboard_heldout44_baseline.txt: only 6 of the 25 originals compile with CUDA 13), before
  any candidate below was fetched (only repository names and code search looked up): the rule's candidates ran out
  short of STOP_FILES and STOP_PROJECTS, so the extension domain the RULE names (media and data systems: video
  encoding kernels, recommender-system kernels), named by domain only and chosen before and without any look at how
  kernelport does on them, is taken next by the same rule and check in this order until the set holds at least
  STOP_FILES files or STOP_PROJECTS projects; its files are measured on main's kernelport (cc70d26) like the first 25:
   12. hetero/cuda                          video encoding: motion estimation (SAD search) of the c63 codec
   13. wenchy/x264-CUDA                     video encoding: x264's motion search on the GPU
   14. cloudinary-developers/vp9_cuda_encoder  video encoding: motion estimation for libvpx (VP8 / VP9)
   15. uiuc-cumf/cumf_sgd                   recommender: matrix factorisation by stochastic gradient descent
   16. cuMF/cumf_als                        recommender: matrix factorisation by alternating least squares
   17. Zialus/cumf_ccd                      recommender: matrix factorisation by cyclic coordinate descent (CCD++)
Outcome of the EXTENSION (before any measure of kernelport on its files, 06:27 UTC): c63 (hetero/cuda) 3 files (3 of 4
  qualify), x264-CUDA 5 (5 of 5), vp9_cuda_encoder 0 (0 of 7: texture_fetch_functions.h, gone from CUDA 12+, and
  libvpx's generated headers), cumf_sgd 0 (0 of 5: curand.h), cumf_als 0 (1 of 3: cublas_v2.h, cusparse.h, an absent
  eigen3), cumf_ccd 2 (2 of 2). Check: c63 3 of 3, x264-CUDA 1 of 3 (motionsearch_4x4.cu and _8x8.cu read
  x264_cuda_t::i_pixel, which its header no longer has: stale units, not a CUDA 13 removal) -> DROPPED, cumf_ccd 2 of
  2. The set: 30 files in seven projects (the first five, c63-cuda 3, cumf-ccd 2); the candidates ran out before
  STOP_FILES or STOP_PROJECTS. Caveat: 2 of the 7 projects are media / recommender, not networking or storage.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout44_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    # cuda/Makefile (router, stream_router: cuda/*.cu and ../cuda-prefixtree/cuda-lookup.cu): INCLUDES -I. -I../common/inc
    # -I../packet-collector (glib's path left out); -m64; no single folder (cuda/ and cuda-prefixtree/): the whole repository
    ("cuda-router", "dtnaylor/cuda-router", "(see click/LICENSE for Click; none for the CUDA code)", [],
     ["cuda", "common/inc", "packet-collector", "cuda-prefixtree"], [], ["-std=c++17", "-m64"], ""),
    # Snakefile: elements/**/*_kernel.cu and src/engines/cuda/*.cu; NVCFLAGS -O2 -lineinfo --use_fast_math
    # --expt-relaxed-constexpr -Iinclude, -DMP_USE_64BIT=1 (an arch found), USE_CUDA, NBA_PMD_DPDK (its default PMD);
    # -std=c++11 (-> 17); the whole repository (elements/ and src/)
    ("nba", "ANLAB-KAIST/NBA", "MIT (see LICENSE)", ["LICENSE"], ["include"],
     ["MP_USE_64BIT=1", "USE_CUDA", "NBA_PMD_DPDK"],
     ["-std=c++17", "-O2", "-lineinfo", "--use_fast_math", "--expt-relaxed-constexpr"], ""),
    # Makefile: src/*.cu (main.cu includes the others); -std=c++11 (-> 17)
    ("nvrouter", "hk-kiran/nvrouter", "(none in the repository)", [], ["src"], [], ["-std=c++17"], "src/"),
    # Makefile: src/rte_bv_classifier.cu; $(pkg-config --cflags libdpdk) (absent here); -Xptxas -v -lineinfo -O3
    # (--gpu-architecture sm_86 kept: CUDA 13 supports it)
    ("cuda-firewall", "daschr/cuda_firewall", "(none in the repository)", [], ["src"], [],
     ["-std=c++17", "-O3", "-lineinfo", "--gpu-architecture=sm_86"], "src/"),
    # Makefile: nvcc -O3 ls_cl.cu *.c (ls_cl2.cu beside it)
    ("cuda-classifier", "daschr/cuda-classifier", "(none in the repository)", [], [], [], ["-std=c++17", "-O3"], ""),
    # cuda-src/CMakeLists.txt: l3fwd.cu selftest.cu dummy.cu (l3fwd-direct.cu with GAPPP_GPU_DIRECT); include dirs
    # include, cuda-src and DPDK's (absent); C++20 (its CXX flags' -Wno-volatile; CMake's CUDA standard follows)
    ("gappp", "cthbleachbit/gappp", "GPL-3.0 (see COPYING)", ["COPYING"], ["include", "cuda-src"], [],
     ["-std=c++20"], "cuda-src/"),
    # src/Makefile.am + configure.ac: matrix.cu encode.cu decode.cu (decode-gj.cu, galoisfield.cu beside them);
    # NVCCFLAGS -O3 -use_fast_math (--ptxas-options=-v left out: a report, not a build flag)
    ("gpu-rscode", "yszheda/GPU-RSCode", "GPL-3.0 (see COPYING)", ["COPYING"], ["src"], [],
     ["-std=c++17", "-O3", "-use_fast_math"], "src/"),
    # CMakeLists.txt: its src/ (src/xorec/xorec_gpu_cmp.cu); include dirs src/algorithms, src/xorec, src/utils,
    # src/benchmark, src/reporters (libraries/ are submodules: absent); CUDA_STANDARD 17, -O3, separable compilation
    ("erasure-code-bench", "kenji-k6/erasure-code-benchmark", "(none in the repository)", [],
     ["src/algorithms", "src/xorec", "src/utils", "src/benchmark", "src/reporters"], [],
     ["-std=c++17", "-O3", "-rdc=true"], "src/"),
    # Makefile (cuda=1): src/gib_cuda_checksum.cu (built to PTX/cubin at run time), -Iinc
    ("libgibraltar", "jaredjennings/libgibraltar", "(see LICENSE)", ["LICENSE"], ["inc"], [], ["-std=c++17"], "src/"),
    # CMakeLists.txt: include dirs include, include/freestanding/include (and the build dir's generated include/:
    # absent); CUDA_NVCC_FLAGS -lineinfo -D__CUDA__ -O3 -std=c++11 (-> 17) (-D__CUDACC__ left out: nvcc's own);
    # its benchmarks/ (the build's default targets)
    ("bam", "ZaidQureshi/bam", "BSD-2-Clause (see LICENSE)", ["LICENSE"], ["include", "include/freestanding/include"],
     ["__CUDA__"], ["-std=c++17", "-lineinfo", "-O3"], "benchmarks/"),
    # libgpufs/Makefile: -I../gpufs_con_lib.user -I. ; -DDEBUG_NOINLINE="" (release); -O3 -maxrregcount 32; -dc;
    # -std=c++11 (-> 17) (sm_61 kept); the whole repository (libgpufs/ and samples/, which add -I libgpufs)
    ("gpufs", "gpufs/gpufs", "(see Disclaimer)", ["Disclaimer"], ["libgpufs", "gpufs_con_lib.user"],
     ["DEBUG_NOINLINE="], ["-std=c++17", "-O3", "-maxrregcount=32", "-rdc=true"], ""),
    # EXTENSION (build flags read after the fetch, before any measure of these)
    # Makefile: its four .cu; NVCCFLAGS -O3 -use_fast_math (-arch sm_13: below CUDA 13's minimum; the SDK's
    # C/common/inc outside the repository)
    ("c63-cuda", "hetero/cuda", "(none in the repository)", [], [], [], ["-std=c++17", "-O3", "-use_fast_math"], ""),
    # Makefile (HAVE_CUDA): common/cuda/motionsearch.cu: nvcc -G --default-stream per-thread (-G, device debug, left
    # out as a debug switch); the root is x264's include dir (common/..., config.h generated by configure: absent)
    ("x264-cuda", "wenchy/x264-CUDA", "GPL-2.0 (see COPYING)", ["COPYING"], ["."], [],
     ["-std=c++17", "--default-stream=per-thread"], "common/cuda/"),
    # build/Makefile + build/libs-x86_64-linux-gcc.mk: cuda/*.cu; CXXCUDAFLAGS --std c++11 (-> 17) -m 64 -DNDEBUG -O3
    # (compute_52: below CUDA 13's minimum); include dirs build/ (its committed vpx_config.h) and the root
    ("vp9-cuda", "cloudinary-developers/vp9_cuda_encoder", "BSD-3-Clause (see LICENSE)", ["LICENSE"], ["build", "."],
     ["NDEBUG"], ["-std=c++17", "-m64", "-O3"], "cuda/"),
    # singleGPU/Makefile: sgd.cu, sgd_kernel.cu; -std=c++11 (-> 17) -O3 -DUSEOMP -D_FORCE_INLINES -Xcompiler -fopenmp
    # (compute_60 left: CUDA 13 supports sm_75 and up); the whole repository (singleGPU/ and cumf_sgd_yahoo_gpus/)
    ("cumf-sgd", "uiuc-cumf/cumf_sgd", "Apache-2.0 (see README)", [], [], ["USEOMP", "_FORCE_INLINES"],
     ["-std=c++17", "-O3", "-Xcompiler", "-fopenmp"], ""),
    # Makefile: als.cu cg.cu device_utilities.cu (hugewiki/ beside); -m64 -std=c++11 (-> 17) -lineinfo, -Xcompiler -DADD_
    ("cumf-als", "cuMF/cumf_als", "Apache-2.0 (see LICENSE)", ["LICENSE"], [], ["ADD_"], ["-std=c++17", "-m64", "-lineinfo"], ""),
    # CMakeLists.txt: src/*.cu; -Xptxas -dlcm=ca --std=c++11 (-> 17) (-arch=sm_35 below CUDA 13's minimum)
    ("cumf-ccd", "Zialus/cumf_ccd", "MIT (see LICENSE)", ["LICENSE"], ["src"], [], ["-std=c++17", "-Xptxas", "-dlcm=ca"], "src/"),
]
DROPPED: frozenset = frozenset({"ANLAB-KAIST/NBA", "jaredjennings/libgibraltar", "wenchy/x264-CUDA"})


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("forty-fourth", "heldout44", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
