"""Lint reads the unit's own macros as the ports compile their definitions (stop 53).

CudaTracerLib's `#ifdef __CUDA_ARCH__` / `#define ISCUDA` / `#endif`, then `#ifdef ISCUDA` around device code:
the HIP port respells the defining test `__HIP_DEVICE_COMPILE__` (kernelport/device_pass.py decides it), so
ISCUDA is defined on AMD's device pass and the code under `#ifdef ISCUDA` is ported to a 64-lane wave.  On
main lint's unit defines (kernelport/unitdefines.py) read the definition only as the source as written
compiles it, found ISCUDA NVIDIA-only and linted nothing under it; a header's `#define WARP_BITSHIFT 5`
under the same test (kernelport/headerconsts.header_log2) was NVIDIA's too.  Now both ask the ports'
decision (kernelport/lint/portedtests.py), in the file and in each header of the unit.

Guards know the portable port's device-pass macro (`KP_DEVICE_PASS`) from the backends' data, and a finding
in a branch the ports leave out on AMD (the `#else` of `#if __CUDA_ARCH__ >= N`, the host branch of
`#ifdef __CUDA_ARCH__`) says that the port compiles another branch.

Look-alikes keep main's reading: `#if ISCUDA` with ISCUDA 1 / 0 (a value test: the port keeps the defining
test as written), PTX under `#ifdef ISCUDA` (kept as written), a `TILE_DIM 32` tile, the host `#else`, Metal alone.
"""
from __future__ import annotations

from pathlib import Path

from kernelport import backends, guards
from kernelport.arch_branches import PortView
from kernelport.device_pass import ported
from kernelport.lint.config import Overrides
from kernelport.lint.engine import lint_paths, lint_text
from kernelport.model import plain
from kernelport.source import SourceFile
from kernelport.translate import translate as _translate
from test_lint_arch_branches import BOTH

DEFINE = """\
#ifdef __CUDA_ARCH__
#define ISCUDA
#endif
"""
KERNEL = """\
__global__ void count(const int *in, int *out) {
    int v = in[threadIdx.x];
#ifdef ISCUDA
    unsigned int b = __ballot_sync(0xffffffffu, v > 0);
    if ((threadIdx.x & 31) == 0) out[threadIdx.x / warpSize] = __popc(b);
#endif
}
"""
# a 32x32 tile transpose (no warp-level code); {open} / {close}: a conditional around its body
TRANSPOSE = "__global__ void transpose(const float *in, float *out, int n) {{\n{open}" + """\
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    out[x * n + y] = tile[threadIdx.x][threadIdx.y];
""" + "{close}}}\n"


def _ws(findings) -> list[tuple[str, int, int]]:
    return sorted((f.code, f.line, f.column) for f in findings if f.code.startswith(("WS", "PT")))


def _project(tmp_path: Path, files: dict[str, str], main: str = "k.cu"):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return [f for r in lint_paths([tmp_path / main], Overrides(), jobs=1) for f in r.findings]


def test_iscuda_defined_under_the_device_pass_is_the_ports_device_code():
    text = DEFINE + KERNEL
    assert "#ifdef __HIP_DEVICE_COMPILE__\n#define ISCUDA" in _translate(SourceFile.from_text(text, "k.cu"), "hip")[1]
    got = _ws(lint_text(text, "k.cu"))
    assert ("WS007", 7, 36) in got and ("WS008", 7, 5) in got and ("WS002", 8, 24) in got  # main: nothing


def test_iscuda_from_a_header(tmp_path: Path):
    got = _ws(_project(tmp_path, {"defs.h": "#pragma once\n" + DEFINE, "k.cu": '#include "defs.h"\n' + KERNEL}))
    assert ("WS007", 5, 36) in got and ("WS002", 6, 24) in got  # main: nothing


