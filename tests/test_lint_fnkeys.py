"""Lint's per-function tables are keyed as C++ names functions (kernelport/fnscopes.py), not by the
bare name: two helpers of one name in two namespaces (or classes, or overloads) never get each
other's facts.  Each case has a pair of same-named helpers where only one holds the fact; the call
of the other must stay quiet (before: a false finding) and a qualified call of the one must be
found (before: missed, or found only when the definitions came in one order)."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text


def _lines(src: str, code: str) -> set[int]:
    return {f.line for f in lint_text(src, "k.cu") if f.code == code}


def test_divergence_barrier_helpers_by_key():
    """SY001: only a::step executes a barrier; b's kernel calls its own step (no barrier) under a
    thread-dependent condition, k2 calls a::step there."""
    src = """namespace b {
__device__ void step(float* s) { s[threadIdx.x] = 1; }
}
namespace a {
__device__ void step(float* s) { s[threadIdx.x] = 0; __syncthreads(); }
}
namespace b {
__global__ void k(float* s, int n) {
    if (threadIdx.x < n) step(s);
}
}
__global__ void k2(float* s, int n) {
    if (threadIdx.x < n) a::step(s);
}
"""
    assert _lines(src, "SY001") == {13}


def test_divergence_full_mask_helpers_by_key():
    """WS012: only a::reduce runs a full-mask shuffle."""
    src = """namespace b {
__device__ float reduce(float v) { return v * 2.0f; }
}
namespace a {
__device__ float reduce(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }
}
namespace b {
__global__ void k(float* x, int n) {
    float v = x[threadIdx.x];
    if (threadIdx.x < n) v = reduce(v);
    x[threadIdx.x] = v;
}
}
__global__ void k2(float* x, int n) {
    float v = x[threadIdx.x];
    if (threadIdx.x < n) v = a::reduce(v);
    x[threadIdx.x] = v;
}
"""
    assert _lines(src, "WS012") == {16}


def test_divergence_returns_by_key():
    """SY001 through a helper's return: a::pick returns the thread's index (thread-dependent), b::pick
    a uniform value; a barrier under `if (pick() < n)` hangs only with a's."""
    src = """namespace a {
__device__ int pick() { return threadIdx.x; }
}
namespace b {
__device__ int pick() { return blockIdx.x; }
__global__ void k(float* s, int n) {
    if (pick() < n) __syncthreads();
    s[threadIdx.x] = 0;
}
}
__global__ void k2(float* s, int n) {
    if (a::pick() < n) __syncthreads();
    s[threadIdx.x] = 0;
}
"""
    assert _lines(src, "SY001") == {12}


def test_divergence_parameters_by_key():
    """A thread-dependent argument reaches only the parameter of the overload called: f(int, int)'s
    barrier under `if (v < n)` hangs only when v is the thread's index."""
    src = """__device__ void f(int v) { if (v < 4) __syncthreads(); }
__device__ void f(int v, int n) { if (v < n) __syncthreads(); }
__global__ void k(float* s, int n) {
    f((int)blockIdx.x);
    f((int)threadIdx.x, n);
}
"""
    assert _lines(src, "SY001") == {2}


# Two ladders of one name: a::red folds 32-lane groups (width 32, a logical group), b::red the wave.
LADDERS = """namespace a {
__device__ float red(float v) { for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o, 32); return v; }
}
namespace b {
__device__ float red(float v) { for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o); return v; }
}
__global__ void k(float* x) { float s = b::red(x[threadIdx.x]); if (threadIdx.x % 32 == 0) x[threadIdx.x] = s; }
__global__ void k2(float* x) { x[threadIdx.x] = a::red(x[threadIdx.x]); }
"""


def test_warp_width_groups_and_sites_by_key_translate():
    """warpwidth's groups (and the sites' function) by key: a::red's explicit width 32 makes its group
    logical, not b::red's, whose ladder is the wave's (before: b::red kept 16 and got a width 32).  (Re-pinned,
    stop 47: k stores b::red's fold from one lane per warp; where every lane stored it, the port keeps 32 lanes
    for b::red too, kernelport/butterfly_lanes.py following a helper that returns its fold.)"""
    from kernelport.source import SourceFile
    from kernelport.translate import translate

    port, _ = translate(SourceFile.from_text(LADDERS, "k.cu"), "hip")
    assert port.ok
    lines = [line for line in port.body.splitlines() if "float red(" in line]
    assert len(lines) == 2
    assert "o = 16" in lines[0] and "__shfl_xor(v, o, 32)" in lines[0]
    assert "o = warpSize / 2" in lines[1] and "__shfl_xor(v, o)" in lines[1]


