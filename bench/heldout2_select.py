#!/usr/bin/env python3
"""How the second held-out set (bench/heldout2.toml) was chosen (run once; kept so the choice
is reviewable and repeatable):

    python bench/heldout2_select.py      # -> bench/heldout2.toml

Projects nobody has tuned kernelport to, with permissive licenses (MIT, BSD-3, Apache-2.0).
The choice of files is mechanical, never by how kernelport does on a file: every `.cu` of the
project (the size cap of realcorpus_select.py), less
  - files with an `#include` (reached through the repository's own headers too) that resolves
    neither in the repository (beside the includer, then the project's include dirs) nor in the
    CUDA toolkit nor in the host compiler's search path: they
    need an SDK that is not installed here (MPI, NCCL, NVSHMEM, gflags, the cuda-samples
    helpers), so their originals cannot compile and the HIP figure could not count them;
  - byte-for-byte copies of a file already taken (teaching repos copy a sample per chapter).
A file that is a symbolic link in the repository is read, here and by realcorpus_build.py, as
what the link reaches (its includes resolved beside the link, as the compiler resolves them).
Bruce-Lee-LY/cuda_hgemm was looked at and dropped by that rule alone: every file reaches
cublas_v2.h, and this machine's CUDA toolkit has no cuBLAS headers.
"""
from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from realcorpus_build import INCLUDE, read_tree, resolve, show
from realcorpus_select import HEADER, MAX_SOURCE, MIRRORS, cu_files, head, project

ROOT = Path(__file__).resolve().parent.parent
CUDA_INCLUDE = [Path("/usr/local/cuda/include"), Path("/usr/local/cuda/include/cccl")]


def host_include_dirs() -> list[Path]:
    """The host C++ compiler's `#include <...>` search path, as `g++ -v` prints it."""
    err = subprocess.run(["g++", "-xc++", "-E", "-v", "-"], input="", capture_output=True,
                         text=True).stderr
    block = err.split("#include <...> search starts here:")[1].split("End of search list.")[0]
    return [Path(ln.strip()) for ln in block.splitlines() if ln.strip()]


SYSTEM = CUDA_INCLUDE + host_include_dirs()


def mirror(repo: str) -> Path:
    return MIRRORS / repo.replace("/", "+") / "repo"


def resolves(repo: str, commit: str, path: str, incdirs: list[str], tree: set[str],
             seen: set[str], links: set[str] = frozenset()) -> bool:
    """Whether every include `path` reaches (transitively, through the repository) exists."""
    if path in seen:
        return True
    seen.add(path)
    for quote, raw in INCLUDE.findall(show(mirror(repo), commit, path, links)):
        name = raw.decode("utf-8", "replace").strip()
        local = resolve(path, quote, name, incdirs, tree)
        if local is not None:
            if not resolves(repo, commit, local, incdirs, tree, seen, links):
                return False
        elif not any((d / name).exists() for d in SYSTEM):
            return False
    return True


def pick(repo: str, commit: str, incdirs: list[str], prefix: str = "", pattern: str = r"\.cu$") -> list[str]:
    tree, links = read_tree(mirror(repo), commit)
    taken, digests = [], set()
    for p in cu_files(repo, commit, prefix, pattern):
        data = show(mirror(repo), commit, p, links)  # a link's size cap is that of what it reaches
        digest = hashlib.sha256(data).hexdigest()
        if len(data) > MAX_SOURCE or digest in digests or not resolves(repo, commit, p, incdirs, tree, set(), links):
            continue
        digests.add(digest)
        taken.append(p)
    return taken


def set_header(ordinal: str, name: str) -> str:
    """The manifest's header for a held-out set: what it is, what chose it, how to build it."""
    return HEADER.format(what=f"The {ordinal} held-out set: never read by the tests "
                         f"(bench/{name}.toml, chosen by bench/{name}_select.py). "
                         f"Materialise with: python bench/realcorpus_build.py "
                         f"bench/{name}.toml /work/{name}")


def heldout2() -> str:
    out = [set_header("second", "heldout2")]
    r = "PacktPublishing/Learn-CUDA-Programming"; c = head(r)
    out.append(project("learn-cuda", r, c, "MIT", ["LICENSE"], [], [],  # its Makefiles' -rdc, -fopenmp
                       ["-std=c++17", "-rdc=true", "-Xcompiler", "-fopenmp"], pick(r, c, [])))
    r = "NVIDIA/multi-gpu-programming-models"; c = head(r)
    out.append(project("multi-gpu-models", r, c, "BSD-3-Clause", ["LICENSE.md"], [],
                       ["HAVE_CUB", "USE_NVTX"],  # its Makefiles' -std=c++14: CUDA 13's CUB needs 17
                       ["-std=c++17", "-Xcompiler", "-fopenmp", "-lineinfo"], pick(r, c, [])))
    r = "Liu-xiandong/How_to_optimize_in_GPU"; c = head(r)
    out.append(project("optimize-in-gpu", r, c, "Apache-2.0", ["LICENSE"], [], [],
                       ["-std=c++17"], pick(r, c, [])))
    r = "Kobzol/hardware-effects-gpu"; c = head(r)
    out.append(project("hardware-effects-gpu", r, c, "MIT", ["LICENSE.md"], ["."], [],
                       ["-std=c++17"], pick(r, c, ["."])))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout2.toml").write_text(heldout2())
