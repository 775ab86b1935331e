"""Guarded inline PTX (kernelport/ptx_idioms.py GUARD): `{ .reg .pred p; setp.ne.b32 p, %2, 0; @p
ld.global.nc.L2::128B.f32 %0, [%1]; }`, the bounds-checked loads, stores and cp.async copies of
hand-written GEMMs (heldout14's yhs-sample sgemm/ampere_sgemm and matmul-tutorial's matmul-for-perf
stopped at KP201 on them).  The port evaluates the predicate once into a C bool of the statement's
block and writes `p ? (void)(write) : (void)0` for each guarded write; `.L2::128B` (a prefetch-size
hint) changes no value.  The ports compile with hipcc for gfx90a and gfx1030; the functions run on the
host (g++) against PTX's meaning, guard true and false; a look-alike stays KP201 at its line."""
from __future__ import annotations

import re
import subprocess

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles, require_tool
from port_support import ported

SRC = r'''
__device__ __forceinline__ void ldg32(float &reg, const void *ptr, bool guard) {
    asm volatile ("{.reg .pred p;\n setp.ne.b32 p, %2, 0;\n @p ld.global.nc.L2::128B.f32 %0, [%1];}\n"
                  : "=f"(reg) : "l"(ptr), "r"((int)guard));
}
__device__ __forceinline__ void ldg32_0(unsigned &reg, const void *ptr, bool guard) {
    asm volatile ("{.reg .pred p;\n setp.ne.b32 p, %2, 0;\n @!p mov.b32 %0, 0;\n @p ld.global.cg.u32 %0, [%1];}\n"
                  : "=r"(reg) : "l"(ptr), "r"((int)guard));
}
__device__ __forceinline__ void stg32(const float &reg, void *ptr, bool guard) {
    asm volatile ("{.reg .pred p;\n setp.ne.b32 p, %2, 0;\n @p st.global.f32 [%0], %1;}\n"
                  : : "l"(ptr), "f"(reg), "r"((int)guard));
}
__device__ __forceinline__ void ldg64_eq(unsigned long long &reg, const void *ptr, unsigned long long skip) {
    asm volatile ("{.reg .pred q;\n setp.eq.u64 q, %2, 0;\n @q ld.global.u64 %0, [%1];}\n"
                  : "+l"(reg) : "l"(ptr), "l"(skip));
}
__device__ void ldgsts(float *smem, const float *g, bool guard) {
    unsigned int a;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(smem));
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %0, 0; @p cp.async.ca.shared.global.L2::128B [%1], [%2], 4; }"
                 :: "r"((int)guard), "r"(a), "l"(g));
    asm volatile("cp.async.wait_all;\n" ::);
}
__device__ inline void ldg32_v(float &reg, const void *ptr, bool guard) {
    asm volatile (
        "{.reg .pred p;\n"
        " setp.ne.b32 p, %2, 0;\n"
#if __CUDACC_VER_MAJOR__ >= 11 && __CUDACC_VER_MINOR__ >= 4 && \\
    __CUDA_ARCH__ >= 750
        " @p ld.global.nc.L2::128B.f32 %0, [%1];}\n"
#else
        " @p ld.global.nc.f32 %0, [%1];}\n"
#endif
        : "=f"(reg)
        : "l"(ptr), "r"((int)guard)
    );
}
__global__ void k(float* o, unsigned* u, unsigned long long* w, int n) {
    __shared__ float s[64];
    ldgsts(s + threadIdx.x, o + threadIdx.x, threadIdx.x < n);
    __syncthreads();
    float v = s[threadIdx.x ^ 1]; unsigned x = 7; unsigned long long y = 9;
    ldg32(v, o + threadIdx.x, threadIdx.x < n);
    ldg32_v(v, o + threadIdx.x + 1, threadIdx.x < n);
    ldg32_0(x, u + threadIdx.x, threadIdx.x < n);
    ldg64_eq(y, w + threadIdx.x, threadIdx.x);
    stg32(v + x + y, o + threadIdx.x + n, threadIdx.x < n);
}
'''

HOST = r'''
#include <cstdio>
#include <cstring>
#define __device__
#define __forceinline__ inline
FUNCTIONS
int main() {
    float f = 2.5f, g = -1.0f; unsigned a = 0xdeadbeefu, b = 5; unsigned long long c = 1ull << 40, d = 3;
    ldg32(g, &f, true);       // loaded
    float h = -1.0f; ldg32(h, &f, false);    // not loaded: keeps its value
    ldg32_0(b, &a, true); unsigned z = 5; ldg32_0(z, &a, false);   // loaded; zero
    float s = 0.0f; stg32(f, &s, true); float t = 0.0f; stg32(f, &t, false);
    unsigned long long e = d; ldg64_eq(e, &c, 0); unsigned long long e2 = d; ldg64_eq(e2, &c, 1);
    std::printf("%g %g %x %u %g %g %llu %llu\n", g, h, b, z, s, t, e, e2);
    return 0;
}
'''


def test_a_guarded_instruction_is_its_write_under_the_predicate():
    port, _ = ported(SRC, "g.cu", dedent=False)
    lines = port.body.splitlines()
    assert lines[2].strip() == (
        "{ bool kp_ptx_p; kp_ptx_p = (((int)guard) != (0)), (kp_ptx_p ? (void)(reg = __builtin_bit_cast("
        "__typeof__(reg), *((const unsigned int*)(ptr) + 0))) : (void)0); }")
    assert "(!kp_ptx_p ? (void)(reg = (0)) : (void)0), (kp_ptx_p ? (void)(reg = " in port.body  # `@!p mov.b32 %0, 0`
    assert "kp_ptx_q = ((skip) == (0))" in port.body
    # a template whose strings an #if/#else chooses: both branches give this port (the hint is dropped)
    v = port.body[port.body.index("void ldg32_v"):port.body.index("__global__")]
    assert v.splitlines()[1].strip() == lines[2].strip() and "#if" not in v, v
    assert "(kp_ptx_p ? (void)(kp_cp_async(a, g, 4, 4)) : (void)0)" in port.body  # `@p cp.async...L2::128B`


