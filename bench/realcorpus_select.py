#!/usr/bin/env python3
"""How the files of tests/realcorpus and of the held-out set were chosen (run once; kept so the
choice is reviewable and repeatable). Writes the two manifests that realcorpus_build.py reads:

    python bench/realcorpus_select.py   # -> tests/realcorpus/manifest.toml, bench/heldout.toml

The choice is mechanical (sorted paths, a fixed stride), never by how kernelport does on a file.
HeCBench benchmarks are split by stride: the corpus takes every 12th `src/*-cuda/`, the held-out
set every 12th starting 6 later, so the two never share a benchmark. Samples that need a
graphics or platform SDK (OpenGL, EGL, Direct3D, Vulkan, NvSci) are left out: their headers are
megabytes and their originals cannot compile here either.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

MIRRORS = Path("/work/.mirror")
ROOT = Path(__file__).resolve().parent.parent
SDK_ONLY = re.compile(rb'#[ \t]*include[ \t]*[<"][^">]*(GL|gl|EGL|egl|d3d|D3D|vulkan|nvsci|nvjpeg|nvJPEG|helper_gl|GLES)', re.I)
MAX_SOURCE = 64_000  # bytes; a very large file adds little that smaller ones do not


def git(repo: str, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(MIRRORS / repo.replace("/", "+") / "repo"), *args],
                          check=True, capture_output=True).stdout


def head(repo: str) -> str:
    return git(repo, "rev-parse", "HEAD").decode().strip()


def sized(repo: str, commit: str, prefix: str) -> list[tuple[str, int]]:
    out = git(repo, "ls-tree", "-r", "-l", commit, *(["--", prefix] if prefix else [])).decode()
    rows = []
    for line in out.splitlines():
        meta, path = line.split("\t", 1)
        size = meta.split()[3]
        rows.append((path, int(size) if size.isdigit() else 0))  # "BAD": blob not in the mirror
    return sorted(rows)


def cu_files(repo: str, commit: str, prefix: str, pattern: str = r"\.cu$") -> list[str]:
    return [p for p, size in sized(repo, commit, prefix)
            if re.search(pattern, p) and 0 < size <= MAX_SOURCE]


def no_sdk(repo: str, commit: str, paths: list[str]) -> list[str]:
    return [p for p in paths if not SDK_ONLY.search(git(repo, "show", f"{commit}:{p}"))]


def hecbench(commit: str, start: int) -> list[str]:
    repo = "zjin-lcf/HeCBench"
    dirs = sorted(d for d in git(repo, "ls-tree", "--name-only", f"{commit}:src").decode().split()
                  if d.endswith("-cuda"))
    chosen = dirs[start::12]
    return [p for d in chosen for p in cu_files(repo, commit, f"src/{d}/")]


def toml_list(items: list[str]) -> str:
    return "[\n" + "".join(f'  "{i}",\n' for i in items) + "]"


def project(name: str, repo: str, commit: str, license: str, license_files: list[str],
            include_dirs: list[str], defines: list[str], nvcc_flags: list[str],
            sources: list[str], source_defines: dict[str, list[str]] | None = None) -> str:
    """source_defines: a source's own defines besides the project's (its benchmark's Makefile)."""
    own = "".join(f'"{src}" = {toml_list(d)}\n' for src, d in sorted((source_defines or {}).items()))
    return (f'[project."{name}"]\n'
            f'repo = "{repo}"\ncommit = "{commit}"\nlicense = "{license}"\n'
            f"license_files = {toml_list(license_files)}\n"
            f"include_dirs = {toml_list(include_dirs)}\n"
            f"defines = {toml_list(defines)}\n"
            f"nvcc_flags = {toml_list(nvcc_flags)}\n"
            f"sources = {toml_list(sources)}\n"
            + (f'\n[project."{name}".source_defines]\n{own}' if own else ""))


HEADER = """# {what}
# Written by bench/realcorpus_select.py; materialised by bench/realcorpus_build.py.
# Per project: the repository and pinned commit, its license, the include dirs (relative to the
# repository root) and defines its own build passes, extra nvcc flags of its build, and the CUDA
# sources taken (the local headers they include are copied with them); source_defines: a source's
# own defines besides (a benchmark's Makefile).

"""


def corpus() -> str:
    out = [HEADER.format(what="tests/realcorpus: the real-code corpus the tests pin outcomes on.")]
    r = "NVIDIA/cuda-samples"; c = head(r)
    samples = no_sdk(r, c, cu_files(r, c, "Samples/"))[::3]
    out.append(project("cuda-samples", r, c, "BSD-3-Clause", ["LICENSE"], ["Common"], [],
                       ["-std=c++17"], samples))
    r = "karpathy/llm.c"; c = head(r)
    llmc = cu_files(r, c, "dev/cuda/") + [p for p in cu_files(r, c, "") if "/" not in p]
    # ENABLE_BF16: the root Makefile's PFLAGS for test_gpt2cu and profile_gpt2cu (train_gpt2cu too), not for
    # test_gpt2fp32cu nor dev/cuda's Makefile (layernorm_forward.cu does not compile with it)
    out.append(project("llm.c", r, c, "MIT", ["LICENSE"], [], [],  # -Idev: Windows only
                       ["-std=c++17", "--use_fast_math"], llmc,
                       {"profile_gpt2.cu": ["ENABLE_BF16"], "test_gpt2.cu": ["ENABLE_BF16"]}))
    r = "yuhc/gpu-rodinia"; c = head(r)
    out.append(project("rodinia", r, c, "Rodinia license (BSD-style, see LICENSE)", ["LICENSE"],
                       ["common"], [], [], cu_files(r, c, "cuda/")[::2]))
    r = "sgrauerg/polybenchGpu"; c = head(r)
    out.append(project("polybench-gpu", r, c,
                       "no LICENSE file in the repository; copyright notice in README.txt",
                       ["README.txt"], [], [], [], cu_files(r, c, "CUDA/")))
    r = "zjin-lcf/HeCBench"; c = head(r)
    out.append(project("hecbench", r, c, "BSD-3-Clause (per-benchmark LICENSE files kept)",
                       ["LICENSE"] + licenses(r, c, hecbench(c, 0)), ["src/include"], [],
                       ["-std=c++17"], hecbench(c, 0),
                       {"src/prna-cuda/prna.cu": ["FLOAT"]}))  # its Makefile: CFLAGS := ... -DFLOAT
    return "\n".join(out)


def licenses(repo: str, commit: str, sources: list[str]) -> list[str]:
    dirs = sorted({"/".join(p.split("/")[:2]) for p in sources})  # src/<bench>-cuda
    tree = set(git(repo, "ls-tree", "-r", "--name-only", commit, "--", *dirs).decode().split("\n"))
    return sorted(p for p in tree if re.search(r"/(LICENSE|COPYING)[^/]*$", p))


def heldout() -> str:
    out = [HEADER.format(what="The held-out set: never read by the tests (bench/heldout.toml). "
                         "Materialise with: python bench/realcorpus_build.py bench/heldout.toml "
                         "/work/heldout")]
    r = "zjin-lcf/HeCBench"; c = head(r)
    src = hecbench(c, 6)
    out.append(project("hecbench", r, c, "BSD-3-Clause (per-benchmark LICENSE files kept)",
                       ["LICENSE"] + licenses(r, c, src), ["src/include"], [], ["-std=c++17"], src))
    r = "pjreddie/darknet"; c = head(r)
    out.append(project("darknet", r, c, "YOLO license (public-domain style, see LICENSE)",
                       ["LICENSE"], ["include", "src"], ["GPU"], [], cu_files(r, c, "src/")))
    r = "NVIDIA-developer-blog/code-samples"; c = head(r)
    blog = [p for p in cu_files(r, c, "") if not Path(p).name.startswith("LICENSE")]
    out.append(project("nvidia-blog", r, c, "BSD-3-Clause", ["license.txt"], [], [], ["-std=c++17"], blog))
    r = "siboehm/SGEMM_CUDA"; c = head(r)
    out.append(project("sgemm-cuda", r, c, "MIT", ["LICENSE"], ["src"], [], ["-std=c++17"],
                       cu_files(r, c, "")))
    return "\n".join(out)


if __name__ == "__main__":
    (ROOT / "tests/realcorpus").mkdir(parents=True, exist_ok=True)
    (ROOT / "tests/realcorpus/manifest.toml").write_text(corpus())
    (ROOT / "bench/heldout.toml").write_text(heldout())
