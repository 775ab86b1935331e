#!/usr/bin/env python3
"""How the hundred-and-first held-out set (bench/heldout101.toml) will be chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout101_select.py      # -> bench/heldout101.toml

RULE, written and committed (h/heldout101) before any repository was fetched or measured and before any file
listing was looked up. Not a domain: a SYSTEMATIC SAMPLE (stop 66's method, bench/heldout100_select.py's template,
stop 64's drops). The frame is the stored index's repository listing `find_repos(name_contains="spmv")`, called at
23:58 UTC on 2026-12-07: 100 repositories, highest file_versions first, recorded below (FRAME) in the listed order
(the listing said more may match; the 100 listed are the frame). By name much of the frame is not sparse
matrix-vector code at all ("AspMvc"/"ASPMVC" web applications, "spmvc" Java demos, "spmvv" sites): drop (d) removes
those with no CUDA source; the rule is not widened for that. heldout101 takes EVERY rank 1, 2, 3, ...
  Drops, each repository given the first reason that applies, ranks counted ONCE on a list that depends only on main
  (69f971f3, main's head at 23:58 UTC) and the frame, never on a sibling's progress:
    a. a repository in main's bench/used_repos.txt or a candidate of any bench/*_select.py on main (grep,
       case-insensitive, of each owner/name): Chong-Chen-UNLV/EHYB_SPMV_GPU (used_repos.txt; heldout86's rank 23);
    b. NVIDIA's own (owner NVIDIA, NVlabs, NVIDIA-*) and copies of NVIDIA/cuda-samples: none by owner or name;
    c. a repository in ANY earlier frame: every FRAME list in main's bench/heldout*_select.py (the same grep: no hit
       besides (a)'s) and this stop's sibling frames: heldout101 is the lowest-numbered sibling ("lbm" is heldout102's,
       "fluid-sim" heldout103's), so a name in their frames belongs to this frame: none dropped;
    d. no `.cu`/`.cuh` in its stored listing: `find_files(repo=X, ext="cu")` and, where that shows no path,
       `find_files(repo=X, ext="cuh")` both show zero paths (paths only; recorded in CUDA_LOOK after this commit and
       before any fetch). The looks go in frame order only as far as the sampling needs (each rank depends only on
       the looks before it; recorded); a look that says "more matched" with zero paths shown is read as zero paths
       (heldout90's reading);
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
Outcome of the drops and the sampling: (to be recorded after the looks and the fetches, before any measure).
"""
from __future__ import annotations

STOP_FILES, STOP_PROJECTS, CAP = 40, 10, 8
NOT_FETCHED = "(fetch: no snapshot of that repository can be had here)"

# find_repos(name_contains="spmv") at 23:58 UTC, 2026-12-07: the 100 names in listed order
FRAME = [
    "manuelremon/SPMV3.0", "cslab-ntua/SpMV-Research", "manuelremon/SPMv1.0", "leemaple/dynamic-cssc-spmv",
    "crisortDev/022_SistemaVentaAspMVC", "kindenough/AspMvcEasyui", "build-workbench/gpu-spmv",
    "alexisvieto/ModusPMv2", "CornellHPC/grg-spmv", "gustavoglu/truckeventsASPMVC", "cbx5304/muxi_spmv",
    "Jonab20/SistemaDeVideoClubASPMVC_Windows", "yinhaiquan/hq-spmvc-demo", "hpcde/spmv-acc",
    "Luna60/InmobiliariaASPMVC", "ktiwaz/spmv-bench", "maltanar/spmv-vector-cache",
    "31Vladimir08/AspMvcMicroservices", "Chong-Chen-UNLV/EHYB_SPMV_GPU", "KobeBergmans/Thesis_SPMV",
    "ntheanh-dev/msistore-aspmvc", "chrisrichardson/spmv", "CoffeeShop-MCsPMV/CoffeShop_frontend",
    "bkochuna/ners570f25-SpMV", "expiaz/jspmvc", "jamtrott/spmv-cache-trace", "himanshu-uppal/ECommerceAspMvc",
    "reddvid/pcguy-aspmvc", "WolfManR/GbAspMVC", "1fni/cuda-spmv-benchmark", "brimalval/TodoAspMVC",
    "RRZE-HPC/Ultimate-SpMV", "gowtham99664/spmvv-exam-results", "hrs23/distributedSpMV",
    "mikeobrien/aspmvc_vs_fubumvc", "bkochuna/ners570f23-SpMV", "mhadieskandari/aspmvcColorCms", "DevilInChina/spmv",
    "ImnChert/AspMVC_EFCore", "minhnhacmu2308/cgvAspMVC", "EinsteinSu/HengruiAspMvc", "elkhaligy/E-CommerceASPMVC",
    "Buttersdontfly/StarterAspMVCEditorTemplates", "cantsaywisp1308/ASPMVC", "lucaspmv/ftr-challenges",
    "andreolli-davide/gpu-spmv", "SangBV1/NewsSportAspMVC", "rafailsialakis/spmv-benchmark",
    "shrenik77130/Repo4Batch8ASPMVC", "ravitejarenangi/spmvv-web", "Excalibur-SLE/spmv",
    "gabortega/VS2019_SpMV_OpenCL_Implementation", "MohamedSellahi/ASPMVC", "SaidBelahrach/CarRental_aspmvc",
    "lucaspmv/meindica-mobile", "Xatter/mapitprices-aspmvc", "Deputation/SpMV", "TNL-Project/tnl-benchmark-spmv",
    "kristiansordal/SpMV-Comm-Strats", "hir0shim/singleSpMV", "kulinseth/spmv",
    "CoffeeShop-MCsPMV/CoffeeShop_backend", "bollig/clSpMV_MIC", "thanh-trandang/AspMvcIntegratedAngularJs",
    "andreadiiorio/SpMV_openMP_CUDA", "maltanar/spmvaccsim", "pc2/SUSpMV", "fanna1234/cove-spmv",
    "ParCoreLab/mixed-and-multi-spmv", "Yohann-Vila/itta-2016-aspmvc2",
    "biggash730/SemanticUI_Knockout_ASPMVC_Starter", "bkochuna/ners570f24-SpMV", "kamilveliyev85/AspMVCMeeting",
    "jack-pan-ai/FlexSpmv", "loyer-yuan/Simple_SPMV", "dev-ncbao/AspMvc5_FashsionShop",
    "guglielmo-boi/SpMV-investigation", "KelvinVu/ASPMVC-Example1", "arminro/aspmvc",
    "quanglenhutthanh/curr_aspmvc_project", "AtmiyaVaghela/GitASPMVC", "tborzyszkowski/ASPMVC_Core",
    "Abeerahmedg/AspMvcAssignment", "Ghala-Alanazi/Tayseer_AspMVC", "Damlrca/coursework_spmv", "wang-luhan/necSpMV",
    "zjpiraman2018/AspMVCECommerce", "touljaboy/aspmvcprojo", "CodigoEstudiante/018_SistemaGestionEscolarASPMVC",
    "mfkiwl/HiSpMV", "AAce3/SpMV-poker-solver", "MohamedRachedBouraoui/DatatablesForAspMvc",
    "didofpt/aspmv_didostore", "tomsdev/youfood-aspmvc", "luism88/AspMvc-Chatsupp", "tahmidawal/spMV-ML",
    "alzaj/AspMvcBasementHelloWorld", "martineh/SpMV", "spmvsistema-lang/Kroz-ADM", "duydat2002/watch-shop-aspmvc",
]