def test_warp_width_groups_and_sites_by_key_lint():
    assert _lines(LADDERS, "WS004") == {5}


def test_warp_level_kernels_by_key():
    """WS015 reads warp_level and each kernel's launches by key: a launch of 32-thread blocks matters
    for a::k (a vote; also launched with 256 threads, so no 32-lane group), not for b::k (no warp
    code), whichever way the launch names it (before: `a::k<<<...>>>` was nobody's launch)."""
    kernels = """namespace a {
__global__ void k(unsigned* x) { x[threadIdx.x] = __ballot_sync(0xffffffff, x[threadIdx.x] > 0) != 0; }
}
namespace b {
__global__ void k(unsigned* x) { x[threadIdx.x] *= 2; }
"""
    launches = "}\nvoid run(unsigned* x, int n) {\n    b::k<<<n, 32>>>(x);\n    a::k<<<n, 32>>>(x);\n" \
               "    a::k<<<n, 256>>>(x);\n}\n"
    assert _lines(kernels + launches, "WS015") == {9}
    assert _lines(kernels + "void run(unsigned* x, int n) { k<<<n, 32>>>(x); }\n}\n", "WS015") == set()


def test_logical_width_by_key():
    """WS017 skips a function whose shuffles have an explicit logical width (analysis.logical_width):
    a::pack's width 16, not b::pack's (before: b's `lane < 24` was skipped too)."""
    src = """namespace a {
__device__ float pack(float v, int lane, float* out) {
    v += __shfl_xor_sync(0xffffffff, v, 1, 16);
    if (lane < 24) out[lane] = v;
    return v;
}
}
namespace b {
__device__ float pack(float v, int lane, float* out) {
    if (lane < 24) out[lane] = v;
    return v;
}
}
"""
    assert _lines(src, "WS017") == {10}


ROWS = """__global__ void k(const float* x, float* out) {
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    float v = x[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    VOTE
    if (lane == 0) out[blockIdx.x * 8 + warp] = v + m;
}
"""


def _found(src: str) -> list[tuple[int, str, str]]:
    return sorted((f.line, f.code, f.severity) for f in lint_text(src, "k.cu"))


def test_two_namespaces_linted_together_as_each_alone():
    """a::k lays rows of 32 out in global data (data_warps: a logical group, its 32s stay); b::k, the
    same kernel with a vote, cannot stay at 32 (its 32s are hazards).  Together in one file each gets
    the findings it gets alone (before: b's hazards became a's advice, a's 32s b's hazards)."""
    a = ROWS.replace("VOTE", "float m = 0;")
    b = ROWS.replace("VOTE", "unsigned m = __ballot_sync(0xffffffff, v > 0);")
    both = "namespace a {\n" + a + "}\nnamespace b {\n" + b + "}\n"
    shift = a.count("\n") + 2  # b's lines in `both`: after `namespace a {`, a, `}` and `namespace b {`
    assert _found(both) == [(line + 1, c, s) for line, c, s in _found(a)] + \
        [(line + shift + 1, c, s) for line, c, s in _found(b)]


def test_shared_arrays_by_their_functions_key():
    """WS011 and WS020 match a shared array with the lanes and calls of its own function, by key: two
    kernels `k` in two namespaces each declare `s`/`sums`; only a's is a per-wave hazard (before: the
    finding sat on b's array, or b's reads were reported against a's array)."""
    src = """__device__ void put(float* s, float v) { s[threadIdx.x % warpSize] = v; }
namespace a {
__global__ void k(float* x) {
    __shared__ float s[32];
    put(s, x[threadIdx.x]);
    x[threadIdx.x] = s[0];
}
}
namespace b {
__global__ void k(float* x) {
    __shared__ float s[32];
    s[threadIdx.x & 7] = x[threadIdx.x];
    x[threadIdx.x] = s[0];
}
}
"""
    assert _lines(src, "WS011") == {4}
    reduce = """#if defined(USE_ROCM)
#define NUM_WARPS (1024 / warpSize)
#else
#define NUM_WARPS 32
#endif
namespace NS {
__global__ void row_sum(const float* x, float* out) {
    __shared__ float sums[SIZE];
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane == 0) sums[warp] = v;
    __syncthreads();
    v = sums[lane];
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}
}
"""
    both = reduce.replace("NS", "a").replace("SIZE", "NUM_WARPS") + \
        reduce.split("#endif\n")[1].replace("NS", "b").replace("SIZE", "64")
    assert _lines(both, "WS020") == {13}


