#!/usr/bin/env python3
"""How the hundred-and-second held-out set (bench/heldout102.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout102_select.py      # -> bench/heldout102.toml

RULE, written and committed (h/heldout102) before any repository was fetched or measured and before any file
listing was looked up. Not a domain: a SYSTEMATIC SAMPLE (stop 66's method, bench/heldout100_select.py's template).
The frame is the stored index's repository listing `find_repos(name_contains="lbm")`, called at 23:58 UTC on
2026-12-07: 100 repositories, highest file_versions first, recorded below (FRAME) in the listed order (the listing
said more may match; the 100 listed are the frame). By name much of the frame is not lattice-Boltzmann code at all
("...lbm..." in owners' names: web shops, ERPs, MATLAB, Java courses): drop (d) removes those with no CUDA source;
the rule is not widened for that. heldout102 takes EVERY rank 1, 2, 3, ...
  Drops, each repository given the first reason that applies, ranks counted ONCE on a list that depends only on main
  (69f971f3, main's head at 23:57 UTC) and the frame, never on a sibling's progress:
    a. a repository in main's bench/used_repos.txt or a candidate of any bench/*_select.py on main (grep,
       case-insensitive, of each owner/name): geoenergiaUDESC/cudaLBM (used; heldout20's candidate 4);
    b. NVIDIA's own (owner NVIDIA, NVlabs, NVIDIA-*) and copies of NVIDIA/cuda-samples: none by owner or name;
    c. a repository in ANY earlier frame: every FRAME list in main's bench/heldout*_select.py (the same grep: no hit
       besides (a)'s) and this stop's lower-numbered sibling's frame, heldout101's find_repos "spmv" (called here at
       23:58 UTC: no name of it is in this frame); heldout103's "fluid-sim" is higher-numbered, so a name in both
       belongs to this set: none dropped;
    d. no `.cu`/`.cuh` in its stored listing: `find_files(repo=X, ext="cu")` and, where that shows no path,
       `find_files(repo=X, ext="cuh")` both show zero paths (paths only; recorded in CUDA_LOOK after this commit and
       before any fetch). A look that says "more matched" with zero paths shown is read as zero paths (heldout90's
       reading);
    e. forks/copies: a repository whose taken files are byte-for-byte those of one taken before it adds nothing
       (0 files); applied when files are taken, it does NOT renumber.
  Sample: number what remains after (a)-(d) 1, 2, 3, ... in frame order and take ranks 1, 2, 3, ... in order. No
  fallback pass.
  QUALIFYING, files, cap and check: heldout100's (heldout94's; heldout80's rule, heldout24_select's qualifying check
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
Outcome of the drops and the sampling (23:58-00:02 UTC, before any measure of kernelport): 1 repository dropped by (a)
  (geoenergiaUDESC/cudaLBM), none by (b) or (c); (d) leaves 8 of the 99 (CUDA_SHOWN; the 91 others show neither .cu
  nor .cuh). Every rank (qualifying: of the first 10 .cu by path under the source folder): 1 zephyrus-repos/
  LBM_OpenSource (Hephflow) 0/10 (every unit reaches <curand.h>, absent here, and var.h's computed
  `#include CASE_CONSTANTS`), 2 yzkhere0129/LBMProject 10/10 (8; src/physics/fluid/fluid_lbm.cu is skipped as not
  resolving, so the first 8 that resolve run to ray_tracing_laser.cu), 3 Cavibot 0 (its newest snapshot holds no
  .cu), 4 gtauzin/metaLBM 0/1 (src/main.cu reaches MPI and FFTW), 5 brunoyanjos/lbm 10/10 (8), 6 Gab-San/
  lbm-simulation-lib 0 (no .cu in its newest snapshot), 7 TNL-Project/TNL-LBM 0/10 (the TNL library, fetched at
  configure time, absent; MPI), 8 shimomurakazuya/ens_cityLBM (fetch: no snapshot). (e): the two taken are not
  copies. Check (`nvcc -c`, the first three, 00:01 UTC): lbm-metal-melting 3/3, bruno-lbm 3/3: none dropped.
  THE FRAME IS THIN: every rank was taken and the set is 16 files in 2 projects (of 40 / 10); not widened. Most of
  the frame is not lattice-Boltzmann code ("lbm" inside owners' names: web shops, ERPs, courses), and most LBM
  repositories in it are Python/MATLAB/C++ without CUDA.
"""
from __future__ import annotations

STOP_FILES, STOP_PROJECTS, CAP = 40, 10, 8
NOT_FETCHED = "(fetch: no snapshot of that repository can be had here)"

