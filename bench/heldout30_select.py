#!/usr/bin/env python3
"""How the thirtieth held-out set (bench/heldout30.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout30_select.py      # -> bench/heldout30.toml

RULE, written and committed (h/heldout30, 07:47 UTC) before any candidate was fetched or measured
(only the stored index's repository names and its code search were looked up, to name candidates
that exist and hold CUDA sources), for cryptography outside cryptocurrency mining and key search
(fully homomorphic encryption, lattice number-theoretic transforms, post-quantum key encapsulation
and signatures, zero-knowledge proof arithmetic (MSM / NTT over prime fields), elliptic-curve
discrete logarithms, block ciphers):

  Candidates, in this order, named by domain only (none in /work/notes/t43/used_repos.txt nor
  named by an earlier heldout*_select.py, none of heldout28's bioinformatics or heldout29's
  neuroscience / classic-ML domains, none chosen by how kernelport does on them):
    1. vernamlab/cuFHE                  fully homomorphic encryption: TFHE gate bootstrapping
    2. encryptorion-lab/phantom-fhe     fully homomorphic encryption: CKKS / BFV / BGV
    3. Alisah-Ozcan/GPU-NTT             number-theoretic transform for lattice cryptography
    4. tono-satolab/atpqc-cuda          post-quantum key encapsulation: CRYSTALS-Kyber
    5. encryptorion-lab/cuDilithium     post-quantum signatures: CRYSTALS-Dilithium
    6. nainag/PQC                       post-quantum key encapsulation: Kyber / NewHope, batched
    7. supranational/sppark             zero-knowledge proof arithmetic: MSM, NTT over prime fields
    8. JeanLucPons/Kangaroo             elliptic-curve discrete logarithm (Pollard kangaroo, secp256k1)
    9. Bl4omArchie/AES_CUDA             block cipher: AES (T-box) encryption
   10. shugonta/CompArcAES              block cipher: AES encryption
   11. Alisah-Ozcan/HEonGPU             fully homomorphic encryption: CKKS / BFV / TFHE library
   12. ingonyama-zk/icicle              zero-knowledge proof arithmetic: MSM, NTT, hashes (CUDA backend)
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING (heldout21's rule, reused through heldout24_select.select as heldout25-29 do): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all of them if fewer
  than 10) under its source folder have every `#include` they reach resolve in the repository, the
  CUDA toolkit (CUDA 13, with its cccl/ thrust and cub) or the host compiler's search path
  (heldout2_select.resolves, read textually with heldout21's linux_text), with the include dirs of
  the project's build. This machine's CUDA 13 has no cuBLAS, cuRAND, cuFFT, cuSPARSE or cuDNN
  headers: a file that includes one (directly or through a local header) does not resolve, so it
  does not count toward qualifying and is not taken; the rule takes no stand-in headers. Likewise
  absent third-party headers (GMP, NTL, OpenSSL, blst, gtest, ...), headers a build generates, and
  git submodules absent from the snapshot. Files of a qualifying candidate: its `.cu` files only
  (local headers are copied with them by realcorpus_build.py), under its source folder (read from
  its build files after the fetch and before any measure; the whole repository when the build
  names no single folder), less vendored third-party folders (a path component named third_party,
  3rdparty, external or extern), within the size cap, less those whose includes do not resolve and
  byte-for-byte copies (heldout2_select.pick). A project with more than CAP = 12 such files gives
  12 evenly spaced in path order (files[i*n//12]). Include dirs, defines and nvcc flags are those
  of the project's own build files (read after the fetch and before any measure; `-std=c++17`
  where the build asks for an older standard: CUDA 13's headers need 17; a build's -arch below
  CUDA 13's minimum is left out). Self-contained check, by the rule and not by kernelport
  (heldout22's): the first three files taken (path order; all if fewer) are compiled with `nvcc -c`
  and the project's flags; a project of which fewer than two (one if it gives one file) compile,
  for a reason other than CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be
  fetched, does not qualify or gives 0 files (said below). Candidates are taken in order until the
  set holds at least STOP_FILES = 45 files or STOP_PROJECTS = 6 projects.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout30_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 45, 6

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES = [
    ("cufhe", "vernamlab/cuFHE", "", [], [], [], ["-std=c++17"], ""),
    ("phantom-fhe", "encryptorion-lab/phantom-fhe", "", [], [], [], ["-std=c++17"], ""),
    ("gpu-ntt", "Alisah-Ozcan/GPU-NTT", "", [], [], [], ["-std=c++17"], ""),
    ("atpqc-cuda", "tono-satolab/atpqc-cuda", "", [], [], [], ["-std=c++17"], ""),
    ("cudilithium", "encryptorion-lab/cuDilithium", "", [], [], [], ["-std=c++17"], ""),
    ("nainag-pqc", "nainag/PQC", "", [], [], [], ["-std=c++17"], ""),
    ("sppark", "supranational/sppark", "", [], [], [], ["-std=c++17"], ""),
    ("kangaroo", "JeanLucPons/Kangaroo", "", [], [], [], ["-std=c++17"], ""),
    ("aes-cuda", "Bl4omArchie/AES_CUDA", "", [], [], [], ["-std=c++17"], ""),
    ("comparc-aes", "shugonta/CompArcAES", "", [], [], [], ["-std=c++17"], ""),
    ("heongpu", "Alisah-Ozcan/HEonGPU", "", [], [], [], ["-std=c++17"], ""),
    ("icicle", "ingonyama-zk/icicle", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED: frozenset[str] = frozenset()  # filled after the self-contained check (said above)


def heldout30() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("thirtieth", "heldout30", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout30.toml").write_text(heldout30())