def test_a_log2_of_32_under_the_device_pass_in_a_header(tmp_path: Path):
    header = "#pragma once\n#ifdef __CUDA_ARCH__\n#define WARP_BITSHIFT 5\n#endif\n"
    kernel = """\
#include "defs.h"
__global__ void sum(const float *in, float *out) {
    __shared__ float part[64];
    int warp = threadIdx.x >> WARP_BITSHIFT;
    float v = in[threadIdx.x];
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down(v, o);
    if (threadIdx.x % warpSize == 0) part[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = part[0] + part[1];
}
"""
    got = _project(tmp_path, {"defs.h": header, "k.cu": kernel})
    ws001 = [f for f in got if f.code == "WS001"]
    assert [(f.line, f.column) for f in ws001] == [(4, 31)] and "defs.h:3" in ws001[0].message  # main: none
    plain_header = _project(tmp_path, {"defs.h": header.replace("#ifdef __CUDA_ARCH__", "#if 1")})
    assert [(f.line, f.column) for f in plain_header if f.code == "WS001"] == [(4, 31)]  # the same as unconditional


# -- look-alikes: main's reading ---------------------------------------------------------------------
def test_iscuda_read_as_a_value_keeps_the_test_as_written():
    text = DEFINE.replace("#define ISCUDA\n", "#define ISCUDA 1\n#else\n#define ISCUDA 0\n") + \
        KERNEL.replace("#ifdef ISCUDA", "#if ISCUDA")
    # h/hip53: a macro derived under `#ifdef __CUDA_ARCH__` as one integer per branch is respelled by pass, so the
    # port's AMD device pass reads ISCUDA 1; its branch (a 64-bit ballot counted by __popcll) is right at 64
    assert "#ifdef __HIP_DEVICE_COMPILE__\n#define ISCUDA 1" in _translate(SourceFile.from_text(text, "k.cu"), "hip")[1]
    assert _ws(lint_text(text, "k.cu")) == []


def test_ptx_under_iscuda_keeps_it_nvidias():
    body = KERNEL.replace("    int v = in[threadIdx.x];\n",
                          "    int v = in[threadIdx.x];\n#ifdef ISCUDA\n    asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(v));\n#endif\n")
    text = DEFINE + body
    assert "#ifdef __CUDA_ARCH__\n#define ISCUDA" in _translate(SourceFile.from_text(text, "k.cu"), "hip")[1]
    assert [c for c in _ws(lint_text(text, "k.cu")) if c[0] != "PT001"] == []  # kept as written: NVIDIA's, as on main


def test_a_tile_of_32_under_iscuda_stays_quiet():
    tile = DEFINE + "#define TILE_DIM 32\n" + TRANSPOSE.format(open="#ifdef ISCUDA\n", close="#endif\n")
    assert _ws(lint_text(tile, "k.cu")) == []


def test_the_host_branch_of_iscuda_and_metal_alone():
    hd = DEFINE + "__host__ __device__ int lane_of(int i) {\n#ifdef ISCUDA\n    return threadIdx.x % warpSize;\n" \
                  "#else\n    return i & 31;\n#endif\n}\n"
    assert _ws(lint_text(hd, "k.cu")) == []
    assert _ws(lint_text(DEFINE + KERNEL, "k.cu", targets=["metal"])) == []  # Metal's spelling is no AMD pass


# -- the portable port's device-pass macro -------------------------------------------------------------
def test_guards_know_each_ports_device_pass_macro_from_its_data():
    for b in backends.all():
        for name, mine in b.device_pass_macros.items():
            read = [guards.macro(backends.get(r.dialect).device_pass_macros.get(name, name)) for r in b.runs]
            m = guards.macro(mine)
            if None in read:
                assert m is None, mine  # Metal's `__METAL_VERSION__`: no pass modelled here
            else:
                assert m is not None and m.defined_on == frozenset().union(*(r.defined_on for r in read)), mine
    kp = guards.macro("KP_DEVICE_PASS")  # main: None
    assert kp is not None and kp.defined_on == guards.DEVICE
    assert guards.macro("KP_DEVICE_PASSES") is None and guards.macro("MY_DEVICE_PASS") is None


