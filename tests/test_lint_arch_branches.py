"""Lint analyses the branch of `#if __CUDA_ARCH__ >= N` that the ports compile (stop 52).

Stop 51 made translate port such a conditional in device code as the branch the newest NVIDIA architecture
takes (kernelport/arch_branches.py, KP237): the branch every current GPU runs.  Lint read the file only as a
build of the source as written: `__CUDA_ARCH__` undefined off NVIDIA, so it linted the `#else` and left the
newest branch alone as NVIDIA's, where a 32-bit ballot, `& 31` or a ladder from 16 went to AMD in the port
silently.  Now the same decision (arch_branches.choices, read through arch_branches.ported) tells lint which
branch the ports compile, and its hazards are reported at their lines in the user's file.

The `#else` stays linted: the AMD build of the source as written (hipify, `__CUDA_ARCH__` undefined) compiles
it, which is how projects build it (uccl's dietgpu PtxUtils.cuh fixed its `#else` reductions for wave 64
with `__reduce_*_sync` under `>= 800` untouched: tests/labelled5, hazards 108/122/136).  A pre-Volta
`__shfl`/`__ballot` path there is a hazard of that build, not of kernelport's port (translate's KP237 says it
drops the branch).  A branch neither build compiles (`#elif __CUDA_ARCH__ >= 700` below `>= 800`) is NVIDIA's.

Look-alikes keep today's behaviour: `#ifdef __CUDA_ARCH__` (the device pass, not an architecture choice: its
device branch is read as the port respells it, tests/test_lint_device_pass.py), a test reading a -D-given or unknown macro, a `__host__ __device__` function (its host pass reads the `#else`),
a `TILE_DIM 32` tile in the branch taken, a hazard in the `#else` alone."""
from __future__ import annotations

from pathlib import Path

from kernelport import arch_branches
from kernelport.lint.config import Overrides
from kernelport.lint.engine import lint_paths, lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate as _translate

NEWEST = """\
__global__ void k(const int *in, int *out) {
    int v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 700
    unsigned int b = __ballot_sync(0xffffffffu, v > 0);
    int lane = threadIdx.x & 31;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
#else
    unsigned long long b = __ballot(v > 0);
    int lane = threadIdx.x % warpSize;
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down(v, o);
#endif
    if (lane == 0) out[threadIdx.x / warpSize] = v + __popcll(b);
}
"""

# the pre-Volta branch is the one written for 32 lanes: no port compiles it
OLD_ONLY = """\
__global__ void k(const int *in, int *out) {
    int v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 700
    unsigned long long b = __ballot_sync(__activemask(), v > 0);
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(__activemask(), v, o);
#else
    unsigned int b = __ballot(v > 0);
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down(v, o);
#endif
    if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = v + __popcll(b);
}
"""

BOTH = """\
__global__ void k(const int *in, int *out) {
    int v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 700
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
#else
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down(v, o);
#endif
    if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = v;
}
"""


def _ws(findings) -> list[tuple[str, int, int]]:
    return sorted((f.code, f.line, f.column) for f in findings if f.code.startswith(("WS", "PT")))


def test_a_hazard_in_the_newest_branch_is_reported_at_its_line():
    got = _ws(lint_text(NEWEST, "k.cu"))
    codes = {(c, ln) for c, ln, _ in got}
    assert {("WS008", 4), ("WS002", 5), ("WS004", 6), ("WS007", 6)} <= codes  # main: nothing at all
    assert all(ln in (4, 5, 6) for _, ln, _ in got)  # the `#else` (lines 8-10) is right at 64: nothing there
    assert ("WS004", 6, 18) in got  # the column of the `for`, in the user's file


def test_a_hazard_in_the_old_branch_alone_is_the_written_builds():
    # as on main: the `#else` is what hipcc compiles from the source as written; kernelport's port drops it (KP237)
    got = _ws(lint_text(OLD_ONLY, "k.cu"))
    assert {("WS008", 7), ("WS004", 8)} <= {(c, ln) for c, ln, _ in got}
    assert not any(ln in (4, 5) for _, ln, _ in got)
    port = translate(OLD_ONLY, "hip")
    assert "__ballot(v > 0)" in port.body and "unsigned int b" not in port.body


def test_a_hazard_in_both_is_reported_in_each():
    got = _ws(lint_text(BOTH, "k.cu"))
    assert ("WS004", 4, 18) in got and ("WS004", 6, 18) in got  # main: line 6 alone


