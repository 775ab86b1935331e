#!/usr/bin/env python3
"""How the thirty-seventh held-out set (bench/heldout37.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout37_select.py      # -> bench/heldout37.toml

RULE, written and committed (h/heldout37, 21:10 UTC) before any candidate was fetched or measured
(only the stored index's repository names and code search were looked up, to name candidates that
exist and hold CUDA sources), for wireless communications, channel coding and software-defined
radio: LDPC / polar / turbo / Viterbi decoders, Reed-Solomon and BCH codecs, OFDM and MIMO
detection, 5G PHY, GNSS receivers, spread-spectrum correlators, channelisers and digital
down-converters in SDR toolkits. Radio-astronomy signal processing (heldout20/34: bifrost, dedisp,
xGPU, WODEN, hyperdrive, ...) and cryptography (heldout30) were taken before, and gnuradio/gr-cuda
and cascade-space-co/gr-cuda were named by heldout20/34: none of those is a candidate; a radio
telescope's F-engine (polyphase filter bank) found in the search is radio astronomy and is left out.

  Candidates, in this order, named by domain only (none in bench/used_repos.txt nor named by an
  earlier heldout*_select.py, none chosen by how kernelport does on them):
    1. robertwgh/cuLDPC                       QC-LDPC decoder for SDR (min-sum, layered/flooding)
    2. blegal/Fast_LDPC_decoder_for_GPU_fixed min-sum offset LDPC decoder, fixed point
    3. blegal/Fast_LDPC_decoder_for_GPU_float min-sum LDPC decoder, floating point
    4. blegal/ADMM_LDPC_decoder_on_GPU        ADMM LDPC decoding
    5. matt02j/ece569                         LDPC decoder optimisations (Gallager B)
    6. gsw4869/CUDA_LDPC                      non-binary LDPC decoding (EMS)
    7. oscarferraz/NBLDPCTutorial             non-binary LDPC min-max decoder
    8. alireza-md93/GPU-Accelerated-Viterbi-Decoder  Viterbi decoder (ACS with warp shuffles, traceback)
    9. xinxu27/turbo_decoder_cuda             turbo decoder
   10. arulk77/gpu.bch                        BCH decoder (syndromes, Berlekamp, Chien search)
   11. soulsheng/datvexpress_gui              DVB-S2 transmitter / FEC (BCH, LDPC) on the GPU
   12. cloud9477/gr-ieee80211                 IEEE 802.11a/g/n/ac PHY (OFDM demodulation, Viterbi) in CUDA
   13. gnss-sdr/gnss-sdr                      GNSS receiver (its CUDA multi-correlator)
   14. mhshammakhi/Software-Defined-Radio     SDR blocks (down-conversion, baseband filter, demodulators)
   15. f4gkr/libgkr4gpu                       multiple independent digital down-converters
   16. mfkiwl/CUDA_sdr_gps                    GPS signal emulation / receiver in CUDA
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING, files, cap and check: heldout36's rule unchanged (heldout24_select.select): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all if fewer) under its
  source folder have every `#include` they reach resolve in the repository, the CUDA toolkit
  (CUDA 13 with its cccl/ thrust and cub; no cuBLAS, cuRAND, cuFFT headers here) or the host
  compiler's search path, with the include dirs of the project's build; absent third-party headers
  (the CUDA samples' helper_cuda.h / helper_functions.h unless the repository holds them, GNU
  Radio's, itpp, Boost), generated headers and absent submodules do not resolve, and no stand-in
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
(bench/scoreboard_heldout37_baseline.txt).
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
    ("culdpc", "robertwgh/cuLDPC", "", [], [], [], ["-std=c++17"], ""),
    ("ldpc-gpu-fixed", "blegal/Fast_LDPC_decoder_for_GPU_fixed", "", [], [], [], ["-std=c++17"], ""),
    ("ldpc-gpu-float", "blegal/Fast_LDPC_decoder_for_GPU_float", "", [], [], [], ["-std=c++17"], ""),
    ("admm-ldpc", "blegal/ADMM_LDPC_decoder_on_GPU", "", [], [], [], ["-std=c++17"], ""),
    ("ece569-ldpc", "matt02j/ece569", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-nbldpc", "gsw4869/CUDA_LDPC", "", [], [], [], ["-std=c++17"], ""),
    ("nbldpc-tutorial", "oscarferraz/NBLDPCTutorial", "", [], [], [], ["-std=c++17"], ""),
    ("viterbi-gpu", "alireza-md93/GPU-Accelerated-Viterbi-Decoder", "", [], [], [], ["-std=c++17"], ""),
    ("turbo-decoder", "xinxu27/turbo_decoder_cuda", "", [], [], [], ["-std=c++17"], ""),
    ("gpu-bch", "arulk77/gpu.bch", "", [], [], [], ["-std=c++17"], ""),
    ("datvexpress", "soulsheng/datvexpress_gui", "", [], [], [], ["-std=c++17"], ""),
    ("gr-ieee80211", "cloud9477/gr-ieee80211", "", [], [], [], ["-std=c++17"], ""),
    ("gnss-sdr", "gnss-sdr/gnss-sdr", "", [], [], [], ["-std=c++17"], ""),
    ("sdr-blocks", "mhshammakhi/Software-Defined-Radio", "", [], [], [], ["-std=c++17"], ""),
    ("libgkr4gpu", "f4gkr/libgkr4gpu", "", [], [], [], ["-std=c++17"], ""),
    ("cuda-sdr-gps", "mfkiwl/CUDA_sdr_gps", "", [], [], [], ["-std=c++17"], ""),
]
DROPPED: frozenset[str] = frozenset()  # fewer than 2 of 3 (all of 1-2) in the self-contained check


def heldout37() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("thirty-seventh", "heldout37", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout37.toml").write_text(heldout37())
