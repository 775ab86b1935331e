"""A ballot stored in one variable of a declaration that declares others too (kernelport/declsplit.py):
`int mask = __ballot_sync(FULL, p), sign = x < 0 ? -1 : 1;` became `unsigned long long mask = ...,
sign = ...;` in the HIP port (and `ulong` in the Metal one), `sign` unsigned: `sign * x` wrong, and the
port compiled.  Only the mask's declarators take the lane-mask type now; where that cannot be (a `for`
initialiser, a macro body, a file-scope variable shared with host code) KP232 says where.  A file-scope
32-bit variable a kernel stores a ballot in is widened too (it was cut to 32 bits at wave 64).
tests/fixtures/ballot_widths/shared_decl.cu is the first case as an annotated kernel, verified here."""
from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "ballot_widths" / "shared_decl.cu"

MIXED = """
#include <cuda_runtime.h>
__global__ void k(const float* x, float* out) {
    int t = threadIdx.x;
    float v = x[t];
    int mask = __ballot_sync(0xffffffffu, v > 0.f), sign = v < 0.f ? -1 : 1;
    static_assert(sizeof(sign) == sizeof(int), "sign stays an int");
    out[t] = v * sign + (sign < 0 ? 1.f : 0.f) + __popc(mask);
}
"""


def port(code: str, backend: str = "hip"):
    p, _ = translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), backend)
    return p


def errors(p) -> list[tuple[str, int, int]]:
    return [(d.code, d.location.line, d.location.column) for d in p.diagnostics if d.severity == "error"]


def lint_codes(code: str) -> list[tuple[str, int, int]]:
    """Where lint reports a lane mask kept in 32 bits (WS008)."""
    return [(f.code, f.line, f.column) for f in lint_text(textwrap.dedent(code), "t.cu") if f.code == "WS008"]


def test_only_the_mask_takes_the_wide_type_and_the_port_compiles(tmp_path):
    p = port(MIXED)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "    unsigned long long mask = __ballot(v > 0.f); int sign = v < 0.f ? -1 : 1;\n" in p.body
    assert "__popcll(mask)" in p.body
    m = port(MIXED, "metal")
    assert m.ok, [d.format() for d in m.diagnostics]
    assert "ulong mask = static_cast<ulong>(simd_ballot(v > 0.f)); int sign = v < 0.f ? -1 : 1;" in m.body
    require_tool("hipcc")
    f = tmp_path / "mixed.hip"
    f.write_text(translate(SourceFile.from_text(textwrap.dedent(MIXED), "t.cu"), "hip")[1])
    assert_hip_file_compiles(f, ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))


def test_pointer_array_and_const_declarators_keep_their_type_and_address_space():
    code = """
    __global__ void k(const float* x, float* out, int n) {
        int t = threadIdx.x;
        const int m = __ballot_sync(0xffffffffu, x[t] > 0.f), *p = &n, arr[2] = {1, 2};
        const unsigned lo = 3u,
                       bits = __ballot_sync(0xffffffffu, x[t] < 0.f),
                       hi = lo + bits;
        out[t] = (float)(*p + arr[1] + __popc(m) + __popc(bits) + (int)hi);
    }
    """
    p = port(code)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "    const unsigned long long m = __ballot(x[t] > 0.f); const int *p = &n, arr[2] = {1, 2};\n" in p.body
    # one line per line as written; the later `hi` reads the mask declared before it
    assert ("    const unsigned lo = 3u;\n"
            "                   const unsigned long long bits = __ballot(x[t] < 0.f);\n"
            "                   const unsigned hi = lo + bits;\n") in p.body
    m = port(code, "metal")
    assert m.ok, [d.format() for d in m.diagnostics]
    # the pointer's address space goes with the pointer's declaration, not the mask's
    assert "const ulong m = static_cast<ulong>(simd_ballot(x[t] > 0.f)); const thread int *p = &n, arr[2] = {1, 2};" \
        in m.body


