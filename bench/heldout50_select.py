#!/usr/bin/env python3
"""How the fiftieth held-out set (bench/heldout50.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout50_select.py      # -> bench/heldout50.toml

RULE, written and committed (h/heldout50, 11:55 UTC) before any candidate was fetched or measured
(only the stored index's repository names, file lists and code search were looked up, to name
candidates that exist and hold CUDA sources), for password recovery and hash cracking: brute-force,
mask and dictionary crackers of password hashes (MD5, SHA-1/2, NTLM, LM, DES crypt(3), WPA-PSK's
PBKDF2-HMAC-SHA1), rainbow-table generation and lookup, GPU attacks on password-hashing schemes
(Lyra2, yescrypt), tripcode search. NARROWED where it overlaps: heldout30 took cryptography outside
mining and key search (FHE, lattice NTT, post-quantum, ZK MSM/NTT, block ciphers, and moffa13/SHA256CUDA's
proof-of-work nonce search), so no cipher or hash-function library for its own sake and no proof-of-work;
heldout5/8/10 took miners and key search (ccminer, ethminer, BitCrack, VanitySearch, cuda-hashing-algos:
all in bench/used_repos.txt), so no miner and no elliptic-curve key or address search; heldout35 took
string matching for packet inspection (Aho-Corasick, regex) and heldout44 packet processing and firewalls,
so the brief's "pattern/signature matching for intrusion detection" is left out; heldout46 named CuEVM
(GPU fuzzing of EVM bytecode), so no fuzzer of interpreters. GPU fuzzers and steganalysis were searched
for (code search: "GPU fuzzer CUDA kernel mutation coverage", "steganalysis CUDA kernel") and no
repository with CUDA sources in that domain came up, so none is named. Nothing of heldout48's
(fractals, generative art) or heldout49's (geospatial, GIS) domains. None below is in
bench/used_repos.txt or named by an earlier heldout*_select.py (grepped).

  Candidates, in this order, named by domain only (none chosen by how kernelport does on them):
    1. locktide/CrypHaze_workon_lockette   Cryptohaze: multi-hash brute forcer (MD5, NTLM, LM) and GPU rainbow
                                           tables (GRT: table generation, candidate hashes, chain regeneration)
    2. JPaulMora/Pyrit                     WPA/WPA2-PSK: PBKDF2-HMAC-SHA1 pairwise-master-key computation
    3. GPSnoopy/DesGpu                     DES crypt(3) password hashing, bitsliced (John the Ripper's, ported)
    4. leocalm/Lyra                        GPU attacks on password-hashing schemes (Lyra2, yescrypt)
    5. president-xd/CryptoPDC              hash cracking kernels (MD4/MD5, NTLM, SHA-1/2/3, RIPEMD, Whirlpool)
    6. meriken/merikens-tripcode-engine-v3 tripcode search (DES crypt / SHA-1 brute force)
    7. marosmatisko/HashDog                MD5 brute-force / dictionary / mask cracker
    8. kareido/CUDA_Passwd_Hacker          brute-force password cracker over a hash function
    9. shlok191/MD5_Hash_Decryption        MD5 brute-force password recovery
   10. simocosimo/GPU-Dictionary-Attack    dictionary attack on SHA-1 hashed passwords
   11. JCisneros77/MD5CrackerCUDA          MD5 brute-force cracker
   12. wusongchao/rubbish-rainbow-table-implementation  rainbow table generation and lookup (SHA-256)
   13. Smiril/brute                        SHA-256 password brute force
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout47's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND, cuSPARSE, cuSOLVER headers here)
  or the host compiler's search path, with the include dirs of the project's build; absent
  third-party headers (OpenSSL, Python, boost), generated headers and absent submodules do not
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
  than 4 projects qualify, an EXTENSION (digital forensics on the GPU: file carving, similarity /
  fuzzy hashing (ssdeep, sdhash, TLSH), known-file hash-set lookup; named by domain only, none in
  bench/used_repos.txt) is written and committed before its candidates are fetched.
Outcome of the rule (before any measure of kernelport, 11:58 UTC): candidates 1-13 all fetched. Cryptohaze 0 (1 of
  its first 10 resolves: the rest reach the CUDA SDK's cutil.h), Pyrit 1, DesGpu 12 (of 33), Lyra 7 (its three
  yescrypt units besides attackYescryptCUDA.cu do not resolve), CryptoPDC 12 (of 18), tripcode engine 0 (windows.h,
  conio.h), HashDog 0 (its newest snapshot holds no .cu), CUDA_Passwd_Hacker 3, MD5_Hash_Decryption 6 (of 7),
  GPU-Dictionary-Attack 1, MD5CrackerCUDA 4, rubbish-rainbow-table 1 (of 2), Smiril/brute 0 (its newest snapshot
  holds no .cu). Check (`nvcc -c`, first three files): Pyrit 1/1, DesGpu 0/3 and rubbish-rainbow-table 0/1 (MSVC-only
  code: DROPPED), Lyra 2/3 (Lyra2.cu calls cudaThreadSynchronize, removed in CUDA 13), CryptoPDC 3/3,
  CUDA_Passwd_Hacker 3/3, MD5_Hash_Decryption 2/3 (main.cu launches hard_parallel, declared in a header it does not
  include), GPU-Dictionary-Attack 1/1, MD5CrackerCUDA 3/3. The stops (40 files, 8 projects) are not reached: the
  candidates run out at 34 files in seven projects; seven qualify, so no EXTENSION. Caveats, said and not acted on:
  CryptoPDC is 12 of the 34 and Lyra 7; four projects are small coursework-sized MD5/SHA crackers; no rainbow-table
  project survived (Cryptohaze's GRT needs cutil.h, rubbish-rainbow-table is MSVC-only).
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout50_baseline.txt).
"""
from __future__ import annotations

