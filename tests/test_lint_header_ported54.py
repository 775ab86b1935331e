"""A header's definitions under a test the ports settle, read as they compile them on AMD's device pass (stop 54).

Stop 53 taught lint to read a file's OWN macro defined per branch of `#ifdef __CUDA_ARCH__` as the definition the
ports compile on AMD's device pass (kernelport/lint/portedtests.py): the HIP port respells the test as the device
pass, so `#define LANES 32` is device code there.  A header's were still read two other ways:

- its `const` / `constexpr` integers (kernelport/headerconsts.py) only outside every conditional: `#ifdef
  __CUDA_ARCH__` / `constexpr int LANES = 32;` was never read, and `threadIdx.x % LANES` went unflagged;
- its macro defined once per branch as the include walk keeps it: the walk cannot decide `__CUDA_ARCH__` and keeps
  the last definition (the host's `#define LANES 1`), so the device's 32 was never seen.

Both now ask the same decision (portedtests.compiled_on_amd, header_definitions).  And a header's integer macro
written per platform (`#if defined(__HIP_PLATFORM_AMD__)` / 64 / `#else` / 32) is AMD's 64 (portedtests.
amd_definitions), as the same lines in the file itself already were.  Look-alikes keep main's reading: a 32x32
tile under the same test, a constant only the host branch defines, a 64 on the device branch, a test of an
ordinary name no one settles, AMD's own 32, the host branch of `#ifndef __CUDA_ARCH__`, and Metal alone.
"""
from __future__ import annotations

from pathlib import Path

from kernelport.lint.config import Overrides
from kernelport.lint.engine import lint_paths

KERNEL = """\
#include "defs.h"
__global__ void sum(const float *in, float *out) {
    __shared__ float part[64];
    int lane = threadIdx.x % LANES;
    int warp = threadIdx.x / LANES;
    float v = in[threadIdx.x];
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down(v, o);
    if (lane == 0) part[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = part[0] + part[1];
}
"""
TRANSPOSE = """\
#include "defs.h"
__global__ void transpose(const float *in, float *out, int n) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    out[x * n + y] = tile[threadIdx.x][threadIdx.y];
}
"""


def _lint(tmp_path: Path, header: str, kernel: str = KERNEL, targets=None):
    (tmp_path / "defs.h").write_text(header)
    (tmp_path / "k.cu").write_text(kernel)
    over = Overrides(targets=frozenset(targets)) if targets else Overrides()
    return [f for r in lint_paths([tmp_path / "k.cu"], over, jobs=1) for f in r.findings]


def _ws(findings) -> list[tuple[str, int, int]]:
    return sorted((f.code, f.line, f.column) for f in findings if f.code.startswith("WS"))


def _header(body: str, guard: bool = False) -> str:
    return f"#ifndef DEFS_H\n#define DEFS_H\n{body}#endif\n" if guard else "#pragma once\n" + body


SPLIT_CONST = "#ifdef __CUDA_ARCH__\nconstexpr int LANES = 32;\n#else\nconstexpr int LANES = 1;\n#endif\n"


def test_a_constexpr_per_device_pass_branch_in_a_header(tmp_path: Path):
    got = _lint(tmp_path, _header(SPLIT_CONST))
    ws001 = [f for f in got if f.code == "WS001"]
    assert [(f.line, f.column) for f in ws001] == [(4, 30)]  # main: nothing
    assert "defs.h:3" in ws001[0].message and "a header's constant" in ws001[0].message
    # the same header behind an include guard: the settled test decides, the guard is no platform's
    guarded = _lint(tmp_path, _header(SPLIT_CONST, guard=True))
    assert [(f.line, f.column) for f in guarded if f.code == "WS001"] == [(4, 30)]
    assert "defs.h:4" in [f for f in guarded if f.code == "WS001"][0].message


def test_a_static_const_under_the_device_pass_alone_and_under_an_arch_test(tmp_path: Path):
    alone = _lint(tmp_path, _header("#ifdef __CUDA_ARCH__\nstatic const int LANES = 32;\n#endif\n"))
    assert [(f.code, f.line) for f in alone if f.code == "WS001"] == [("WS001", 4)]  # main: nothing
    # `#if __CUDA_ARCH__ >= 700` at file scope is no device code the ports settle: AMD reads the `#else`'s 16
    arch = _lint(tmp_path, _header("#if __CUDA_ARCH__ >= 700\nconst int LANES = 32;\n#else\nconst int LANES = 16;\n#endif\n"))
    assert [(f.code, f.line) for f in arch if f.code == "WS001"] == []