# (a): in main's bench/used_repos.txt or a candidate of a bench/*_select.py on main (69f971f3)
USED_OR_CANDIDATE = ("Chong-Chen-UNLV/EHYB_SPMV_GPU",)
# (b): owner NVIDIA / NVlabs / NVIDIA-*, or a copy of NVIDIA/cuda-samples: none in this frame
NVIDIA_OWN: tuple[str, ...] = ()
# (c): in an earlier FRAME list of main's bench/heldout*_select.py; this stop's siblings are higher-numbered: none
IN_EARLIER_FRAME: tuple[str, ...] = ()
DROP_BY_NAME: dict[str, str] = {r: "(a): used or an earlier set's candidate" for r in USED_OR_CANDIDATE}
DROP_BY_NAME.update({r: "(b): NVIDIA's own or a cuda-samples copy" for r in NVIDIA_OWN})
DROP_BY_NAME.update({r: "(c): in an earlier frame" for r in IN_EARLIER_FRAME})
REMAINING_BEFORE_D = [r for r in FRAME if r not in DROP_BY_NAME]
assert len(FRAME) == 100 and len(REMAINING_BEFORE_D) == 99, len(REMAINING_BEFORE_D)
# (d): find_files(repo=X, ext="cu"), then ext="cuh" where that showed no path; paths only; recorded after this commit.
LOOKED: list[str] = []
CUDA_SHOWN: tuple[str, ...] = ()
NO_CUDA_FILES: frozenset[str] = frozenset(r for r in LOOKED if r in REMAINING_BEFORE_D) - set(CUDA_SHOWN)


def remaining() -> list[str]:
    """Ranks 1, 2, 3, ...: the repositories of the frame left after (a)-(d), in frame order."""
    return [r for r in REMAINING_BEFORE_D if r in LOOKED and r not in NO_CUDA_FILES]


def sample() -> list[str]:
    """Every rank, in order."""
    return remaining()


# (name, repository, license, license files, include dirs, defines, nvcc flags, source folder) of each sampled
# repository, in sample() order: filled in after the fetch, from each build, before any measure.
CANDIDATES: list[tuple] = []
DROPPED: frozenset[str] = frozenset()


def first_by_path(files: list[str]) -> list[str]:
    return files[:CAP]


if __name__ == "__main__":  # heldout24's qualifying check and loop, with this rule's cap (the first 8 by path)
    import heldout24_select as h24
    from heldout24_select import write_set
    assert [c[1] for c in CANDIDATES] == sample()[:len(CANDIDATES)], "CANDIDATES must follow sample() order"
    h24.spaced = first_by_path
    write_set("hundred-and-first", "heldout101", [c for c in CANDIDATES if c[2] != NOT_FETCHED], DROPPED,
              stop_files=STOP_FILES, stop_projects=STOP_PROJECTS)