def test_the_guarded_ports_compute_ptx_s_meaning_on_the_host(tmp_path):
    require_tool("g++")
    _, text = ported(SRC, "g.cu", dedent=False)
    functions = "\n".join(re.findall(r"__device__ __forceinline__ void \w+\(.*?\n}\n", text, re.S))  # (not ldgsts)
    assert functions.count("__device__") == 4
    c = tmp_path / "g.cpp"
    c.write_text(HOST.replace("FUNCTIONS", functions))
    subprocess.run(["g++", "-std=c++20", "-O1", "-o", str(tmp_path / "g"), str(c)], check=True)
    out = subprocess.run([str(tmp_path / "g")], capture_output=True, text=True, check=True).stdout.split()
    # PTX: a false guard writes nothing ("=" outputs: any value; the port keeps the C value)
    assert out == ["2.5", "-1", "deadbeef", "0", "2.5", "0", str(1 << 40), "3"], out


def test_the_guarded_ports_compile_for_gfx90a_and_gfx1030(tmp_path):
    _, text = ported(SRC, "g.cu", dedent=False)
    hip_compiles(tmp_path, text, "g.hip")


@pytest.mark.parametrize("asm, why", [
    ('asm("{ .reg .pred p; @p ld.global.u32 %0, [%1]; }" : "=r"(lo) : "l"(a));', "a predicate no setp sets"),
    ('asm("{ .reg .pred p; setp.lt.f32 p, %2, %2; @p ld.global.u32 %0, [%1]; }" : "=r"(lo) : "l"(a), "f"(fl));',
     "a float comparison (integer ones are ported since heldout30)"),
    ('asm("{ .reg .pred p; setp.ne.b32 p, %2, 0; @!p mov.b32 %0, 0; @p ld.global.f32 %0, [%1]; }" '
     ': "=f"(fl) : "l"(a), "r"(hi));', "an immediate moved into a float register"),
    ('asm("@%2 ld.global.u32 %0, [%1];" : "=r"(lo) : "l"(a), "r"(hi));', "a guard that is an operand"),
    ('asm("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p add.cc.u32 %0, %0, 1; addc.u32 %0, %0, 0; }" '
     ': "+r"(lo) : "l"(a), "r"(hi));', "a carry chain under a guard"),
])
def test_a_guarded_look_alike_stays_kp201_at_its_line(asm, why):
    src = ("__device__ unsigned f(const unsigned* a, unsigned hi) {\n"
           f"    unsigned lo = 1; float fl = 0;\n    {asm}\n    return lo + hi + (unsigned)fl;\n}}\n")
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP201", 3)], why


def test_branches_of_a_template_that_port_differently_keep_their_conditional():
    """Branches that port differently (a plain and a nontemporal load) were KP201 until stop 48; since
    kernelport/ptx_branches.py (heldout37's simd_functions.h) each branch's C stands under its own directive, so the
    build's -D still chooses (tests/test_ptx_branches.py runs each branch against its model)."""
    template = '#ifdef FAST\n        "ld.global.nc.u32 %0, [%1];"\n#else\n        "ld.global.cs.u32 %0, [%1];"\n#endif\n'
    src = ("__device__ unsigned f(const unsigned* a) {\n    unsigned lo = 1;\n    asm volatile(\n"
           f"{template}        : \"=r\"(lo) : \"l\"(a));\n    return lo;\n}}\n")
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    fast, slow = port.body.split("#ifdef FAST\n")[1].split("#else\n")
    assert "__builtin_nontemporal_load" not in fast and "__builtin_nontemporal_load" in slow.split("#endif")[0], port.body


@pytest.mark.parametrize("template, why", [
    ('#if A\n#if B\n        "ld.global.u32 %0, [%1];"\n#endif\n#endif\n', "nested conditionals"),
    ('#if A\n        "ld.global.u32 %0, [%1];"\n#endif\n', "a branch that leaves no instruction"),
])
def test_branches_of_a_template_that_differ_stay_kp201(template, why):
    src = ("__device__ unsigned f(const unsigned* a) {\n    unsigned lo = 1;\n    asm volatile(\n"
           f"{template}        : \"=r\"(lo) : \"l\"(a));\n    return lo;\n}}\n")
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP201", 3)], why


def test_a_guard_set_by_an_ordered_integer_comparison_is_ported():
    """`setp.lt.s32` (heldout30's cuFHE sets predicates by ordered comparisons): the predicate is C's signed
    comparison, and the guarded load its write under it (it was KP201, 'a comparison other than != or ==')."""
    src = ("__device__ unsigned f(const unsigned* a, unsigned hi) {\n    unsigned lo = 1;\n"
           '    asm("{ .reg .pred p; setp.lt.s32 p, %2, 0; @p ld.global.u32 %0, [%1]; }" : "=r"(lo) : "l"(a), "r"(hi));\n'
           "    return lo + hi;\n}\n")
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "kp_ptx_p = ((int)(hi) < (int)(0))" in port.body and "(kp_ptx_p ? (void)(lo = " in port.body, port.body
