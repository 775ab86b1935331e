#!/usr/bin/env python3
"""How the eighth held-out set (bench/heldout8.toml) was chosen (run once; kept so the choice is
reviewable and repeatable):

    python bench/heldout8_select.py      # -> bench/heldout8.toml

Rule, written down before anything was measured on these projects: public CUDA projects that no
test, corpus, labelled or held-out set has used (tests/realcorpus/manifest.toml,
bench/heldout*.toml, tests/labelled*/), whose `.cu` files build with plain include dirs. Files as
for the earlier sets (every `.cu` under the project's CUDA folder within the size cap, less
byte-for-byte copies; a project with more than FULL such files gives every second of them in
path order, heldout4_select.capped), with two changes to how "its includes resolve here" is
decided, both of them the compiler's view rather than a regex's:
  - a file is kept when the CUDA compiler's preprocessor finds every header it reaches
    (`nvcc -M` with the project's include dirs and defines, on the pinned commit's tree): an
    `#include <windows.h>` inside `#ifdef _WIN32` no longer drops a file (the regex of
    heldout2_select.resolves dropped every file of three projects below for that);
  - a `.cu` that another `.cu` of the project `#include`s is a fragment of that translation unit,
    not one of its own, and is not taken (it never compiles alone).
Never chosen by how kernelport does on a file: the set was measured on main as it was before
anyone changed code for it (bench/scoreboard_heldout8_baseline.txt).

Projects (include dirs, defines and flags are those of each project's own build):
  CodedK/CUDA-by-Example-source-code-for-the-book-s-examples-
                             teaching code: the book "CUDA by Example" (Sanders, Kandrot 2010),
                             chapters 3-11 and appendix A, which include `../common/book.h`
                             (and `cpu_bitmap.h` / `cpu_anim.h`, GLUT) by relative path; no
                             build files, so no include dirs or flags. MIT (LICENSE, of the
                             repository; the files keep NVIDIA's 2010 notice); 36 files, every
                             second taken;
  dusty-nv/jetson-utils      an image and video library's CUDA kernels (`cuda/`: colour
                             conversion, resize, warp, overlay, draw, fonts, point clouds)
                             (MIT, LICENSE.md); its CMakeLists.txt flattens every `cpp/*/` and
                             `cuda/` header into one include dir: those folders are the include
                             dirs here; ENABLE_NVMM is Jetson-only and left off;
  brichard19/BitCrack        a crypto key-search tool (secp256k1, SHA-256, RIPEMD-160 in `.cuh`
                             with inline PTX) (MIT, LICENSE.MIT); the top Makefile's -I of every
                             module folder and NVCCFLAGS (-std=c++11 there, c++17 here as for the
                             other sets: the toolkit's CCCL needs it) with -rdc=true;
  RRZE-HPC/gpu-benches       GPU micro-benchmarks (stream, caches, latency, roofline)
                             (GPL-3.0, LICENSE); each folder's Makefile: -std=c++20,
                             -Xcompiler -fopenmp; folders that reach CUPTI or NVML drop out;
  harrism/mini-nbody         n-body teaching code in four optimisation steps (Apache-2.0, LICENSE);
                             the shmoo scripts' -I.. and -DSHMOO;
  zeux/calm                  an LLM inference engine, one CUDA file of kernels plus a profiler
                             tool (MIT, LICENSE.md); the Makefile's CUDA flags (none that
                             matter here besides the default standard);
  ethereum-mining/ethminer   a miner's Ethash kernel (`libethash-cuda/`, with `.cuh` Keccak and
                             DAG code) (GPL-3.0, LICENSE); CMake's -use_fast_math;
  JeanLucPons/VanitySearch   a Bitcoin address prefix search, GPU engine with inline-PTX 256-bit
                             arithmetic in `.h` (GPL-3.0, LICENSE.txt); the Makefile's -I.;
  nosferalatu/SimpleGPUHashTable
                             a lock-free linear-probing hash table (Unlicense, LICENSE);
  ccsb-scripps/AutoDock-GPU  molecular docking: `cuda/kernels.cu` is the one translation unit
                             (it #includes the nine other `.cu` files, fragments by the rule)
                             (GPL-2.0, LICENSE; LGPL-2.1 where a file says so, LICENSE_LGPL), Makefile.Cuda's -I of common, host/inc, cuda
                             and its GPU defaults -DGPU_DEVICE -DN64WI;
  ekondis/mixbench           a mixed compute/memory benchmark, `mixbench-cuda/` (GPL-2.0,
                             LICENSE); CMake's C++11 standard (c++17 here, as above).
Eleven projects, more than the three to five asked for: with the toolkit here (no cuBLAS, cuRAND,
NVML headers) the larger candidates mostly drop out, and the small ones give variety.
Looked at and left out by the rule: bytedance/lightseq (49 of 52 files reach curand_kernel.h,
cublas_v2.h, HDF5 or protobuf, none of which is here; the three left are host wrappers),
ParRes/Kernels (every CUDA file reaches cublas_v2.h through prk_cuda.h, or NCCL/NVSHMEM/MPI),
CannyLab/tsne-cuda (cuBLAS, cuFFT, cuSPARSE, FAISS in every file), UoB-HPC/BabelStream (one CUDA
file, which reaches NVML), cbuchner1/CudaMiner (curl/curl.h and sys/endian.h in every kernel file;
the one left, wrapnvml.cu, is host code), rogerallen/raytracinginoneweekendincuda (one file per
chapter branch, cuRAND from chapter 6 on, no license).
"""
from __future__ import annotations