def test_static_and_shared_qualifiers_are_kept_in_each_declaration():
    code = """
    __global__ void k(const float* x, int* out) {
        __shared__ unsigned s_mask, s_count;
        int t = threadIdx.x;
        if (t == 0) s_count = 0u;
        __syncthreads();
        if (t < 64) s_mask = __ballot_sync(0xffffffffu, x[t] > 0.f);
        atomicAdd(&s_count, 1u);
        __syncthreads();
        if (t == 0) out[0] = __popc(s_mask) + (int)s_count;
    }
    __device__ int f(int p) {
        static int calls = 0, vote = 0;
        vote = __ballot_sync(0xffffffffu, p);
        return __popc(vote) + calls;
    }
    """
    p = port(code)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "    __shared__ unsigned long long s_mask; __shared__ unsigned s_count;\n" in p.body
    assert "    static int calls = 0; static unsigned long long vote = 0;\n" in p.body


def test_a_for_initialiser_is_refused_at_the_mask():
    code = """
    __global__ void k(const float* x, int* cnt) {
        int t = threadIdx.x;
        for (int m = __ballot_sync(0xffffffffu, x[t] > 0.f), i = 0; i < 2; ++i) cnt[i] = __popc(m) - i;
    }
    """
    p = port(code)
    assert errors(p) == [("KP232", 4, 14)], [d.format() for d in p.diagnostics]
    assert "declared with 'i' in a `for` initialiser" in p.diagnostics[0].message
    assert lint_codes(code) == [("WS008", 4, 14)]  # lint says the same, at the same place


def test_a_macro_body_declaration_is_refused():
    code = """
    #define VOTE(p) int mask = __ballot_sync(0xffffffffu, p), sign = (p) ? 1 : -1;
    __global__ void k(const float* x, float* out) {
        int t = threadIdx.x;
        VOTE(x[t] > 0.f)
        out[t] = sign * __popc(mask);
    }
    """
    p = port(code)
    assert [(c, line) for c, line, _ in errors(p)] == [("KP232", 2)], [d.format() for d in p.diagnostics]


def test_an_all_mask_declaration_is_widened_whole():
    code = """
    __global__ void k(const float* x, int* out) {
        int t = threadIdx.x;
        unsigned a = __ballot_sync(0xffffffffu, x[t] > 0.f), b = __ballot_sync(0xffffffffu, x[t] < 0.f);
        out[t] = __popc(a) - __popc(b);
    }
    """
    p = port(code)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "    unsigned long long a = __ballot(x[t] > 0.f), b = __ballot(x[t] < 0.f);\n" in p.body


def test_look_alikes_stay_as_written():
    code = """
    __global__ void k(const float* x, int* out) {
        int t = threadIdx.x;
        int n = __popc(__ballot_sync(0xffffffffu, x[t] > 0.f)), sign = x[t] < 0.f ? -1 : 1;
        unsigned long long m = __ballot_sync(0xffffffffu, x[t] < 0.f), c = 0;
        int a = 1, b = a + 1;
        out[t] = n * sign + __popcll(m) + (int)c + a + b;
    }
    """
    p = port(code)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "    int n = __popcll(__ballot(x[t] > 0.f)), sign = x[t] < 0.f ? -1 : 1;\n" in p.body
    assert "    unsigned long long m = __ballot(x[t] < 0.f), c = 0;\n" in p.body
    assert "    int a = 1, b = a + 1;\n" in p.body


GLOBAL = """
__device__ unsigned g_mask, g_other;
__global__ void k(const float* x, int* cnt) {
    int t = threadIdx.x;
    g_mask = __ballot_sync(0xffffffffu, x[t] > 0.f);
    __syncthreads();
    if (t == 0) cnt[0] = __popc(g_mask) + (int)g_other;
}
"""


def test_a_file_scope_variable_holding_a_ballot_is_widened():
    """It was `__device__ unsigned g_mask;` in the port, `__popcll(g_mask)`: lanes 32-63 lost."""
    p = port(GLOBAL)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "__device__ unsigned long long g_mask; __device__ unsigned g_other;\n" in p.body
    assert lint_codes(GLOBAL) == [("WS008", 2, 12)]
    local = GLOBAL.replace("int* cnt) {", "int* cnt, unsigned g_mask) {")  # a parameter of that name: its own
    assert "__device__ unsigned g_mask, g_other;" in port(local).body


