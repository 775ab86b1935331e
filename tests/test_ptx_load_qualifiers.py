"""Inline PTX global accesses as the held-out microbenchmarks write them (issue 11, heldout58: GPU
memory-hierarchy probes stopped at KP201 on them): a cache operator followed by the read-only path's
`.nc` (`ld.global.ca.nc.b64`, `ld.global.cs.nc`, PTX's order: cop, then .nc), and an untyped `.b32`
/ `.b64` word loaded into (stored from) a float's or a double's register ("f" / "d"), which PTX's
type rules allow for bit types.  The ports are the plain (streaming) accesses of kernelport/
ptx_idioms.py, the word's bits read as the register's type; the forms PTX rejects or whose meaning
differs stay KP201 at their line."""
from __future__ import annotations

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

# modelled on AmpereArchViaMicroBenchMark's L1 latency probe (a pointer chase through `.ca.nc` loads)
# and gpu-arch-microbenchmark's cache-line probe (`ld.global.cg.b32` into a float)
SOURCE = r"""#include <cstdint>
__global__ void chase(uint32_t *clk, void **arr, float *input, double *d, float *out) {
    void **p = arr + threadIdx.x;
    uint32_t start, stop;
    asm volatile ("mov.u32 %0, %%clock;" : "=r"(start) :: "memory");
    for (int i = 0; i < 8; i++) {
        asm volatile ("ld.global.ca.nc.b64 %0, [%0];\n" : "+l"(p) : : "memory");
    }
    asm volatile ("mov.u32 %0, %%clock;" : "=r"(stop) :: "memory");
    float val, s;
    double w;
    asm volatile ("ld.global.cg.b32 %0, [%1];\n" : "=f"(val) : "l"(input) : "memory");
    asm volatile ("ld.global.cs.nc.f32 %0, [%1];" : "=f"(s) : "l"(input + 1));
    asm volatile ("ld.global.nc.b64 %0, [%1];" : "=d"(w) : "l"(d));
    asm volatile ("st.global.b32 [%0], %1;" :: "l"(out + threadIdx.x), "f"(val + s + (float)w));
    clk[threadIdx.x] = stop - start + (p == nullptr);
}
"""


def _port():
    port, text = translate(SourceFile.from_text(SOURCE, "q.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    return port, text


def test_cache_operator_with_nc_and_bit_words_in_float_registers_port():
    port, _ = _port()
    lines = [ln.strip() for ln in port.body.splitlines()]
    fence = "__atomic_signal_fence(__ATOMIC_SEQ_CST)"
    # the pointer chase: `.ca.nc` changes no value read; the 64 bits are the pointer's (a bit cast)
    assert lines[6] == f"{fence}, p = __builtin_bit_cast(__typeof__(p), *((const unsigned long long*)(p) + 0)), {fence};"
    # a .b32 word into a float register: its bits as the float (no conversion)
    assert lines[11] == f"{fence}, val = __builtin_bit_cast(__typeof__(val), *((const unsigned int*)(input) + 0)), {fence};"
    # `.cs.nc`: the streaming (nontemporal) load
    assert lines[12] == "s = __builtin_bit_cast(__typeof__(s), __builtin_nontemporal_load((const unsigned int*)(input + 1) + 0));"
    assert lines[13] == "w = __builtin_bit_cast(__typeof__(w), *((const unsigned long long*)(d) + 0));"
    assert lines[14] == ("(*((unsigned int*)(out + threadIdx.x) + 0) = "
                         "__builtin_bit_cast(unsigned int, val + s + (float)w));")


def test_the_port_compiles_for_gfx90a_and_gfx1030(tmp_path):
    require_tool("hipcc")
    _, text = _port()
    f = tmp_path / "q.hip"
    f.write_text(text)
    assert_hip_file_compiles(f)  # against the session's PCH, as verify compiles a port


@pytest.mark.parametrize("asm", [
    'asm volatile("ld.global.nc.ca.b32 %0, [%1];" : "=r"(r) : "l"(g));',  # .nc before the cop: not PTX's order
    'asm volatile("ld.global.lu.nc.b32 %0, [%1];" : "=r"(r) : "l"(g));',  # last use (the line may be dropped)
    'asm volatile("ld.global.cv.nc.b32 %0, [%1];" : "=r"(r) : "l"(g));',  # .cv is not a read-only-path operator
    'asm volatile("ld.global.u32 %0, [%1];" : "=f"(f) : "l"(g));',  # a typed integer into a float: PTX rejects it
    'asm volatile("ld.global.s64 %0, [%1];" : "=d"(e) : "l"(g));',  # alike for 64 bits
    'asm volatile("ld.global.b32 %0, [%1];" : "=d"(e) : "l"(g));',  # a word of another width than the register
    'asm volatile("ld.global.cg.b32 %0, [%1];" : "=h"(h) : "l"(g));',  # a half's register
    'asm volatile("st.global.u32 [%0], %1;" :: "l"(g), "f"(f));',  # a typed store from a float
])
def test_a_look_alike_stays_kp201_at_its_line(asm):
    src = ("__device__ unsigned int f(const unsigned int *g, unsigned int a, unsigned int n) {\n"
           "    unsigned int r = 0; float f = 0; double e = 0; unsigned short h = 0;\n"
           "    unsigned long long q = (unsigned long long)g;\n"
           f"    {asm}\n    return r + n + a + (unsigned int)f + (unsigned int)e + h + (unsigned int)q;\n}}\n"
           "__global__ void k(unsigned int* o) { o[0] = f(o, o[1], o[2]); }\n")
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert [(d.code, d.location.line, d.location.column) for d in errors] == [("KP201", 4, 5)], \
        [d.format() for d in errors]