def test_a_branch_neither_build_compiles_says_nothing():
    # `>= 800` is the ports', the `#else` the written build's; `>= 700` between them runs on Volta/Turing alone
    chain = BOTH.replace("#if __CUDA_ARCH__ >= 700", "#if __CUDA_ARCH__ >= 800").replace(
        "#else\n", "#elif __CUDA_ARCH__ >= 700\n    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);\n#else\n")
    assert sorted(ln for c, ln, _ in _ws(lint_text(chain, "k.cu")) if c == "WS004") == [4, 8]  # main: [8]


def test_mixed_sources_name_the_warpsize_the_port_compiles():
    ws016 = [f for f in lint_text(NEWEST, "k.cu") if f.code == "WS016"]
    assert len(ws016) == 1 and "(line 12)" in ws016[0].message  # not line 9's, which the ports leave out
    assert [r.line for r in ws016[0].related] == [12]
    old = [f for f in lint_text(OLD_ONLY, "k.cu") if f.code == "WS016"]  # the `16` of the `#else`: the written
    assert len(old) == 1 and "(line 10)" in old[0].message  # build's `warpSize`, not line 5's (the ports')


def test_every_test_form_the_ports_settle():
    # `defined(__CUDA_ARCH__) &&`, a named architecture, `!(... < N)`
    forms = {
        "defined": "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700",
        "#define VOLTA": "#if __CUDA_ARCH__ >= VOLTA",
        "negated": "#if !(__CUDA_ARCH__ < 700)",
    }
    for name, head in forms.items():
        text = ("#define VOLTA 700\n" if "VOLTA" in head else "") + BOTH.replace("#if __CUDA_ARCH__ >= 700", head)
        first = text.index("for (int o = 16")
        line = text[:first].count("\n") + 1
        got = _ws(lint_text(text, "k.cu"))
        assert ("WS004", line, 18) in got and ("WS004", line + 2, 18) in got, name


def test_lint_and_translate_read_one_decision():
    """The branch lint analyses is the branch the port compiles, fallback included: where the newest's
    branch holds PTX no target ports (`brkpt`), every port takes the `#else`, and so does lint."""
    fallback = """\
__device__ int lane_of() {
#if __CUDA_ARCH__ >= 700
    asm volatile("brkpt;");
    return threadIdx.x % warpSize;
#else
    return threadIdx.x & 31;
#endif
}
__global__ void k(int *out) { out[threadIdx.x] = __shfl_sync(0xffffffffu, 1, lane_of()); }
"""
    port = translate(fallback, "hip")
    assert "brkpt" not in port.body and any(d.code == "KP237" for d in port.diagnostics)
    for text, live in ((fallback, "#else"), (NEWEST, "#if __CUDA_ARCH__ >= 700")):
        view = _view(text)
        (c,) = arch_branches.choices(view)
        assert c.tests[c.taken] == live
        assert arch_branches.ported([view]) == {c.node.id: int(live != "#else")}  # what lint reads of it
    got = _ws(lint_text(fallback, "k.cu"))
    assert not any(c == "PT002" for c, _, _ in got)  # the asm is in the branch every port leaves out
    assert ("WS002", 6) in {(c, ln) for c, ln, _ in got}


def test_inline_ptx_in_the_branch_taken():
    # an idiom every port writes (`%laneid`), in the branch taken: nothing fails to build (the source as written
    # compiles the `#else`); PTX in the `#else`: the written build fails on it (PT002, as on main)
    text = """\
__device__ unsigned lane_a() {
    unsigned lane;
#if __CUDA_ARCH__ >= 700
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
#else
    lane = threadIdx.x % warpSize;
#endif
    return lane;
}
__device__ unsigned lane_b(unsigned x) {
    unsigned r;
#if __CUDA_ARCH__ >= 700
    r = x >> 3;
#else
    asm("bfe.u32 %0, %1, 3, 29;" : "=r"(r) : "r"(x));
#endif
    return r;
}
"""
    assert [(c, ln) for c, ln, _ in _ws(lint_text(text, "k.cu"))] == [("PT002", 15)]
    # PTX no port writes, in every branch: the port refuses the newest's (KP201), where lint says so now
    both = text.replace("r = x >> 3;", 'asm volatile("brkpt;");').replace('"bfe.u32 %0, %1, 3, 29;"', '"brkpt;"')
    pt = [(c, ln) for c, ln, _ in _ws(lint_text(both, "k.cu")) if c == "PT002"]
    assert pt == [("PT002", 13), ("PT002", 15)]  # main: line 15 alone


