"""Inline PTX loads and stores at a generic address under a cache operator (kernelport/ptx_accesses.py,
issue 11: heldout58's gpumembench cache_kernels.cu writes `ld.cg.u32 %0, [%1]` and `st.cs.global.u32`,
which nvcc compiles and which stopped at KP201): a generic `ld.{ca,cg}` / `st.{wb,cg}` is the plain
access through the pointer, `.cs` the nontemporal one, as at .global; the cache operator may stand
before `.global` as well.  The ports compile with hipcc for gfx90a and gfx1030; the forms PTX does not
define on a generic address, or whose meaning is not a plain access, stay KP201 at their line."""
from __future__ import annotations

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles
from port_support import port_text

SOURCE = r"""#include <cstdint>
__global__ void k(unsigned *p, unsigned long long *q, uint4 *v, float *f) {
    unsigned r, s; unsigned long long l; uint4 x, *w = v + 1; float g;
    asm volatile ("ld.cg.u32 %0, [%1];" : "=r"(r) : "l"(p));
    asm volatile ("ld.ca.global.u32 %0, [%1];" : "=r"(s) : "l"(p + 1));
    asm volatile ("ld.cs.u64 %0, [%1];" : "=l"(l) : "l"(q));
    asm volatile ("ld.cg.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x.x), "=r"(x.y), "=r"(x.z), "=r"(x.w) : "l"(v));
    asm volatile ("ld.f32 %0, [%1];" : "=f"(g) : "l"(f));
    asm volatile ("st.cs.global.u32 [%0], %1;" :: "l"(p + 2), "r"(r + s));
    asm volatile ("st.cg.u64 [%0], %1;" :: "l"(q + 1), "l"(l));
    asm volatile ("st.cs.global.v4.u32 [%0], {%1,%2,%3,%4};" :: "l"(w), "r"(x.x), "r"(x.y), "r"(x.z), "r"(x.w));
    f[1] = g;
}
"""


def test_generic_and_reordered_cache_operators_port_to_plain_or_nontemporal_accesses(tmp_path):
    text = port_text(SOURCE, "c.cu")
    lines = [ln.strip() for ln in text.splitlines()]
    body = "\n".join(lines)
    assert "asm volatile" not in body
    assert "r = __builtin_bit_cast(__typeof__(r), *((const unsigned int*)(p) + 0));" in lines
    assert "s = __builtin_bit_cast(__typeof__(s), *((const unsigned int*)(p + 1) + 0));" in lines
    assert "l = __builtin_bit_cast(__typeof__(l), __builtin_nontemporal_load((const unsigned long long*)(q) + 0));" \
        in lines
    assert ", ".join(f"x.{c} = __builtin_bit_cast(__typeof__(x.{c}), *((const unsigned int*)(v) + {i}))"
                     for i, c in enumerate("xyzw")) + ";" in lines
    assert "g = __builtin_bit_cast(__typeof__(g), *((const unsigned int*)(f) + 0));" in lines
    assert "__builtin_nontemporal_store(__builtin_bit_cast(unsigned int, r + s), (unsigned int*)(p + 2) + 0);" in lines
    assert "(*((unsigned long long*)(q + 1) + 0) = __builtin_bit_cast(unsigned long long, l));" in lines
    assert ", ".join(f"__builtin_nontemporal_store(__builtin_bit_cast(unsigned int, x.{c}), (unsigned int*)(w) + {i})"
                     for i, c in enumerate("xyzw")) + ";" in lines
    hip_compiles(tmp_path, text, "c.hip")


@pytest.mark.parametrize("asm", [
    'asm volatile("ld.nc.u32 %0, [%1];" : "=r"(r) : "l"(g));',  # .nc is ld.global.nc's alone
    'asm volatile("ld.lu.u32 %0, [%1];" : "=r"(r) : "l"(g));',  # last use: a local line may be dropped
    'asm volatile("ld.cv.u32 %0, [%1];" : "=r"(r) : "l"(g));',  # fetch again: not a plain load
    'asm volatile("st.wt.u32 [%0], %1;" :: "l"(g), "r"(n));',  # write-through (KP201 at .global alike)
    'asm volatile("ld.cg.u32 %0, [%1+4];" : "=r"(r) : "l"(g));',  # an address offset
    'asm volatile("ld.cg.global.cs.u32 %0, [%1];" : "=r"(r) : "l"(g));',  # two cache operators
    'asm volatile("ld.cg.u32 %0, [%1];" : "=r"(r) : "r"(n));',  # a 32-bit address
])
def test_a_look_alike_stays_kp201_at_its_line(asm):
    src = ("__device__ unsigned int f(unsigned int *g, unsigned int n) {\n"
           "    unsigned int r = 0;\n"
           f"    {asm}\n    return r + n;\n}}\n"
           "__global__ void k(unsigned int* o) { o[0] = f(o, o[1]); }\n")
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert [(d.code, d.location.line, d.location.column) for d in errors] == [("KP201", 3, 5)], \
        [d.format() for d in errors]
