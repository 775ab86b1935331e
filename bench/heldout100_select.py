#!/usr/bin/env python3
"""How the hundredth held-out set (bench/heldout100.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout100_select.py      # -> bench/heldout100.toml

RULE, written and committed (h/heldout100) before any repository was fetched or measured and before any file
listing was looked up. Not a domain: a SYSTEMATIC SAMPLE (stop 65's method; bench/heldout94_select.py's template,
stop 64's drops). The frame is the stored index's repository listing `find_repos(name_contains="nbody")`, called at
21:16 UTC on 2026-12-07: 100 repositories, highest file_versions first, recorded below (FRAME) in the listed order
(the listing said more may match; the 100 listed are the frame). By name much of the frame is not N-body code at
all ("inbody", "unbody", "HumanBody", "ironbody" applications, pynbody analysis in Python, Julia packages): drop (d)
removes those with no CUDA source; the rule is not widened for that. heldout100 takes EVERY rank 1, 2, 3, ... (its
own frame; added at 21:20 UTC after heldout99's "kernels" even ranks gave 0 files).
  Drops, each repository given the first reason that applies, ranks counted ONCE on a list that depends only on main
  (1ef554d0, main's head at 21:15 UTC) and the frame, never on a sibling's progress:
    a. a repository in main's bench/used_repos.txt or a candidate of any bench/*_select.py on main (grep,
       case-insensitive, of each owner/name): nbodyx/Nbody6ppGPU (heldout20's candidate 6);
    b. NVIDIA's own (owner NVIDIA, NVlabs, NVIDIA-*) and copies of NVIDIA/cuda-samples: none by owner or name;
    c. a repository in ANY earlier frame: every FRAME list in main's bench/heldout*_select.py (the same grep: no hit
       besides (a)'s) and this stop's siblings' frames, find_repos "matmul" (heldout97) and "kernels" (heldout98/99):
       a name in those frames holds "matmul" or "kernels", and none of these 100 does: none. Stop 63's string drops
       are replaced by this membership drop: a repository outside the earlier frames' 100 listed names was never
       eligible there, so it is unseen;
    d. no `.cu`/`.cuh` in its stored listing: `find_files(repo=X, ext="cu")` and, where that shows no path,
       `find_files(repo=X, ext="cuh")` both show zero paths (paths only; recorded in CUDA_LOOK after this commit and
       before any fetch). The looks go in frame order only as far as the sampling needs (each rank depends only on
       the looks before it; recorded); a look that says "more matched" with zero paths shown is read as zero paths
       (heldout90's reading);
    e. forks/copies: a repository whose taken files are byte-for-byte those of one taken before it adds nothing
       (0 files); applied when files are taken, it does NOT renumber.
  Sample: number what remains after (a)-(d) 1, 2, 3, ... in frame order and take ranks 1, 2, 3, ... in order. No
  fallback pass.
  QUALIFYING, files, cap and check: heldout94's (heldout90's; heldout80's rule, heldout24_select's qualifying check
  and vendored-folder filter) with CAP = 8 per repository, the FIRST 8 in path order: a repository qualifies if at
  least half of its first 10 `.cu` files by path (all if fewer) under its source folder have every `#include` they
  reach resolve in the repository, the CUDA toolkit (CUDA 13 with its cccl/ thrust and cub; no cuFFT, cuBLAS, cuRAND,
  cuSPARSE, cuSOLVER, NCCL, NVSHMEM headers here) or the host compiler's search path, with the include dirs of the
  project's build; absent third-party headers (OpenGL/GLFW/GLEW/GLUT, SDL, Qt, OpenCV, Eigen, MPI, torch, Kokkos),
  generated headers and absent submodules do not resolve, and no stand-in headers are taken. Files: `.cu` only under
  the source folder read from the build files after the fetch and before any measure (the whole repository when the
  build names no single folder), less vendored folders (third_party, 3rdparty, external, extern), over the size cap,
  not resolving, or byte-for-byte copies. Include dirs, defines and flags from the project's own build (`-std=c++17`
  where it asks for older; an -arch below CUDA 13's minimum left out). Self-contained check: the first three files
  taken (all if fewer) are compiled with `nvcc -c` and the project's flags; a project of which fewer than two (one if
  it gives one) compile, for a reason other than CUDA 13's removed APIs, drops out (DROPPED), as does one that cannot
  be fetched, does not qualify or gives 0 files. Sampled repositories are taken in order until the set holds at least
  STOP_FILES = 40 files or STOP_PROJECTS = 10 projects; if the frame runs out first, the set is what it gives (said,
  not widened).
Outcome: (recorded after this commit, below).
"""
from __future__ import annotations

STOP_FILES, STOP_PROJECTS, CAP = 40, 10, 8
NOT_FETCHED = "(fetch: no snapshot of that repository can be had here)"