import hashlib
import posixpath
import subprocess
import sys
import tempfile
from pathlib import Path

from heldout2_select import set_header
from heldout4_select import capped
from realcorpus_build import INCLUDE, resolve
from realcorpus_select import cu_files, git, head, project

ROOT = Path(__file__).resolve().parent.parent


def fragments(repo: str, commit: str, files: list[str], tree: set[str], incdirs: list[str]) -> set[str]:
    """The `.cu` files that another `.cu` of the project includes."""
    out = set()
    for path in files:
        for quote, raw in INCLUDE.findall(git(repo, "show", f"{commit}:{path}")):
            hit = resolve(path, quote, raw.decode("utf-8", "replace").strip(), incdirs, tree)
            if hit is not None and hit.endswith(".cu") and hit != path:
                out.add(hit)
    return out


def preprocesses(root: Path, path: str, incdirs: list[str], defines: list[str],
                 flags: list[str]) -> bool:
    """Whether nvcc's preprocessor finds every header `path` reaches."""
    cmd = ["nvcc", "-M", "-x", "cu", *flags, *(f"-I{root / d}" for d in incdirs),
           *(f"-D{d}" for d in defines), str(root / path)]
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=root / posixpath.dirname(path))
    return run.returncode == 0


def pick_pp(repo: str, commit: str, incdirs: list[str], defines: list[str], flags: list[str],
            prefix: str = "") -> list[str]:
    tree = set(git(repo, "ls-tree", "-r", "--name-only", commit).decode().split("\n")) - {""}
    every = [p for p in tree if p.endswith(".cu")]
    frag = fragments(repo, commit, every, tree, incdirs)
    pp_flags = [f for f in flags if f.startswith("-std=")]
    taken, digests = [], set()
    with tempfile.TemporaryDirectory() as tmp:
        archive = git(repo, "archive", "--format=tar", commit)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        for p in cu_files(repo, commit, prefix):
            digest = hashlib.sha256(git(repo, "show", f"{commit}:{p}")).hexdigest()
            if digest in digests or p in frag:
                continue
            if not preprocesses(Path(tmp), p, incdirs, defines, pp_flags):
                continue
            digests.add(digest)
            taken.append(p)
    return taken


def heldout8() -> str:
    out = [set_header("eighth", "heldout8")]

    def add(name, repo, license, license_files, inc, defines, flags, prefix=""):
        commit = head(repo)
        out.append(project(name, repo, commit, license, license_files, inc, defines, flags,
                           capped(pick_pp(repo, commit, inc, defines, flags, prefix))))

    add("cuda-by-example", "CodedK/CUDA-by-Example-source-code-for-the-book-s-examples-",
        "MIT (the repository's LICENSE; the files keep NVIDIA's 2010 book-code notice)",
        ["LICENSE"], [], [], ["-std=c++17"])
    add("jetson-utils", "dusty-nv/jetson-utils", "MIT", ["LICENSE.md"],
        ["cuda", "cpp/camera", "cpp/codec", "cpp/display", "cpp/image", "cpp/input", "cpp/math",
         "cpp/network", "cpp/parsers", "cpp/threads", "cpp/video"], [], ["-std=c++17"], "cuda/")
    add("bitcrack", "brichard19/BitCrack", "MIT", ["LICENSE.MIT"],
        ["util", "AddressUtil", "CmdParse", "CryptoUtil", "KeyFinderLib", "CLKeySearchDevice",
         "CudaKeySearchDevice", "cudaMath", "clUtil", "cudaUtil", "secp256k1lib", "Logger",
         "embedcl"], [], ["-std=c++17", "-rdc=true"])
    add("gpu-benches", "RRZE-HPC/gpu-benches", "GPL-3.0", ["LICENSE"], [], [],
        ["-std=c++20", "-Xcompiler", "-fopenmp"])
    add("mini-nbody", "harrism/mini-nbody", "Apache-2.0", ["LICENSE"], ["."], ["SHMOO"],
        ["-std=c++17", "-ftz=true"], "cuda/")
    add("calm", "zeux/calm", "MIT", ["LICENSE.md"], ["src"], [], ["-std=c++17"])
    add("ethminer", "ethereum-mining/ethminer", "GPL-3.0", ["LICENSE"], ["libethash-cuda"], [],
        ["-std=c++17", "-use_fast_math"], "libethash-cuda/")
    add("vanitysearch", "JeanLucPons/VanitySearch", "GPL-3.0", ["LICENSE.txt"], ["."], [],
        ["-std=c++17"])
    add("simple-gpu-hashtable", "nosferalatu/SimpleGPUHashTable", "Unlicense", ["LICENSE"],
        ["src"], [], ["-std=c++17"])
    add("autodock-gpu", "ccsb-scripps/AutoDock-GPU", "GPL-2.0 (LICENSE; LGPL-2.1 for the files that say so, LICENSE_LGPL)", ["LICENSE", "LICENSE_LGPL"],
        ["common", "host/inc", "cuda"], ["GPU_DEVICE", "N64WI"], ["-std=c++17"], "cuda/")
    add("mixbench", "ekondis/mixbench", "GPL-2.0", ["LICENSE"], ["include", "mixbench-cuda"], [],
        ["-std=c++17"], "mixbench-cuda/")
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "bench/heldout8.toml").write_text(heldout8())
