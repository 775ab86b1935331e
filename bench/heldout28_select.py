#!/usr/bin/env python3
"""How the twenty-eighth held-out set (bench/heldout28.toml) will be chosen (run once; kept so the
choice is reviewable and repeatable):

    python bench/heldout28_select.py      # -> bench/heldout28.toml

RULE, written and committed (h/heldout28, 04:55 UTC) before any candidate was fetched or measured
(only the stored index's repository names, its .cu paths and its code search were looked up, to
name candidates that exist and hold CUDA sources), for bioinformatics, genomics and chemistry
beyond what is used (read alignment and mapping outside CUDASW4, LOGAN, SW#, nvbio and ADEPT;
k-mer counting and classification; variant / methylation calling; phylogenetics outside
beagle-lib; population genetics; molecular docking outside AutoDock-GPU; cheminformatics
similarity search; quantum chemistry integrals outside gpu4pyscf; mass spectrometry):

  Candidates, in this order, named by domain only (none in /work/notes/t42/used.md nor named by an
  earlier heldout*_select.py, none of heldout29's neuroscience / classic-ML domain, none chosen by
  how kernelport does on them):
    1. quim0/WFA-GPU                          read alignment: wavefront alignment (WFA) on GPU
    2. nahmedraja/GASAL2                      read alignment: batched pairwise (local/global/semi-global)
    3. muellan/metacache                      k-mer (minhash) metagenomic read classification, GPU hash maps
    4. hasindu2008/f5c                        nanopore event alignment / methylation calling (nanopolish on GPU)
    5. DL42/ParallelPopGen                    population genetics: Wright-Fisher simulation (GO Fish), SFS
    6. theLongLab/CATE                        population genetics statistics (Tajima's D, Fst, Fu & Li, EHH, ...)
    7. rmingming/CuPhylo                      phylogenetic likelihood (Felsenstein pruning) kernels
    8. dptech-corp/Uni-Dock                   molecular docking (Vina scoring, Monte Carlo search)
    9. schrodinger/gpusimilarity              cheminformatics: fingerprint Tanimoto similarity search
   10. ValeevGroup/libintx                    quantum chemistry: Gaussian electron-repulsion integrals
   11. tmcdonell/hfx                          mass spectrometry: SEQUEST peptide-spectrum cross-correlation
   12. NVIDIA-Genomics-Research/GenomeWorks   long-read mapping (cudamapper), alignment, POA consensus
   13. gsneha26/SegAlign                      whole-genome alignment (LASTZ seeding and filtering on GPU)
   14. merzlab/QUICK                          quantum chemistry: ERI, exchange-correlation (HF/DFT)
   15. NVIDIA-Digital-Bio/nvMolKit            cheminformatics: fingerprints, similarity, conformers
  Each candidate is fetched at the newest stored snapshot (commit pinned in the toml).
  QUALIFYING (heldout21's rule, reused through heldout24_select.select as heldout25-27 do): a
  candidate qualifies if at least half of its first 10 `.cu` files by path (all of them if fewer
  than 10) under its source folder have every `#include` they reach resolve in the repository, the
  CUDA toolkit (CUDA 13, with its cccl/ thrust and cub) or the host compiler's search path
  (heldout2_select.resolves, read textually with heldout21's linux_text), with the include dirs of
  the project's build. This machine's CUDA 13 has no cuBLAS, cuRAND, cuFFT or cuSPARSE headers
  (cublas_v2.h, curand.h, curand_kernel.h, cufft.h, cusparse.h absent): a file that includes one
  (directly or through a local header) does not resolve, so it does not count toward qualifying
  and is not taken; the rule takes no stand-in headers (the set is what remains, said, not
  patched). Git submodules absent from the snapshot are absent: their headers do not resolve.
  Files of a qualifying candidate: its `.cu` files only (local headers are copied with them by
  realcorpus_build.py), under its source folder (read from its build files after the fetch and
  before any measure; the whole repository when the build names no single folder), less vendored
  third-party folders (a path component named third_party, 3rdparty, external or extern), within
  the size cap, less those whose includes do not resolve and byte-for-byte copies
  (heldout2_select.pick). A project with more than CAP = 12 such files gives 12 evenly spaced in
  path order (files[i*n//12]). Include dirs, defines and nvcc flags are those of the project's own
  build files (read after the fetch and before any measure; `-std=c++17` where the build asks for
  an older standard: CUDA 13's headers need 17; a build's -arch below CUDA 13's minimum is left
  out). Self-contained check, by the rule and not by kernelport (heldout22's): the first three
  files taken (path order; all if fewer) are compiled with `nvcc -c` and the project's flags; a
  project of which fewer than two (one if it gives one file) compile, for a reason other than
  CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot be fetched, does not
  qualify or gives 0 files (said below). Candidates are taken in order until the set holds at
  least STOP_FILES = 45 files or STOP_PROJECTS = 7 projects.
The set is measured on main's kernelport as it is before anyone changes code for it
(bench/scoreboard_heldout28_baseline.txt).
"""
from __future__ import annotations

from pathlib import Path

from heldout24_select import select  # its qualifying check, CAP, vendored-folder filter and loop

ROOT = Path(__file__).resolve().parent.parent
STOP_FILES, STOP_PROJECTS = 45, 7

# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder):
# include dirs, defines and flags are those of each project's own build, read after the fetch and
# before any measure (filled in then).
CANDIDATES: list = []
DROPPED: frozenset = frozenset()


def heldout28() -> str:  # heldout24's machinery (spaced, taken, the loop), with this set's candidates and stops
    return select("twenty-eighth", "heldout28", CANDIDATES, DROPPED, stop_files=STOP_FILES,
                  stop_projects=STOP_PROJECTS)


if __name__ == "__main__":
    (ROOT / "bench/heldout28.toml").write_text(heldout28())
