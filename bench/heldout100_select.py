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
Outcome of the drops and the sampling (21:17-21:25 UTC, before any measure of kernelport): 1 repository dropped by (a)
  (nbodyx/Nbody6ppGPU), none by (b) or (c); (d) leaves 18 of the 99 (CUDA_SHOWN). Every rank (qualifying: of the first
  10 .cu by path): 1 exaStamp 0/10, 2 exaNBody 0/10, 3 exaDEM 0/10 (the onika / exanb headers of the installed
  exaNBody/onika packages and MPI do not resolve), 4 NbodyPlus 1/4, 5 tree-free-nbody-engine 1/1 (1 file), 6 drons/nbody
  0/1, 7 hippoLBM 0/10 (onika), 8 NbodyArchive 0 (its newest snapshot holds README.md only), 9 enzo-nbody 2/5,
  10 build-workbench/nbody-gpu-sim and 11 sytrams/AMSC-Nbody (fetch: no snapshot), 12 Diego-Hinrichs/nbody 9/9 (8),
  13 lechebs/nbody 6/7 (6), 14 albtad01/NBody-EuroHPC 9/10 (8), 15 Mattia-Colbertaldo/Nbody 6/6 (6), 16 onika 0/10
  (a generated onika config header and its plugin headers), 17 AMSC-24-25/06-nbody-06-nbody 0 (no .cu in its newest
  snapshot), 18 sigrimm/Lowell-Nbody 8/8 (8). (e): none of the six taken is a copy of another. Check (`nvcc -c`, the
  first three, 21:25 UTC): tree-free 1/1, diego 3/3, lechebs 2/3 (barnes_hut.cu: ptxas, an unresolved extern device
  function PhysicsCommon<float>::get_softening_factor_sq, defined in another unit: the source's), eurohpc 2/3
  (SimulationNBodyCUDALeapfrog.cu: GPUSimulationHistory is not a template: the source's, out of step with its header), mattia 3/3, lowell 3/3: none dropped. THE FRAME IS THIN: every rank
  was taken and the set stays under STOP_FILES (37 of 40) with 6 projects (of 10); not widened. Most of the frame is
  not N-body code ("inbody"/"unbody"/"HumanBody" applications, Python/Julia packages) or reaches the onika framework.
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
# (d): find_files(repo=X, ext="cu"), then ext="cuh" where that showed no path; paths only; 21:17-21:20 UTC, after the
# RULE's commit b0cc35cf (21:17:07). Positions 1-39 looked (both extensions) before any fetch; the ten ranks they gave
# were fetched, then positions 40-100 looked (every rank is taken, so the set needed the whole frame), each rank
# fetched after its look. For positions 40-100 the .cuh look was skipped where the .cu look showed none (heldout96's reading): the rule
# takes `.cu` files only, so such a repository gives 0 files whether (d) drops it or not, and every rank is taken (the
# numbering moves no choice).
LOOKED = FRAME
CUDA_SHOWN = (
    "Collab4exaNBody/exaStamp", "Collab4exaNBody/exaNBody", "Collab4exaNBody/exaDEM", "YongseokJo/NbodyPlus",
    "OpenAnimal/tree-free-nbody-engine", "drons/nbody", "Collab4exaNBody/hippoLBM", "qshu/NbodyArchive",
    "YongseokJo/enzo-nbody", "build-workbench/nbody-gpu-sim", "sytrams/AMSC-Nbody", "Diego-Hinrichs/nbody",
    "lechebs/nbody", "albtad01/NBody-EuroHPC", "Mattia-Colbertaldo/Nbody", "Collab4exaNBody/onika",
    "AMSC-24-25/06-nbody-06-nbody", "sigrimm/Lowell-Nbody",
)
NO_CUDA_FILES: frozenset[str] = frozenset(r for r in LOOKED if r in REMAINING_BEFORE_D) - set(CUDA_SHOWN)


def remaining() -> list[str]:
    """Ranks 1, 2, 3, ...: the repositories of the frame left after (a)-(d), in frame order."""
    return [r for r in REMAINING_BEFORE_D if r in LOOKED and r not in NO_CUDA_FILES]


def sample() -> list[str]:
    """Every rank, in order."""
    return remaining()


# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder) of each sampled
# repository, in sample() order: filled in after the fetch, from each build, before any measure.
CANDIDATES = [
    # CMakeLists.txt (exaNBody/onika plugin build): src/*/ .cu with include/ and each module's include/; C++20;
    # the onika and exanb headers come from the installed exaNBody/onika packages (absent), MPI (absent)
    ("exastamp", "Collab4exaNBody/exaStamp", "Apache-2.0", ["LICENSE"], ["include"], [], ["-std=c++20"], "src/"),
    # CMakeLists.txt: src/ plugins over the onika package (a separate repository now, absent); C++20
    ("exanbody", "Collab4exaNBody/exaNBody", "Apache-2.0", ["LICENSE"], ["src"], [], ["-std=c++20"], "src/"),
    # CMakeLists.txt: an exaNBody plugin build (onika / exanb headers absent); C++20
    ("exadem", "Collab4exaNBody/exaDEM", "Apache-2.0", ["LICENSE"], ["include"], [], ["-std=c++20"], "src/"),
    # src/Makefile: CU_SRCS cuda/*.cu, -I./Particle -I./ (from src/), NVCCFLAGS -O2 --std=c++11 (-> c++17)
    ("nbodyplus", "YongseokJo/NbodyPlus", "(none in the repository)", [], ["src/Particle", "src"], [],
     ["-std=c++17", "-O2"], "src/cuda/"),
    # no build names the .cu (a JavaScript/Python repository with one CUDA kernel file): the whole repository
    ("tree-free-nbody", "OpenAnimal/tree-free-nbody-engine", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    # nbody/nbody.pro (qmake, HAVE_CUDA): nbody/ sources, include dir nbody/
    ("drons-nbody", "drons/nbody", "LGPL-3.0", ["LICENSE.lgpl-3.0.txt"], ["nbody"], ["HAVE_CUDA"], ["-std=c++17"],
     "nbody/"),
    # CMakeLists.txt: an onika plugin build (onika headers absent); C++20
    ("hippolbm", "Collab4exaNBody/hippoLBM", "Apache-2.0", ["LICENSE"], ["include"], [], ["-std=c++20"], "src/"),
    # its newest snapshot holds README.md only: 0 files
    ("nbody-archive", "qshu/NbodyArchive", "(see the repository)", [], [], [], ["-std=c++17"], ""),
    # src/enzo/nbody/Makefile: -I./Particle -I./ (from src/enzo/nbody), c++11 (-> c++17); sources under it
    ("enzo-nbody", "YongseokJo/enzo-nbody", "(see LICENSE)", ["LICENSE"],
     ["src/enzo/nbody/Particle", "src/enzo/nbody"], [], ["-std=c++17", "-O2"], "src/enzo/nbody/"),
    ("nbody-gpu-sim", "build-workbench/nbody-gpu-sim", NOT_FETCHED, [], [], [], [], ""),
    ("amsc-nbody", "sytrams/AMSC-Nbody", NOT_FETCHED, [], [], [], [], ""),
    # CMakeLists.txt: src/**/*.cu, include dirs include, include/ui, include/simulation/{base,implementations/cpu,
    # implementations/gpu}, external/include (+ glfw/glm/imgui fetched at configure time: absent); C++20, separable
    ("diego-nbody", "Diego-Hinrichs/nbody", "(none in the repository)", [],
     ["include", "include/ui", "include/simulation/base", "include/simulation/implementations/cpu",
      "include/simulation/implementations/gpu", "external/include"], [], ["-std=c++20", "-rdc=true"], "src/"),
    # Makefile: src/cuda/*.cu with -Iinclude, -gencode sm_89, -maxrregcount=40 -lineinfo
    ("lechebs-nbody", "lechebs/nbody", "(none in the repository)", [], ["include"], [],
     ["-std=c++17", "-arch=sm_89", "-maxrregcount=40", "-lineinfo"], "src/cuda/"),
    # CMakeLists.txt (ENABLE_MURB_CUDA): src/common/*.cu, src/murb/implem/*.cu, src/test/*.cu; include dirs
    # src/common, lib/MIPP/src, src/murb/implem; CUDA 17
    ("nbody-eurohpc", "albtad01/NBody-EuroHPC", "(see LICENSE)", ["LICENSE"],
     ["src/common", "lib/MIPP/src", "src/murb/implem"], [], ["-std=c++17"], "src/"),
    # src/cuda/CMakeLists.txt: main.cu Find_Arg.cu PhysicalForce.cu Simulation.cu AllParticles.cu Output.cu, CUDA 14
    # (-> 17), -lineinfo (sm_60: below CUDA 13's minimum, left out), separable compilation
    ("mattia-nbody", "Mattia-Colbertaldo/Nbody", "(none in the repository)", [], ["src/cuda"], [],
     ["-std=c++17", "-lineinfo", "-rdc=true"], "src/cuda/"),
    # CMakeLists.txt: include/, cxx_std_20 (ONIKA_BUILD_CUDA); .cu under plugins/ and tests/: the whole repository
    ("onika", "Collab4exaNBody/onika", "Apache-2.0", ["LICENSE"], ["include"], [], ["-std=c++20"], ""),
    # its newest snapshot holds no .cu: 0 files
    ("amsc-06-nbody", "AMSC-24-25/06-nbody-06-nbody", "(see the repository)", [], [], [], ["-std=c++17"], ""),
    # source/Makefile (nvcc -arch sm_52: below CUDA 13's minimum, left out) and integrator/Makefile (nvcc -O3): two
    # builds, the whole repository
    ("lowell-nbody", "sigrimm/Lowell-Nbody", "(none in the repository)", [], [], [], ["-std=c++17", "-O3"], ""),
]
DROPPED: frozenset[str] = frozenset()


def first_by_path(files: list[str]) -> list[str]:
    return files[:CAP]


if __name__ == "__main__":  # heldout24's qualifying check and loop, with this rule's cap (the first 8 by path)
    import heldout24_select as h24
    from heldout24_select import write_set
    assert [c[1] for c in CANDIDATES] == sample()[:len(CANDIDATES)], "CANDIDATES must follow sample() order"
    h24.spaced = first_by_path
    write_set("hundredth", "heldout100", [c for c in CANDIDATES if c[2] != NOT_FETCHED], DROPPED,
              stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