def test_a_file_scope_mask_is_a_mask_in_every_function_that_reads_it(tmp_path):
    """Another kernel's `__popc(g_mask)` counted 32 of the 64 bits the widened variable holds."""
    code = """
__device__ unsigned g_mask;
__global__ void vote(const float* x) { g_mask = __ballot_sync(0xffffffffu, x[threadIdx.x] > 0.f); }
__global__ void count(int* cnt) { if (threadIdx.x == 0) cnt[0] = __popc(g_mask); }
"""
    p = port(code)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "__device__ unsigned long long g_mask;\n" in p.body and "cnt[0] = __popcll(g_mask);" in p.body
    require_tool("hipcc")
    f = tmp_path / "global.hip"
    f.write_text(translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "hip")[1])
    assert_hip_file_compiles(f, ["gfx90a"], extra_args=("-std=c++17",))


def test_a_file_scope_variable_shared_beyond_the_kernels_is_refused():
    host = GLOBAL + """
unsigned read_mask() {
    unsigned h = 0;
    cudaMemcpyFromSymbol(&h, g_mask, sizeof(unsigned));
    return h;
}
"""
    p = port(host)
    assert errors(p) == [("KP232", 2, 21)], [d.format() for d in p.diagnostics]
    assert "host function 'read_mask' uses it" in p.diagnostics[0].message
    assert lint_codes(host) == [("WS008", 2, 21)]
    again = "extern __device__ unsigned g_mask;\n" + GLOBAL
    assert errors(port(again)) == [("KP232", 3, 21)]


def test_the_fixture_verifies_at_wave_32_and_64(tmp_path):
    """Before the split: 6 numeric checks failed (y = sign * x with an unsigned sign), at both waves
    and each schedule."""
    from kernelport.verify import Verifier
    f = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, f)
    rep = Verifier(cache=False, timeout=120).verify(f)
    numeric = [(c.wave, c.schedule, c.status) for c in rep.checks if c.kind == "numeric" and c.backend == "hip"]
    assert {w for w, _, _ in numeric} == {32, 64} and len(numeric) == 6, numeric
    assert all(s == "pass" for _, _, s in numeric), [c.detail for c in rep.checks if c.status == "fail"]


def test_a_file_scope_variable_of_a_header_is_refused_at_the_store(tmp_path):
    """The header's `unsigned g_mask` stayed 32 bits in its own port, the kernel's `__popcll` read it."""
    from trust_support import kp_inproc
    (tmp_path / "g.h").write_text("#pragma once\n__device__ unsigned g_mask, g_other;\n")
    (tmp_path / "a.cu").write_text('#include "g.h"\n' + GLOBAL.split("\n", 2)[2])
    rc, out, err = kp_inproc("translate", tmp_path / "a.cu", "--to", "hip", "-o", tmp_path / "out")
    assert rc == 1 and "a.cu:4:5: error: KP232" in err and "declared `unsigned` (32 bits) at g.h:2" in err, err


def test_a_declaration_after_a_case_label_is_split_in_place():
    code = """
    __global__ void k(const float* x, int* out, int mode) {
        int t = threadIdx.x;
        switch (mode) {
        case 0:
            out[t] = 0;
            again: int m = __ballot_sync(0xffffffffu, x[t] > 0.f), s = -1;
            out[t] = __popc(m) * s;
            break;
        }
    }
    """
    p = port(code)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "        again: unsigned long long m = __ballot(x[t] > 0.f); int s = -1;\n" in p.body


def test_lints_unsafe_fix_splits_the_declaration_as_the_port_does():
    """`lint --unsafe-fixes` wrote `unsigned long long mask = ..., sign = ...;` into the CUDA source."""
    from kernelport.lint.fix import apply_edits
    code = textwrap.dedent(MIXED)
    ws008 = [f for f in lint_text(code, "t.cu") if f.code == "WS008"]
    assert len(ws008) == 1 and ws008[0].fix is not None and ws008[0].fix.applicability == "unsafe"
    fixed, n = apply_edits(code, list(ws008[0].fix.edits))
    assert n == 1 and "    unsigned long long mask = __ballot_sync(0xffffffffu, v > 0.f); int sign = v < 0.f ? -1 : 1;\n" \
        in fixed, fixed
