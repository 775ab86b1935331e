"""PTX's memory-model accesses and fences in HIP ports (kernelport/ptx_ordered.py; the thirty-fifth
held-out set, GPU data structures: a multiversion B-tree's `ld.acquire.gpu.b64` / `st.release.gpu.b32`
/ `fence.sc.gpu`, an allocator's `ld.gpu.acquire.u64` / `ld.global.cv.u32` / `ld.global.ca.u16`, and
`bfind.u32` (kernelport/ptx_idioms.py)): each is an access of its order and scope (clang's
__hip_atomic_load / __hip_atomic_store at the workgroup / agent / system scope), a volatile access, a
fence of that order and scope; the ports compile with hipcc for gfx90a and gfx1030.  The forms whose
meaning differs (a cluster scope, .mmio, a vector, bfind's signed and .shiftamt forms) stay KP201 at
their line, and Metal, which spells none of these, refuses them."""
from __future__ import annotations

import pytest

from conftest import hip_compiles
from kernelport import ptx_idioms
from kernelport.source import SourceFile
from kernelport.translate import translate

PORTED = [
    ('asm volatile("ld.acquire.gpu.b64 %0,[%1];" : "=l"(q) : "l"(g) : "memory");',
     "q = __builtin_bit_cast(__typeof__(q), __hip_atomic_load((const unsigned long long*)(g), __ATOMIC_ACQUIRE, "
     "__HIP_MEMORY_SCOPE_AGENT))"),
    # ptxas takes the scope before the order as well
    ('asm volatile("ld.gpu.acquire.u64 %0, [%1];" : "=l"(q) : "l"(g));',
     "__hip_atomic_load((const unsigned long long*)(g), __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT)"),
    ('asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(r) : "l"(g));',
     "__hip_atomic_load((const unsigned int*)(g), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM)"),
    ('asm volatile("ld.acquire.cta.u16 %0, [%1];" : "=h"(h) : "l"(g));',
     "__hip_atomic_load((const unsigned short*)(g), __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_WORKGROUP)"),
    ('asm volatile("st.release.gpu.b32 [%0], %1;" :: "l"(g), "r"(n) : "memory");',
     "__hip_atomic_store((unsigned int*)(g), __builtin_bit_cast(unsigned int, n), __ATOMIC_RELEASE, "
     "__HIP_MEMORY_SCOPE_AGENT)"),
    ('asm volatile("st.gpu.relaxed.u64 [%0], %1;" :: "l"(g), "l"(q));',
     "__hip_atomic_store((unsigned long long*)(g), __builtin_bit_cast(unsigned long long, q), __ATOMIC_RELAXED, "
     "__HIP_MEMORY_SCOPE_AGENT)"),
    # a load that fetches memory again (.cv: cached lines are stale), and .volatile: C's volatile access
    ('asm volatile("ld.global.cv.u32 %0, [%1];" : "=r"(r) : "l"(g));',
     "r = __builtin_bit_cast(__typeof__(r), *(const volatile unsigned int*)(g))"),
    ('asm volatile("st.volatile.global.u32 [%0], %1;" :: "l"(g), "r"(n));',
     "(*(volatile unsigned int*)(g) = __builtin_bit_cast(unsigned int, n))"),
    # .weak is the default order: a plain access; a 16-bit plain load with a cache hint that changes no value
    ('asm volatile("ld.weak.global.b32 %0, [%1];" : "=r"(r) : "l"(g));',
     "r = __builtin_bit_cast(__typeof__(r), *((const unsigned int*)(g) + 0))"),
    ('asm volatile("ld.global.ca.u16 %0, [%1];" : "=h"(h) : "l"(g));',
     "h = __builtin_bit_cast(__typeof__(h), *(const unsigned short*)(g))"),
    ('asm volatile("fence.sc.gpu;" ::: "memory");', '__builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent")'),
    ('asm volatile("fence.acq_rel.cta;" ::: "memory");', '__builtin_amdgcn_fence(__ATOMIC_ACQ_REL, "workgroup")'),
    ('asm volatile("membar.sys;" ::: "memory");', '__builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "")'),
    ('asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(n));', "r = (31 - __clz((int)(n)))"),
    ('asm("bfind.u64 %0, %1;" : "=r"(r) : "l"(q));', "r = (63 - __clzll((long long)(q)))"),
]
KEPT = [
    'asm volatile("ld.relaxed.cluster.b32 %0, [%1];" : "=r"(r) : "l"(g));',  # a cluster: no AMD scope of it
    'asm volatile("ld.mmio.relaxed.sys.b32 %0, [%1];" : "=r"(r) : "l"(g));',  # memory-mapped I/O
    'asm volatile("ld.acquire.gpu.v2.b32 {%0, %1}, [%2];" : "=r"(r), "=r"(n) : "l"(g));',  # no ordered vector
    'asm volatile("ld.acquire.gpu.b32 %0, [%1];" : "=l"(q) : "l"(g));',  # a register of another width
    'asm volatile("st.release.gpu.b32 [%0], %1;" :: "r"(n), "r"(n));',  # an address that is no 64-bit register
    'asm("bfind.s32 %0, %1;" : "=r"(r) : "r"(n));',  # signed: the top bit unlike the sign
    'asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(n));',  # the shift amount, not the position
    'asm volatile("fence.proxy.alias;" ::: "memory");',
]


def _src(asm: str) -> str:
    return ("__device__ unsigned int f(unsigned int *g, unsigned int n) {\n"
            "    unsigned int r = 0; unsigned short h = 0; unsigned long long q = n;\n"
            f"    {asm}\n    return r + n + h + (unsigned int)q;\n}}\n"
            "__global__ void k(unsigned int* o) { o[0] = f(o, o[1]); }\n")


@pytest.mark.parametrize("asm, spelled", PORTED)
def test_an_ordered_access_is_the_atomic_of_its_order_and_scope(asm, spelled):
    port, text = translate(SourceFile.from_text(_src(asm), "p.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert spelled in text and "asm" not in text.split("__device__", 1)[1], text


def test_every_ported_form_compiles_with_hipcc(tmp_path):
    body = "\n    ".join(a for a, _ in PORTED)
    port, text = translate(SourceFile.from_text(_src(body), "p.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    hip_compiles(tmp_path, text)


@pytest.mark.parametrize("asm", KEPT)
def test_a_look_alike_stays_kp201_at_its_line(asm):
    port, _ = translate(SourceFile.from_text(_src(asm), "p.cu"), "hip")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP201", 3)], \
        [d.format() for d in port.diagnostics]


def test_metal_spells_none_of_them():
    for asm, _ in PORTED[:3]:
        assert ptx_idioms.port(asm.rstrip(";"), "metal", True) is None