def test_a_header_macro_per_device_pass_branch_is_the_ports_device_value(tmp_path: Path):
    header = _header("#ifdef __CUDA_ARCH__\n#define LANES 32\n#else\n#define LANES 1\n#endif\n")
    got = _lint(tmp_path, header)
    ws001 = [f for f in got if f.code == "WS001"]
    assert [(f.line, f.column) for f in ws001] == [(4, 30)]  # main: nothing (the walk kept the host's 1)
    assert "defined as 32 at" in ws001[0].message and "defs.h:3" in ws001[0].message
    rev = _lint(tmp_path, _header("#ifndef __CUDA_ARCH__\n#define LANES 1\n#else\n#define LANES 32\n#endif\n"))
    assert [(f.line, f.column) for f in rev if f.code == "WS001"] == [(4, 30)]  # already right on main: the last


# -- look-alikes: main's reading ---------------------------------------------------------------------
def test_a_tile_under_the_device_pass_stays_quiet(tmp_path: Path):
    for body in ("#ifdef __CUDA_ARCH__\nconstexpr int TILE_DIM = 32;\n#else\nconstexpr int TILE_DIM = 1;\n#endif\n",
                 "#ifdef __CUDA_ARCH__\n#define TILE_DIM 32\n#else\n#define TILE_DIM 1\n#endif\n"):
        assert _ws(_lint(tmp_path, _header(body), TRANSPOSE)) == []


def test_the_host_branch_a_device_64_an_ordinary_test_and_metal_stay_as_on_main(tmp_path: Path):
    host = "#ifndef __CUDA_ARCH__\nconstexpr int LANES = 32;\n#else\nconstexpr int LANES = 64;\n#endif\n"
    assert _ws(_lint(tmp_path, _header(host))) == []  # the device pass reads 64: right at 64
    assert _ws(_lint(tmp_path, _header(host.replace("#define", "#define").replace("constexpr int LANES = ", "#define LANES ")
                                        .replace(";", "")))) == []
    ordinary = "#ifdef USE_WARPS\nconstexpr int LANES = 32;\n#else\nconstexpr int LANES = 1;\n#endif\n"
    assert _ws(_lint(tmp_path, _header(ordinary))) == []  # no port settles USE_WARPS: not read, as on main
    assert _ws(_lint(tmp_path, _header(SPLIT_CONST), targets=["metal"])) == []  # Metal's is no AMD pass


# -- a header macro written per platform: AMD's passes compile AMD's definition --------------------------
PER_PLATFORM = "#if defined(__HIP_PLATFORM_AMD__)\n#define LANES 64\n#else\n#define LANES 32\n#endif\n"


def test_a_header_macro_written_for_amd_is_what_amd_compiles(tmp_path: Path):
    assert _ws(_lint(tmp_path, _header(PER_PLATFORM))) == []  # main: WS001 (the walk kept NVIDIA's 32, the last)
    own = PER_PLATFORM + KERNEL.replace('#include "defs.h"\n', "")
    (tmp_path / "own.cu").write_text(own)
    assert not [f for r in lint_paths([tmp_path / "own.cu"], Overrides(), jobs=1) for f in r.findings
                if f.code.startswith("WS")]  # the file's own: quiet on main already


def test_a_32_written_for_amd_and_an_ordinary_split_stay_as_on_main(tmp_path: Path):
    both = _lint(tmp_path, _header(PER_PLATFORM.replace("LANES 64", "LANES 32")))
    assert [(f.line, f.column) for f in both if f.code == "WS001"] == [(4, 30)]
    assert "defs.h:5" in [f for f in both if f.code == "WS001"][0].message  # the same value: main's location
    ordinary = _lint(tmp_path, _header(PER_PLATFORM.replace("defined(__HIP_PLATFORM_AMD__)", "defined(USE_WIDE)")))
    assert [(f.line, f.column) for f in ordinary if f.code == "WS001"] == [(4, 30)]  # no -D: the walk's `#else`