def test_translate_host_asm_by_key():
    """Inline assembly in a host function is the host's (left alone), judged by the function that
    holds it: host a::swap, not the device b::swap of the same name (before: refused, KP201)."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate

    src = """namespace b {
__device__ unsigned swap(unsigned x) { return __brev(x); }
}
namespace a {
inline unsigned swap(unsigned x) { asm("bswapl %0" : "+r"(x)); return x; }
}
__global__ void k(unsigned* x) { x[threadIdx.x] = b::swap(x[threadIdx.x]); }
"""
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert not any(d.code == "KP201" for d in port.diagnostics)


def test_launch_geometry_by_key():
    """warpwidth reads each kernel's launches, sized by the locals of the function that launches it,
    by key: b::run launches b::k with 32-thread blocks (a logical 32-lane group: its 16 stays), a::run
    launches a::k with 256 (whole waves).  Before, both launches were `k`'s and both `run`s' locals
    were a::run's: b::k's ladder was made the wave's.  (h/heldout36: one lane stores the fold; a fold every
    lane stores keeps 32 lanes whatever the launch, kernelport/butterfly_lanes.py.  Re-pinned, stop 48: was
    `if (threadIdx.x == 0) x[0] = v;`, warp 0's fold alone, which a wave port makes a 64-lane wave's: kept at 32
    lanes now, kernelport/fold_levels.py; each warp's leader adds its fold here, as the wave port recombines.)"""
    from kernelport.source import SourceFile
    from kernelport.translate import translate

    kernel = """__global__ void k(float* x) {
    float v = x[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(x + 256, v);
}
void run(float* x) { int threads = THREADS; k<<<1, threads>>>(x); }
"""
    src = "namespace a {\n" + kernel.replace("THREADS", "256") + "}\nnamespace b {\n" + \
        kernel.replace("THREADS", "32") + "}\n"
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok
    ladders = [line.strip() for line in port.body.splitlines() if "for (int o" in line]
    assert ladders == ["for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);",
                       "for (int o = 16; o > 0; o >>= 1) v += __shfl_xor(v, o, 32);"]


def test_launch_rows_by_key(tmp_path):
    """Rows a kernel ties to the warp move to the wave with the launches of that kernel, found by
    key: the qualified launch `a::row_sums<<<...>>>` is rewritten with a's rows, b's own row_sums
    (no rows of its own) launched from namespace b is left as written.  Before, rows were by the
    launch's text: the qualified launch kept its 32 while its kernel's rows moved to the wave."""
    from test_launch_rows import HELPER, KERNEL
    from kernelport.project_ports import make, single
    from kernelport.source import SourceFile

    (tmp_path / "common.h").write_text(HELPER)
    f = tmp_path / "rows.cu"
    f.write_text('#include <cassert>\n#include "common.h"\nnamespace a {\n' + KERNEL + "}\nnamespace b {\n" +
                 "__global__ void row_sums(const float* x, float* out, int N, int C) { out[threadIdx.x] = x[0]; }\n"
                 "void run_b(const float* x, float* out) { row_sums<<<1, dim3(32, 4)>>>(x, out, 1, 1); }\n}\n"
                 "void run_a(const float* x, float* out) { a::row_sums<<<1, dim3(32, 4)>>>(x, out, 1, 1); }\n")
    made = make(single(f, SourceFile.from_text(f.read_text(), str(f))), ["hip"], None, False)
    port = next(m for m in made if m.path.name == "rows.hip")
    assert port.port.ok, [d.format() for d in port.port.diagnostics]
    assert "a::row_sums<<<1, dim3(kp_device_warp_size(), 4)>>>" in port.text
    assert "row_sums<<<1, dim3(32, 4)>>>(x, out, 1, 1); }\n}" in port.text