def test_a_named_architecture_inside_an_asm_template():
    """A template whose `#if __CUDA_ARCH__ >= VOLTA` picks an idiom in its newest branch and PTX no port writes
    in its `#else`: translate writes the newest's idiom, and PT002 says so (main: "refuses it (KP201)")."""
    text = """\
#define VOLTA 700
__device__ unsigned perm(unsigned a, unsigned b) {
    unsigned r;
    asm("{\\n"
#if __CUDA_ARCH__ >= VOLTA
        "prmt.b32 %0, %1, %2, 0x7632;\\n"
#else
        "vote.all.pred %0, %1;\\n"
#endif
        "}" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
"""
    assert "kp_prmt_b32(a, b, 0x7632)" in translate(text, "hip").body
    pt = [f for f in lint_text(text, "k.cu") if f.code == "PT002"]
    assert len(pt) == 1 and "writes this idiom" in pt[0].message and "KP201" not in pt[0].message


def test_positions_in_a_python_string():
    text = 'import cupy\nk = cupy.RawKernel(r"""\n' + BOTH + '""", "k")\n'
    got = _ws(lint_text(text, "k.py", lang="python"))
    assert ("WS004", 6, 18) in got and ("WS004", 8, 18) in got  # main: line 8 alone


# -- look-alikes: today's behaviour ----------------------------------------------------------------
def test_the_device_pass_split_is_no_architecture_choice():
    # `#ifdef __CUDA_ARCH__` / `#if defined(__CUDA_ARCH__)`: the device and host passes, both real; no branch of it
    # is "the newest".  The HIP port respells the test (kernelport/device_pass.py), so its device branch is read as
    # the port compiles it on AMD (tests/test_lint_device_pass.py; stop 52's first reading left line 4 NVIDIA's)
    for head in ("#ifdef __CUDA_ARCH__", "#if defined(__CUDA_ARCH__)"):
        split = BOTH.replace("#if __CUDA_ARCH__ >= 700", head)
        got = _ws(lint_text(split, "k.cu"))
        assert ("WS004", 4, 18) in got, head
        assert ("WS023", 6, 18) in got, head  # the host branch, as the AMD build compiles it (main: the same)


def test_a_macro_the_unit_does_not_decide_keeps_todays_reading(tmp_path: Path):
    unknown = BOTH.replace(">= 700", ">= MIN_ARCH")
    assert ("WS004", 6, 18) in _ws(lint_text(unknown, "k.cu"))  # the `#else` a build of it as it is compiles
    given = tmp_path / "k.cu"
    given.write_text("#define MIN_ARCH 700\n" + BOTH.replace(">= 700", ">= MIN_ARCH"))
    with_d = [f for r in lint_paths([given], Overrides(defines=(("MIN_ARCH", "500"),)), jobs=1)
              for f in r.findings if f.code == "WS004"]
    assert 7 in [f.line for f in with_d]  # -D given: the build decides, not the unit (today's reading)


def test_a_macro_the_unit_decides_is_settled(tmp_path: Path):
    given = tmp_path / "k.cu"
    given.write_text("#define MIN_ARCH 700\n" + BOTH.replace(">= 700", ">= MIN_ARCH"))
    plain = [f for r in lint_paths([given], jobs=1) for f in r.findings if f.code == "WS004"]
    assert sorted(f.line for f in plain) == [5, 7]  # the unit's own value: the ports' branch too (main: [7])


def test_a_host_device_function_keeps_todays_reading():
    hd = BOTH.replace("__global__ void k(const int *in, int *out)", "__host__ __device__ void k(const int *in, int *out)")
    assert ("WS004", 6, 18) in _ws(lint_text(hd, "k.cu"))  # the host pass reads the `#else`: no port settles it


def tile_in_branch(opening: str, other: str = "") -> str:
    """A 32x32 transpose tile (a tile's width, not a warp's) in the branch `opening` starts; `other` the
    lines of its `#else`, if any."""
    return f"""\
#define TILE_DIM 32
__global__ void transpose(const float *in, float *out, int n) {{
{opening}
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    out[x * n + y] = tile[threadIdx.x][threadIdx.y];
{"#else" + chr(10) + other if other else ""}#endif
}}
"""


def test_a_tile_of_32_in_the_branch_taken_stays_quiet():
    tile = tile_in_branch("#if __CUDA_ARCH__ >= 700", "    out[0] = in[0];\n")
    assert _ws(lint_text(tile, "t.cu")) == []


def translate(text: str, backend: str):
    return _translate(SourceFile.from_text(text, "k.cu"), backend)[0]


def _view(text: str):
    from kernelport.model import build
    src = SourceFile.from_text(text, "k.cu")
    return arch_branches.PortView(src, build(src), "hip", {})