# find_repos(name_contains="lbm") at 23:58 UTC, 2026-12-07: the 100 names in listed order
FRAME = [
    "FidelBM/code_plagiarism", "cxs503/TensorLBM", "wtklbm/curong", "lizhuoh9/MPM-LBM",
    "hocongdelbm/bm-vemaybay-website", "KLBMinhLong/E-Procurement", "rafaelbmocbel-eng/https-myhealthid",
    "dhlbmhsn357-wq/NEXVORA", "wazazhang/cellbmsplayer", "atulbmhetre/local-connect-hub",
    "zephyrus-repos/LBM_OpenSource", "gabrielbmoro/MovieDB-App", "aswanthbajith/QLBM-DamBreak-Production",
    "mirandalbm/Rifa", "lbminfotechapps-web/ramikaragro", "yzkhere0129/LBMProject", "danfelbm/astra", "szkuds/TUD_LBM",
    "ShiyuMiao/citylbm", "MillerBrainObservatory/LBM-CaImAn-MATLAB", "lbmadger/madger",
    "wtg-pers/LBM_for_Aerodynamics-Aeroacoustics", "AfrizalBMM/ujion-tka-apps", "Alphakiller1/mlbma-pipeline",
    "morinabe-1/invariant_manifold_lbm", "maxwelbm/alkemy-g6", "GiangdtHLB/HLBMES",
    "lbmrmnkvsk/Software-University-Courses", "Cavibot/LBM-Fluid-Structure-Interaction", "parimal-c-crest/lbm-erp",
    "deshalbm/Deshal-ERP", "falbmun0906/daw2-blister-proyecto-final", "TakuTsuzuki/lbmflow", "LBMC/Lemaire_et_al_2019",
    "mabau/lbmpy", "pylbm/pylbm", "2317942351/LBMD3Q27", "KLBMinhLong/admin-portal", "geirev/LBM",
    "hugoalbmartins/MPGrupo-CRM", "rrwebsolution/gcgea-mlbms", "kanhaiya-gupta/pbf-lbm-data-engineering-pipeline",
    "TIeJlbMeIlleK/sampleWebTest", "lbm364dl/graded-readers", "unimelbmdap/collectra", "jmjlbmn/huiche",
    "lirarrazavalbm-jpg/GradeHub", "LeonelBM123/Organiflow", "pedrosolbm/aulas-java", "halbmy/DCMatLab",
    "TiendaLebonMarche/tlbm-storefront", "vincethanhdoan/LBMAWebsite", "maxwelbm/alkemy-g7", "QCFD-Lab/qlbm",
    "cunningckn/lbm", "Ferielbm/PIBourseBackEnd", "gtauzin/metaLBM", "bnouvelbmll/intraday-analytics",
    "ElCuboNegro/kronos-lbms", "brunoyanjos/lbm", "efogliatto/LBMProject", "Andrelbmachado/Open-Assistant",
    "lightbulbmomentlabs/super-schema", "FreeEnergyLBM/LBM-shared", "lbmzorx/chonglou", "albmarvil/The-Eternal-Sorrow",
    "klbmou/hysa-code", "robertogalvez/lbm-client-portal-prototype", "swk5-2019ws/vz-hurace-g3-fuchs-g3-halbmayr",
    "Laris-edu/LBM", "wyj365372704/AmphenolBMS_PC", "michaelbmt86-lang/websitefactory", "danifunker/lbmactwo_MiSTer",
    "wayne76xia/albms", "Gab-San/lbm-simulation-lib", "falbmun0906/daw2-proyecto-intermodular",
    "yuchenyan0107/LBM_Diffusion", "geoenergiaUDESC/cudaLBM", "KarolBM03/CoopMarketplace-app", "Bibin02/LBMS",
    "BobbyGh2025/lbms", "lbm54/mealplanning-prototype", "Codelanx/LBMS", "hblaney/mlbML", "joelbman/kzstats",
    "rrwebsolution/gcgea-mlbms-backend", "mrthuanvn/a3lbmonkeybrain-as3", "mammothb/IBLBM",
    "luismiguelbmoreira-arch/motor-tributario-conect", "zbarettnymbl/MLBMapping", "RLBmods/newwebsiterlbmods",
    "laikait/lbm", "gabrielbmotta/neuromag2mne", "lbmzorx/NewSystem", "dugudyoudi/ZLLBM", "TNL-Project/TNL-LBM",
    "michaelbmorris/MichaelBrandonMorris.KingsportMillSafetyTraining", "axelbm/gestion-reunion",
    "shimomurakazuya/ens_cityLBM", "AngelBMendivil/doctovio",
]