@pytest.mark.parametrize("call, moves", [("warp::warpReduceSum(m)", True), ("tile::warpReduceSum(m)", False)])
def test_header_warp_helper_by_qualified_name(tmp_path, call, moves):
    """A kernel's rows move to the wave when it calls a header's warp helper (ported at the wave
    width): warp::warpReduceSum, not tile::warpReduceSum of the same header, which only returns its
    argument (before: any call of that bare name moved the rows, a needless rewrite)."""
    from test_launch_rows import HELPER, HOST, KERNEL
    from kernelport.project_ports import make, single
    from kernelport.source import SourceFile

    (tmp_path / "common.h").write_text("namespace warp {\n" + HELPER + "}\nnamespace tile {\n"
                                       "__device__ float warpReduceSum(float v) { return v; }\n}\n")
    f = tmp_path / "rows.cu"
    f.write_text('#include <cassert>\n#include "common.h"\n' + KERNEL.replace("warpReduceSum(m)", call) +
                 HOST.replace("BLOCK_X", "32"))
    made = make(single(f, SourceFile.from_text(f.read_text(), str(f))), ["hip"], None, False)
    port = next(m for m in made if m.path.name == "rows.hip")
    assert port.port.ok, [d.format() for d in port.port.diagnostics]
    assert ("constexpr const int WarpSize = KP_WAVE_SIZE;" in port.text) == moves, port.text


@pytest.mark.parametrize("call, advice", [("warp::red(v)", False), ("tile::red(v)", True)])
def test_row_split_advice_reads_header_warp_helpers_by_qualified_name(tmp_path, call, advice):
    """A block split into 32-lane rows is advice only when lint reads every warp operation of it: a
    header's warp::red (a shuffle from lane 0, across the rows of a 64-lane wave) is unread, so
    its 32s stay hazards; tile::red of the same header has no warp code (before: a qualified call was
    no call, and the rows were advice with warp::red too)."""
    from kernelport.lint.engine import lint_paths

    (tmp_path / "h.cuh").write_text("namespace warp {\n__device__ float red(float v) { return v + "
                                    "__shfl_sync(0xffffffff, v, 0); }\n}\nnamespace tile {\n"
                                    "__device__ float red(float v) { return v; }\n}\n")
    f = tmp_path / "k.cu"
    f.write_text('#include "h.cuh"\n__global__ void k(const float* x, float* out) {\n'
                 "    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;\n    float v = x[threadIdx.x];\n"
                 "    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);\n"
                 f"    v = {call};\n    __shared__ float sums[32];\n    if (lane == 0) sums[warp] = v;\n"
                 "    __syncthreads();\n    if (threadIdx.x == 0) out[blockIdx.x] = sums[0];\n}\n")
    found = {(x.line, x.code): x.severity for r in lint_paths([f]) for x in r.findings if r.path.endswith("k.cu")}
    assert {(3, "WS002"), (3, "WS003"), (5, "WS004")} <= found.keys()
    assert {found[k] for k in [(3, "WS002"), (3, "WS003"), (5, "WS004")]} == ({"info"} if advice else {"error"})


def test_owner_of_a_file_that_is_one_definition():
    """A file that is exactly one definition (no newline after it): the translation unit has the
    definition's own span, so the owner walk was handed the definition back for ever (every Metal
    translate of such a file hung in CI).  The walk runs in a thread so that a regression fails
    here instead of hanging the suite."""
    import threading
    from kernelport import fnscopes, model
    from kernelport.source import SourceFile
    src = SourceFile.from_text('__global__ void k(int* x) { asm volatile("membar.gl;"); x[0] = 1; }', "t.cu")
    module = model.build(src)
    node = module.kernels[0].node.child_by_field_name("body")
    got: list = []
    t = threading.Thread(target=lambda: got.append(fnscopes.owner(module, node)), daemon=True)
    t.start()
    t.join(20)
    assert got and got[0] is not None and got[0] == fnscopes.owner(module, module.kernels[0].node)