from heldout24_select import write_set  # its qualifying check, CAP, vendored-folder filter and loop

STOP_FILES, STOP_PROJECTS = 40, 8

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    # Cryptohaze-Combined/CMakeLists.txt: ADD_SUBDIRECTORY(src/), CH_INCLUDE_DIR inc/; Makefile.inc also -I$(INCLUDE_ROOT)
    # (its bundled boost/); NVCC flags: the sm_10/sm_20 gencodes (below CUDA 13's minimum, left out) and
    # --compiler-options -fno-strict-aliasing (a host-compiler option, left out); no -std: 17
    ("cryptohaze", "locktide/CrypHaze_workon_lockette", "GPL-2.0-or-later (in each file's header)", [],
     ["Cryptohaze-Combined/inc", "Cryptohaze-Combined"], [], ["-std=c++17"], "Cryptohaze-Combined/src/"),
    # modules/cpyrit_cuda/setup.py: nvcc -Xcompiler -fPIC --ptx ./_cpyrit_cudakernel.cu (the folder's one unit)
    ("pyrit", "JPaulMora/Pyrit", "GPL-3.0 (see COPYING)", ["COPYING"], [], [], ["-std=c++17"], "modules/cpyrit_cuda/"),
    # src/CMakeLists.txt: include dirs . and ../external, -DBOOST_UT_DISABLE_MODULE, -DUNIX (CMakeLists.txt on UNIX);
    # CMAKE_CUDA_ARCHITECTURES 86; no CUDA standard set: 17
    ("desgpu", "GPSnoopy/DesGpu", "(none in the repository)", [], ["src", "external"], ["BOOST_UT_DISABLE_MODULE", "UNIX"],
     ["-std=c++17", "-arch=sm_86"], "src/"),
    # two builds, no single folder (the whole repository): Lyra2/src/makefile's cuda targets nvcc -O3 $(parameters)
    # (-DN_COLS=256 -DnPARALLEL=2 -DRHO=1 -DBLOCK_LEN_INT64=12 -DSPONGE=1 -DBENCH=0); GPU_attacks/yescryptCUDA/Makefile
    # nvcc -O3 -DTEST -DYESCRYPT_P=$(PAR) (PAR=1 in reproduceLyraTwoYescryptGPUBench.sh); the sm_35 code left out
    ("lyra", "leocalm/Lyra", "BSD (see docs/LICENSE.md)", ["docs/LICENSE.md"], [],
     ["N_COLS=256", "nPARALLEL=2", "RHO=1", "BLOCK_LEN_INT64=12", "SPONGE=1", "BENCH=0", "TEST", "YESCRYPT_P=1"],
     ["-std=c++17", "-O3"], ""),
    # cuda/CMakeLists.txt: cuda/src/*.cu, include dirs cuda/include and core/include, CUDA_SEPARABLE_COMPILATION ON
    # (-rdc=true), CUDA_STANDARD 14 (-> 17); release flags -O3 -use_fast_math -DNDEBUG; arches 60..86 (75+ kept by default)
    ("cryptopdc", "president-xd/CryptoPDC", "(none in the repository)", [], ["cuda/include", "core/include"],
     ["NDEBUG"], ["-std=c++17", "-O3", "-use_fast_math", "-rdc=true"], "cuda/src/"),
    # SourceFiles/CMakeLists.txt: CUDA_NVCC_FLAGS -DENABLE_CUDA -maxrregcount=168 (the sm_50..61 gencodes left out);
    # cuda_include_directories BoostPackages/include and BoostPackages/boost_1_61_0 (a .7z archive in the repository,
    # not unpacked: absent)
    ("tripcode", "meriken/merikens-tripcode-engine-v3", "GPL-3.0 (see LICENSE)", ["LICENSE"],
     ["BoostPackages/include", "BoostPackages/boost_1_61_0"], ["ENABLE_CUDA"], ["-std=c++17", "-maxrregcount=168"],
     "SourceFiles/"),
    # HashDog/HashDog.vcxproj (Visual Studio): OpenSSL-Win64's include dir (absent), _CRT_SECURE_NO_WARNINGS, _CONSOLE
    ("hashdog", "marosmatisko/HashDog", "(none in the repository)", [], [], [], ["-std=c++17"], "HashDog/"),
    # Makefile: nvcc -Xcompiler -O3 -Xptxas -O3 -I. -dc (relocatable device code)
    ("passwd-hacker", "kareido/CUDA_Passwd_Hacker", "(none in the repository)", [], ["."], [],
     ["-std=c++17", "-rdc=true"], ""),
    # brute_force_kernels/CMakeLists.txt: its six .cu (a pybind11 module); no flags
    ("md5-decrypt", "shlok191/MD5_Hash_Decryption", "(none in the repository)", [], [], [], ["-std=c++17"],
     "brute_force_kernels/"),
    # no build file: the whole repository
    ("dict-attack", "simocosimo/GPU-Dictionary-Attack", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # no build file: the whole repository
    ("md5cracker", "JCisneros77/MD5CrackerCUDA", "(none in the repository)", [], [], [], ["-std=c++17"], ""),
    # crack/crack.vcxproj and kernelV3 (Visual Studio): no flags read; the whole repository
    ("rainbow-wu", "wusongchao/rubbish-rainbow-table-implementation", "(none in the repository)", [], [], [],
     ["-std=c++17"], ""),
    # Makefile: clang bruteforce.c only (its newest snapshot holds no .cu)
    ("brute-smiril", "Smiril/brute", "GPL-2.0 (see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
]
# the self-contained check (`nvcc -c`, the build's flags, first three files): DesGpu 0 of 3 (its logical_ops.h's LUT
# macro pastes "(" onto a token, which MSVC's preprocessor accepts and GCC's refuses), rubbish-rainbow-table 0 of 1
# (its utils.h's __declspec(align(...)), MSVC only): code errors, not removed APIs
DROPPED = frozenset({"GPSnoopy/DesGpu", "wusongchao/rubbish-rainbow-table-implementation"})


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("fiftieth", "heldout50", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