def test_a_portable_port_is_read_through_its_device_pass():
    src = SourceFile.from_text(DEFINE + KERNEL, "k.cu")
    got = ported([PortView(src, plain(src), "portable", {})])
    assert list(got.values()) == [1]  # main: {} (KP_DEVICE_PASS unknown to guards)
    assert ported([PortView(src, plain(src), "metal", {})]) == {}


# -- a finding in a branch the port leaves out says so ---------------------------------------------------
ARCH = BOTH  # a ladder from 16 in `#if __CUDA_ARCH__ >= 700` (line 4) and in its `#else` (line 6)
NOTE = "the port compiles another branch of `{}`, line 3, on AMD's device pass; only a build of the source as written compiles this one"


def test_the_else_the_port_drops_says_so():
    got = lint_text(ARCH, "k.cu")
    note = NOTE.format("#if __CUDA_ARCH__ >= 700")
    assert [f.code for f in got if f.line == 6 and note in f.message] == ["WS004"]  # main: no note
    assert not any(note in f.message for f in got if f.line == 4)  # the branch the port takes: as on main
    split = lint_text(ARCH.replace("#if __CUDA_ARCH__ >= 700", "#ifdef __CUDA_ARCH__"), "k.cu")
    assert all(NOTE.format("#ifdef __CUDA_ARCH__") in f.message for f in split if f.line == 6) and \
        any(f.line == 6 for f in split)
    plain_else = lint_text(ARCH.replace("#if __CUDA_ARCH__ >= 700", "#if USE_SYNC"), "k.cu")
    assert any(f.line == 6 for f in plain_else) and not any("another branch" in f.message for f in plain_else)


def test_a_run_over_headers_parsed_once_reads_each_units_defines():
    """Each file's definitions are asked of the parse the unit reads (a run shares a header's parse and its
    cached definitions between units: llm.c's llmc, on a first version, KP006 KeyError in every file)."""
    llmc = Path(__file__).resolve().parent / "realcorpus" / "llm.c" / "llmc"
    got = [f for r in lint_paths([llmc], Overrides(), jobs=1) for f in r.findings]
    assert got and not [f.message for f in got if f.code == "KP006"]


# -- a macro defined per branch of the device-pass test: the port's device definition ---------------------
LANES = """\
#ifdef __CUDA_ARCH__
#define LANES 32
#else
#define LANES 1
#endif
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


def test_a_macro_defined_per_device_pass_branch_is_the_ports_device_value(tmp_path: Path):
    assert "#ifdef __HIP_DEVICE_COMPILE__\n#define LANES 32" in _translate(SourceFile.from_text(LANES, "k.cu"), "hip")[1]
    want = [("WS001", 2, 15), ("WS016", 8, 30)]  # main: nothing (the model kept the host's `#define LANES 1`)
    assert _ws(lint_text(LANES, "k.cu")) == want
    assert _ws(_project(tmp_path, {"k.cu": LANES})) == want  # (a project run: the walk's branches too)


def test_a_tile_defined_per_device_pass_branch_and_a_value_test_stay_quiet(tmp_path: Path):
    tile = "#ifdef __CUDA_ARCH__\n#define TILE_DIM 32\n#else\n#define TILE_DIM 1\n#endif\n" + TRANSPOSE.format(open="", close="")
    assert _ws(_project(tmp_path, {"k.cu": tile})) == []
    valued = LANES.replace("__global__ void sum", "#if LANES == 32\n#endif\n__global__ void sum")  # read as a value
    # h/hip53: read as a value too, the port respells the test by pass and AMD's device pass reads LANES 32:
    # lint follows the port (the same findings as without the value test, one line down)
    assert "#ifdef __HIP_DEVICE_COMPILE__\n#define LANES 32" in _translate(SourceFile.from_text(valued, "k.cu"), "hip")[1]
    assert _ws(lint_text(valued, "k.cu")) == [("WS001", 2, 15), ("WS016", 10, 30)]
