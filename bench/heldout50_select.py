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
    ("cryptohaze", "locktide/CrypHaze_workon_lockette", "", [], [], [], ["-std=c++17"], ""),
    ("pyrit", "JPaulMora/Pyrit", "", [], [], [], ["-std=c++17"], ""),
    ("desgpu", "GPSnoopy/DesGpu", "", [], [], [], ["-std=c++17"], ""),
    ("lyra", "leocalm/Lyra", "", [], [], [], ["-std=c++17"], ""),
    ("cryptopdc", "president-xd/CryptoPDC", "", [], [], [], ["-std=c++17"], ""),
    ("tripcode", "meriken/merikens-tripcode-engine-v3", "", [], [], [], ["-std=c++17"], ""),
    ("hashdog", "marosmatisko/HashDog", "", [], [], [], ["-std=c++17"], ""),
    ("passwd-hacker", "kareido/CUDA_Passwd_Hacker", "", [], [], [], ["-std=c++17"], ""),
    ("md5-decrypt", "shlok191/MD5_Hash_Decryption", "", [], [], [], ["-std=c++17"], ""),
    ("dict-attack", "simocosimo/GPU-Dictionary-Attack", "", [], [], [], ["-std=c++17"], ""),
    ("md5cracker", "JCisneros77/MD5CrackerCUDA", "", [], [], [], ["-std=c++17"], ""),
    ("rainbow-wu", "wusongchao/rubbish-rainbow-table-implementation", "", [], [], [], ["-std=c++17"], ""),
    ("brute-smiril", "Smiril/brute", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED = frozenset()


if __name__ == "__main__":  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    write_set("fiftieth", "heldout50", CANDIDATES, DROPPED, stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