# (a): in main's bench/used_repos.txt or a candidate of a bench/*_select.py on main (69f971f3)
USED_OR_CANDIDATE = ("geoenergiaUDESC/cudaLBM",)
# (b): owner NVIDIA / NVlabs / NVIDIA-*, or a copy of NVIDIA/cuda-samples: none in this frame
NVIDIA_OWN: tuple[str, ...] = ()
# (c): in an earlier FRAME list of main's bench/heldout*_select.py or heldout101's "spmv" frame: none
IN_EARLIER_FRAME: tuple[str, ...] = ()
DROP_BY_NAME: dict[str, str] = {r: "(a): used or an earlier set's candidate" for r in USED_OR_CANDIDATE}
DROP_BY_NAME.update({r: "(b): NVIDIA's own or a cuda-samples copy" for r in NVIDIA_OWN})
DROP_BY_NAME.update({r: "(c): in an earlier frame" for r in IN_EARLIER_FRAME})
REMAINING_BEFORE_D = [r for r in FRAME if r not in DROP_BY_NAME]
assert len(FRAME) == 100 and len(REMAINING_BEFORE_D) == 99, len(REMAINING_BEFORE_D)
# (d): find_files(repo=X, ext="cu"), then ext="cuh" where that showed no path; paths only; 23:58-00:00 UTC, after the
# RULE's commit c7c10dd8 (23:58:38), before any fetch. All 99 looked (.cu), and the 91 that showed no .cu looked again
# (.cuh): none of the 91 shows a .cuh path. danfelbm/astra and lbm364dl/graded-readers said "more matched" with zero
# paths shown (both extensions): read as zero paths (heldout90's reading).
LOOKED = REMAINING_BEFORE_D
CUDA_SHOWN = (
    "zephyrus-repos/LBM_OpenSource", "yzkhere0129/LBMProject", "Cavibot/LBM-Fluid-Structure-Interaction",
    "gtauzin/metaLBM", "brunoyanjos/lbm", "Gab-San/lbm-simulation-lib", "TNL-Project/TNL-LBM",
    "shimomurakazuya/ens_cityLBM",
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
    # Hephflow/src/compile_linux.sh (the Linux build; compile.sh is the same with CC from nvidia-smi): nvcc
    # -gencode sm_80 -rdc=true -O3 --restrict -DSM_80 -DTARGET_LINUX *.cu (in Hephflow/src; CUDA's default C++17).
    # The repository also holds copies of FluidX3D/OpenLB/Palabos (one .cu, Palabos npFEM, with its own build);
    # Hephflow's build is the one that compiles CUDA: Hephflow/src/
    ("hephflow", "zephyrus-repos/LBM_OpenSource", "(see Hephflow/LICENSE.txt)", ["Hephflow/LICENSE.txt"],
     ["Hephflow/src"], ["SM_80", "TARGET_LINUX"], ["-std=c++17", "-rdc=true", "-O3", "--restrict"],
     "Hephflow/src/"),
    # CMakeLists.txt: the libraries lbm_core/lbm_physics/lbm_diagnostics/lbm_io are src/**/*.cu, include dirs
    # include and src, CUDA 17, -O3 --use_fast_math (Release), CUDA_SEPARABLE_COMPILATION: src/
    ("lbm-metal-melting", "yzkhere0129/LBMProject", "(none in the repository)", [], ["include", "src"], [],
     ["-std=c++17", "-O3", "--use_fast_math", "-rdc=true"], "src/"),
    # its newest snapshot holds no .cu (the docs/Home-FSLBM sources the listing showed are gone): 0 files
    ("cavibot-fsi", "Cavibot/LBM-Fluid-Structure-Interaction", "(see LICENSE.md)", ["LICENSE.md"], [], [],
     ["-std=c++17"], ""),
    # CMakeLists.txt: include/ (INTERFACE metalbm), C++11 (-> 17), MPI, HDF5, FFTW (USE_FFTW); src/CMakeLists.txt:
    # gpulbm_* from src/main.cu with --expt-extended-lambda (example/'s targets are commented out): src/
    ("metalbm", "gtauzin/metaLBM", "(see LICENSE)", ["LICENSE"], ["include"], ["USE_FFTW"],
     ["-std=c++17", "--expt-extended-lambda"], "src/"),
    # compile.sh: find src -name '*.cu', -std=c++17 -lineinfo --restrict -Isrc -O3 -rdc=false, STENCIL D2Q9
    # (-DLBM_STENCIL_D2Q9), REAL float
    ("bruno-lbm", "brunoyanjos/lbm", "MIT", ["LICENSE"], ["src"], ["LBM_STENCIL_D2Q9"],
     ["-std=c++17", "-lineinfo", "--restrict", "-O3"], "src/"),
    # its newest snapshot holds no .cu (simulations/cuda/ is gone): 0 files
    ("lbm-simulation-lib", "Gab-San/lbm-simulation-lib", "(see LICENSE)", ["LICENSE"], [], [], ["-std=c++17"], ""),
    # CMakeLists.txt: TNL_LBM_INCLUDE_DIRS include/, C++17, -O3 -DNDEBUG; the sim_* folders and tests each add
    # executables (TNL and MPI from outside): the whole repository
    ("tnl-lbm", "TNL-Project/TNL-LBM", "MIT", ["LICENSE"], ["include"], ["NDEBUG"],
     ["-std=c++17", "-O3", "--expt-relaxed-constexpr", "--expt-extended-lambda"], ""),
    ("ens-citylbm", "shimomurakazuya/ens_cityLBM", NOT_FETCHED, [], [], [], [], ""),
]
DROPPED: frozenset[str] = frozenset()


def first_by_path(files: list[str]) -> list[str]:
    return files[:CAP]


if __name__ == "__main__":  # heldout24's qualifying check and loop, with this rule's cap (the first 8 by path)
    import heldout24_select as h24
    from heldout24_select import write_set
    assert [c[1] for c in CANDIDATES] == sample()[:len(CANDIDATES)], "CANDIDATES must follow sample() order"
    h24.spaced = first_by_path
    write_set("hundred-and-second", "heldout102", [c for c in CANDIDATES if c[2] != NOT_FETCHED], DROPPED,
              stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