# find_repos(name_contains="nbody") at 21:16 UTC, 2026-12-07: the 100 names in listed order
FRAME = [
    "edgar965/HumanBodyWeb", "awictor/symplectic-nbody", "soulnbody1/soom", "Collab4exaNBody/exaStamp",
    "Collab4exaNBody/exaNBody", "bccp/nbodykit", "Collab4exaNBody/exaDEM", "unbody-io/adapt", "pynbody/pynbody",
    "pynbody/tangos", "YongseokJo/NbodyPlus", "jl22411L/NBodySimulator", "student-inbody-kiosk/ATIBO",
    "byeonkho/nbodysim", "OpenAnimal/tree-free-nbody-engine", "silentmass/brainbodyroutine2",
    "joinbodygood/replitbuildout1", "pynbody/genetIC", "InBodyGBS/gbs_dash", "wx-ys/pynbody-extras", "drons/nbody",
    "unbody-io/unbody", "iron-body/project-ironbody-ui", "thedragonbody/LawyerReservation",
    "TaxonBodyMassML/TaxonBodyMass_DB", "edipowladeo/nbodysimulation", "sanjib20jgec-arch/Humanbody",
    "kijudev/nbody-cpp", "InBodyGBS/sales_dash", "mariaaescribano/HumanBody", "Collab4exaNBody/hippoLBM",
    "qshu/NbodyArchive", "YongseokJo/enzo-nbody", "erikenbody/Bioinformatics_Scripts",
    "JohanComparat/nbody-npt-functions", "srikkant/nbody", "Collab4exaNBody/doc_exaStamp",
    "JasonYangCKSH/nbody_initial_project", "build-workbench/nbody-gpu-sim", "FlowAway-GoldenBody/flowaway-goldenbody",
    "cunhad/NBodyWake", "unbody-io/ts-client", "ericagol/NbodyGradient.jl", "cortner/NBodyIPs.jl",
    "Impervguin/NBodySim", "calvin-sykes/nbody2", "unbody-io/unbody.io", "edgar965/HumanBodyBlender",
    "sytrams/AMSC-Nbody", "LEO0331/inbodysimpletracker", "unbody-io/Gray", "advatar/OpenBody",
    "ismael-mendoza/nbody-relaxed", "PaulGoG/Nbody6Dynamics.jl", "vialamo/nbody", "pynbody/topsy",
    "rezucch1/nbody-FMM", "Urist-McDeveloper/nbody", "Diego-Hinrichs/nbody", "Zaggy1024/LC_OpenBodyCams",
    "miscarriage87/HumanBodyManual", "Fujiwo/Shos.NBodyProblemSimulator", "deimonbody/Tic-Tac-Toe", "stett/nbody",
    "mannguptaST/inbody-cultfit-portal", "branc116/NBody", "kaitobq/inbody-ocr-backend",
    "yzluka/SlicerSegmentHumanBody", "AlexNeagu123/msc-thesis-gnn-nbody", "TaxonBodyMassML/TaxonBodyMassML",
    "openbody/openbody-ts", "lechebs/nbody", "aceeric/nbodygo", "jhowtechsolutions/ironbody",
    "albtad01/NBody-EuroHPC", "JcTr0602/ironbodygym-apk", "InBody-Directorio/directorio-inbody", "fmheinze/pn-nbody",
    "ProjectInTheClass/NoonBody", "savchenkoyana/Nbody", "stasostyk/nbody-hpc-simulation", "CaffeInBody/CaffeInBody",
    "nbodyx/Nbody6ppGPU", "dnsmsghfoddl09-creator/InBodyXGLP-1", "kongbaguni/myinbodyprofile",
    "Mattia-Colbertaldo/Nbody", "JamesPeters98/Java-NBody-Simulation", "Jelly-Fish/nbody", "Nbodypp/HOW_final",
    "simbleau/nbody-wasm-sim", "Collab4exaNBody/onika", "JotaEspig/nbody-simulation",
    "ooper-shlab/OpenCLNBodySim-Swift", "wendazhou/nbodyhpc", "AMSC-24-25/06-nbody-06-nbody", "sigrimm/Lowell-Nbody",
    "Matthew-Rennie/NBody", "hgarmany/nbody", "rLadia/NBodySimulator", "slinbody/Python",
]

# (a): in main's bench/used_repos.txt or a candidate of a bench/*_select.py on main (1ef554d0)
USED_OR_CANDIDATE = ("nbodyx/Nbody6ppGPU",)
# (b): owner NVIDIA / NVlabs / NVIDIA-*, or a copy of NVIDIA/cuda-samples: none in this frame
NVIDIA_OWN: tuple[str, ...] = ()
# (c): in an earlier FRAME list of main's bench/heldout*_select.py or this stop's "matmul"/"kernels" frames: none
IN_EARLIER_FRAME: tuple[str, ...] = ()
DROP_BY_NAME: dict[str, str] = {r: "(a): used or an earlier set's candidate" for r in USED_OR_CANDIDATE}
DROP_BY_NAME.update({r: "(b): NVIDIA's own or a cuda-samples copy" for r in NVIDIA_OWN})
DROP_BY_NAME.update({r: "(c): in an earlier frame" for r in IN_EARLIER_FRAME})
REMAINING_BEFORE_D = [r for r in FRAME if r not in DROP_BY_NAME]
assert len(FRAME) == 100 and len(REMAINING_BEFORE_D) == 99, len(REMAINING_BEFORE_D)
