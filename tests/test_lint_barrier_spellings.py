"""SY001 reads a block barrier spelled through a macro (the file's, a header's, -D) or as a cooperative group's
`sync` (kernelport/lint/barrier_spellings.py).  Each case has a look-alike that must stay quiet: a macro that is
more than the barrier or is defined otherwise in another branch, a tile's sync (a warp barrier), a user's own
`thread_block` type, a uniform early return before the macro barrier."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport.lint import engine
from kernelport.lint.config import Overrides

BODY = """\
__global__ void k(float* x, int n) {{
    __shared__ float s[256];
{decl}
    if ({test}) return;
    s[threadIdx.x] = x[threadIdx.x];
    {barrier};
    x[threadIdx.x] = s[255 - threadIdx.x];
}}
"""
BARRIER_LINE = 6
CG = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"


def _sy001(tmp_path: Path, files: dict[str, str], defines=()) -> set[tuple[str, int]]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    got = engine.lint_paths([tmp_path / n for n in files if n.endswith(".cu")], Overrides(defines=defines), jobs=1)
    return {(Path(f.path).name, f.line) for r in got for f in r.findings if f.code == "SY001"}


def _kernel(prefix: str, barrier: str, decl: str = "", test: str = "threadIdx.x >= n") -> str:
    body = BODY.format(decl=decl, test=test, barrier=barrier)
    return prefix + body, BARRIER_LINE + prefix.count("\n")


FLAGGED = {
    "object-like macro": ("#define SYNC __syncthreads()\n", "SYNC", ""),
    "function-like macro": ("#define BAR() __syncthreads()\n", "BAR()", ""),
    "macro of a macro": ("#define BAR() __syncthreads()\n#define SYNC BAR()\n", "SYNC", ""),
    "do-while macro": ("#define SYNC do { __syncthreads(); } while (0)\n", "SYNC", ""),
    "object-like name called": ("#define BARRIER __syncthreads\n", "BARRIER()", ""),
    "object-like name of a function-like macro": ("#define BAR() __syncthreads()\n#define B2 BAR\n", "B2()", ""),
    "block.sync()": (CG, "block.sync()", "    cg::thread_block block = cg::this_thread_block();"),
    "auto block": (CG, "block.sync()", "    auto block = cg::this_thread_block();"),
    "cg::sync(block)": (CG, "cg::sync(block)", "    auto block = cg::this_thread_block();"),
    "grid.sync()": (CG, "grid.sync()", "    cg::grid_group grid = cg::this_grid();"),
    "made in place": (CG, "cg::this_thread_block().sync()", ""),
    "using namespace": ("#include <cooperative_groups.h>\nusing namespace cooperative_groups;\n", "sync(b)",
                        "    thread_block b = this_thread_block();"),
}
QUIET = {
    "macro with more": ("#define SYNC __syncthreads(); s[0] = 0\n", "SYNC", ""),
    "object-like name of no barrier, called": ("#define BARRIER __syncwarp\n", "BARRIER()", ""),
    "macro defined otherwise": ("#ifdef OLD\n#define SYNC __syncthreads()\n#else\n#define SYNC (void)0\n#endif\n",
                                "SYNC", ""),
    "a tile's sync": (CG, "t.sync()", "    auto t = cg::tiled_partition<32>(cg::this_thread_block());"),
    "own thread_block": ("struct thread_block { __device__ void sync() {} };\n", "b.sync()", "    thread_block b;"),
    "other namespace": ("namespace mine { struct thread_block { __device__ void sync() {} }; }\n", "b.sync()",
                        "    mine::thread_block b;"),
}


@pytest.mark.parametrize("case", FLAGGED.values(), ids=FLAGGED.keys())
def test_barrier_spelling_flagged(tmp_path, case):
    prefix, barrier, decl = case
    text, line = _kernel(prefix, barrier, decl)
    assert ("k.cu", line) in _sy001(tmp_path, {"k.cu": text})


@pytest.mark.parametrize("case", QUIET.values(), ids=QUIET.keys())
def test_look_alike_quiet(tmp_path, case):
    prefix, barrier, decl = case
    text, line = _kernel(prefix, barrier, decl)
    assert ("k.cu", line) not in _sy001(tmp_path, {"k.cu": text})


def test_uniform_return_before_macro_barrier(tmp_path):
    text, line = _kernel("#define SYNC __syncthreads()\n", "SYNC", test="n == 0")
    assert not _sy001(tmp_path, {"k.cu": text})


def test_header_macro(tmp_path):
    text, line = _kernel('#include "bar.cuh"\n', "BAR()")
    assert ("k.cu", line) in _sy001(tmp_path, {"bar.cuh": "#pragma once\n#define BAR() __syncthreads()\n", "k.cu": text})
    quiet = {"bar.cuh": "#pragma once\n#define BAR() __syncwarp()\n", "k.cu": text}  # a warp barrier: no SY001
    assert ("k.cu", line) not in _sy001(tmp_path, quiet)


def test_command_line_macro(tmp_path):
    text, line = _kernel("", "DSYNC")
    assert ("k.cu", line) in _sy001(tmp_path, {"k.cu": text}, defines=(("DSYNC", "__syncthreads()"),))
    assert ("k.cu", line) not in _sy001(tmp_path, {"k.cu": text}, defines=(("DSYNC", "(void)0"),))
