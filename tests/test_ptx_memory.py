"""Inline PTX's memory and clock forms in HIP ports (kernelport/ptx_idioms.py, issue 11: the held-out
microbenchmarks stop at KP201 on them): global loads and stores with a cache hint that changes no value
(`ld.global.{ca,cg,nc}`, `st.global.{wb,cg}`: plain accesses) or the streaming one (`.cs`: clang's
nontemporal access), scalar and `.v2`/`.v4`; `ld.shared`/`st.shared` at a shared-window address the
function computes with cvta.to.shared; `mov.u32 d, %clock` / `mov.u64 d, %clock64` (clock64());
`bar.sync 0` (__syncthreads()); a "memory" clobber (a compiler fence on both sides); the signed
`add/sub/mad.lo.s32` (the unsigned form's bits).  The ports compile with hipcc for gfx90a and gfx1030,
the accesses' spellings are run on the host against what the instruction reads and writes, and the
forms whose meaning is not pinned down stay KP201 at their line."""
from __future__ import annotations

import os
import random
import re
import subprocess

import pytest

from kernelport import dialect
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, gfx90a_assembly, require_tool
from port_support import ported

# modelled on the microbenchmarks' forms (a streaming vector copy, a pointer chase through .nc loads
# timed with %clock between barriers, a register scope summing a .cg load, LDS at a cvta address)
SOURCE = r"""#include <cstdint>
__device__ __forceinline__ uint4 ldg_cs(const void *ptr) {
    uint4 ret;
    asm volatile ("ld.global.cs.v4.b32 {%0, %1, %2, %3}, [%4];"
        : "=r"(ret.x), "=r"(ret.y), "=r"(ret.z), "=r"(ret.w) : "l"(ptr));
    return ret;
}
__device__ __forceinline__ void stg_cs(const uint4 &reg, void *ptr) {
    asm volatile ("st.global.cs.v4.b32 [%4], {%0, %1, %2, %3};"
        : : "r"(reg.x), "r"(reg.y), "r"(reg.z), "r"(reg.w), "l"(ptr));
}
__device__ int ldg_cg(const void *ptr) {
    int ret;
    asm volatile ("ld.global.cg.b32 %0, [%1];" : "=r"(ret) : "l"(ptr));
    return ret;
}
__global__ void k(void **ptr, const int *x, uint4 *y, uint32_t *clk, int *out) {
    void **p = ptr + threadIdx.x;
    uint32_t start, stop;
    int sum = 0;
    asm volatile ("bar.sync 0;\n" "mov.u32 %0, %%clock;\n" : "=r"(start) : : "memory");
    for (int i = 0; i < 4; ++i) {
        asm volatile ("ld.global.nc.b64 %0, [%0];\n" : "+l"(p) : : "memory");
        asm volatile ("{.reg .s32 val;\n ld.global.cg.b32 val, [%1];\n add.s32 %0, val, %0;}\n" : "+r"(sum) : "l"(x + i));
    }
    unsigned long long t;
    asm volatile ("mov.u64 %0, %%clock64;" : "=l"(t));
    asm volatile ("bar.sync 0;\n" "mov.u32 %0, %%clock;\n" : "=r"(stop) : : "memory");
    stg_cs(ldg_cs(y + threadIdx.x), y + threadIdx.x + 64);
    clk[threadIdx.x] = stop - start + (uint32_t)t;
    out[threadIdx.x] = sum + ldg_cg(x) + (p == nullptr);
}
__global__ void lds(const uint32_t *in, uint32_t *out) {
    __shared__ uint32_t smem[256];
    uint32_t smem_addr;
    smem[threadIdx.x] = in[threadIdx.x];
    asm volatile ("{.reg .u64 u64addr;\n cvta.to.shared.u64 u64addr, %1;\n cvt.u32.u64 %0, u64addr;}\n"
        : "=r"(smem_addr) : "l"(smem + (threadIdx.x & ~3u)));
    __syncthreads();
    uint32_t a, b, c, d;
    asm volatile ("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(smem_addr) : "memory");
    asm volatile ("bar.sync 0;" ::: "memory");
    asm volatile ("st.shared.b32 [%0], %1;" : : "r"(smem_addr + 4), "r"(a + b + c + d) : "memory");
    __syncthreads();
    out[threadIdx.x] = smem[threadIdx.x];
}
__device__ float ldg_f(const float *p) {
    float v;
    asm volatile ("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}
__device__ void stg_fd(float a, double b, void *p) {
    asm volatile ("st.global.v2.f32 [%0], {%1, %1};" :: "l"(p), "f"(a));
    asm volatile ("st.global.f64 [%0], %1;" :: "l"((char *)p + 8), "d"(b));
}
__global__ void floats(const float *x, void *y) { stg_fd(ldg_f(x), 2.0 * ldg_f(x + 1), y); }
"""


def test_the_forms_port_to_accesses_clock_and_barrier():
    port, _ = ported(SOURCE, "m.cu", dedent=False)
    lines = [ln.strip() for ln in port.body.splitlines()]
    fence = "__atomic_signal_fence(__ATOMIC_SEQ_CST)"
    nt = "__builtin_nontemporal_load((const unsigned int*)(ptr) + {})"
    assert lines[3] == ", ".join(f"ret.{c} = __builtin_bit_cast(__typeof__(ret.{c}), {nt.format(i)})"
                                 for i, c in enumerate("xyzw")) + ";"
    assert lines[7] == ", ".join(f"__builtin_nontemporal_store(__builtin_bit_cast(unsigned int, reg.{c}), "
                                 f"(unsigned int*)(ptr) + {i})" for i, c in enumerate("xyzw")) + ";"
    assert lines[11] == "ret = __builtin_bit_cast(__typeof__(ret), *((const unsigned int*)(ptr) + 0));"
    assert lines[18] == f"{fence}, __syncthreads(), start = ((unsigned int)clock64()), {fence};"
    # the pointer chase: the loaded 64 bits are the pointer's (a bit cast, not a conversion)
    assert lines[20] == f"{fence}, p = __builtin_bit_cast(__typeof__(p), *((const unsigned long long*)(p) + 0)), {fence};"
    assert lines[21] == ("{ unsigned int kp_ptx_val; kp_ptx_val = __builtin_bit_cast(__typeof__(kp_ptx_val), "
                         "*((const unsigned int*)(x + i) + 0)), sum = ((unsigned int)((unsigned int)(kp_ptx_val) + "
                         "(unsigned int)(sum) + (unsigned int)(0))); }")
    assert lines[24] == "t = ((unsigned long long)clock64());"
    assert f"{fence}, a = __builtin_bit_cast(__typeof__(a), *((const unsigned int*)kp_shared_ptr(smem_addr) + 0)), " \
           "b = " in lines[37]
    assert lines[38] == f"{fence}, __syncthreads(), {fence};"
    assert lines[39] == (f"{fence}, (*((unsigned int*)kp_shared_ptr(smem_addr + 4) + 0) = "
                         f"__builtin_bit_cast(unsigned int, a + b + c + d)), {fence};")
    # .f32 / .f64 words: a float's bits, through its own type (no conversion)
    assert lines[45] == "v = __builtin_bit_cast(__typeof__(v), *((const unsigned int*)(p) + 0));"
    assert lines[49] == ("(*((unsigned int*)(p) + 0) = __builtin_bit_cast(unsigned int, a)), "
                         "(*((unsigned int*)(p) + 1) = __builtin_bit_cast(unsigned int, a));")
    assert lines[50] == "(*((unsigned long long*)((char *)p + 8) + 0) = __builtin_bit_cast(unsigned long long, b));"


def test_the_ports_compile_for_gfx90a_and_gfx1030_and_address_lds(tmp_path):
    """hipcc for both targets; on gfx90a the shared accesses are LDS instructions, the streaming ones
    nontemporal (gfx90a: `nt`... spelled `slc` on global loads) and %clock reads the cycle counter."""
    require_tool("hipcc")
    _, text = ported(SOURCE, "m.cu", dedent=False)
    f = tmp_path / "m.hip"
    f.write_text(text)
    assert_hip_file_compiles(f)  # against the session's PCH, as verify compiles a port
    asm = gfx90a_assembly(f)
    lds = asm[asm.index("_Z3ldsPKjPj:"):]
    lds = lds[:lds.index("s_endpgm")]
    assert "ds_read_b128" in lds and "ds_write_b32" in lds and "flat_" not in lds, lds
    k = asm[asm.index("_Z1kPPvPKiP15HIP_vector_typeIjLj4EEPjPi:"):]
    k = k[:k.index("s_endpgm")]
    assert "s_memtime" in k or "s_getreg" in k, k
    assert re.search(r"global_load_dwordx4 .* slc", k) and re.search(r"global_store_dwordx4 .* slc", k), k


def test_the_access_spellings_read_and_write_the_words(tmp_path):
    """Each global load / store spelling (plain and streaming, 32 and 64 bits, word i of a vector) run
    on the host: word i at the address, its bits as the operand's type (a signed int, a pointer)."""
    require_tool("hipcc")
    rng = random.Random("ptx memory")
    words = [rng.getrandbits(32) for _ in range(8)]
    checks = []
    for h in ("", "_cs"):
        for i in range(4):
            ld32 = dialect.render(dialect.concept(f"ptx_ld_global{h}_b32_{i}"), "hip", {"out": "r32", "p": "buf"})
            ld64 = dialect.render(dialect.concept(f"ptx_ld_global{h}_b64_{i}"), "hip", {"out": "pp", "p": "buf"})
            st32 = dialect.render(dialect.concept(f"ptx_st_global{h}_b32_{i}"), "hip", {"p": "dst", "x": "s32"})
            st64 = dialect.render(dialect.concept(f"ptx_st_global{h}_b64_{i}"), "hip", {"p": "dst", "x": "pp"})
            ldf = dialect.render(dialect.concept(f"ptx_ld_global{h}_b32_{i}"), "hip", {"out": "rf", "p": "buf"})
            stf = dialect.render(dialect.concept(f"ptx_st_global{h}_b32_{i}"), "hip", {"p": "dst + 4", "x": "fl"})
            checks.append(f"r32 = {ld32}; pp = {ld64}; rf = {ldf}; memcpy(&bits, &rf, 4);"
                          f" printf(\"%d %llu %u \", r32, (unsigned long long)pp, bits);"
                          f" clear(); {st32}; {st64}; {stf}; dump();")
    c = tmp_path / "acc.cpp"
    c.write_text("#include <cstdio>\n#include <cstring>\n"
                 f"static unsigned int buf[8] = {{{', '.join(f'{w}u' for w in words)}}};\n"
                 "static unsigned int dst[12];\n"
                 "static void clear() { memset(dst, 0, sizeof dst); }\n"
                 "static void dump() { for (int j = 0; j < 12; ++j) printf(\"%u \", dst[j]); printf(\"\\n\"); }\n"
                 "int main() { int r32; void *pp; int s32 = -7; float rf, fl = -1.5f; unsigned int bits;\n" + "\n".join(checks) + "\n return 0; }\n")
    exe = tmp_path / "acc"
    b = subprocess.run(["hipcc", "-x", "c++", "-std=c++17", "-O1", "-o", str(exe), str(c)], capture_output=True,
                       text=True, env={**os.environ, "HIP_PLATFORM": "amd"})
    assert b.returncode == 0, b.stderr[-2000:]
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(out) == 8
    for n, line in enumerate(out):
        i = n % 4
        v = [int(t) for t in line.split()]
        w32 = words[i]
        assert v[0] == (w32 - (1 << 32) if w32 >> 31 else w32)  # the word's bits as an int
        assert v[1] == words[2 * i] | words[2 * i + 1] << 32  # 64-bit word i, as a pointer
        assert v[2] == w32  # word i's bits as a float
        want = [0] * 12
        # the 32-bit store of -7 at word i, then the 64-bit store of the pointer at 64-bit word i
        want[i] = (1 << 32) - 7
        want[2 * i], want[2 * i + 1] = v[1] & 0xffffffff, v[1] >> 32
        want[4 + i] = 0xbfc00000  # -1.5f's bits at word i past dst + 4 (after the others: it may overwrite them)
        assert v[3:] == want, (n, line)


@pytest.mark.parametrize("asm, why", [
    # (the scalar `.cv`, re-fetched for a poll, is a volatile load since h/heldout35: tests/test_ptx_ordered.py)
    ('asm volatile("ld.global.cv.v2.u32 {%0, %1}, [%2];" : "=r"(r), "=r"(a) : "l"(g));', ""),  # a volatile vector
    ('asm volatile("ld.global.lu.b32 %0, [%1];" : "=r"(r) : "l"(g));', ""),  # last use: the line may be dropped
    ('asm volatile("ld.global.nc.L2::cache_hint.b32 %0, [%1], %2;" : "=r"(r) : "l"(g), "l"(q));', ""),  # a cache policy
    # (a prefetch-size qualifier, `.L2::128B`, is a hint: tests/test_ptx_guards.py ports it)
    ('asm volatile("ld.global.f16 %0, [%1];" : "=h"(h) : "l"(g));', ""),  # a half (no 16-bit form)
    ('asm volatile("ld.global.b32 %0, [%1+4];" : "=r"(r) : "l"(g));', ""),  # an address offset
    ('asm volatile("{.reg .pred p; setp.lt.f32 p, %2, %2; @p ld.global.nc.b32 %0, [%1];}" : "=r"(r) : "l"(g), "f"(f));',
     "`ld.global.nc.b32` runs under a predicate (`@p`)"),  # a load guarded by a comparison not ported (a float's;
    # integer setp guards are: tests/test_ptx_guards.py)
    ('asm volatile("ld.global.cg.b32 %0, [%1];" : "=r"(r) : "l"(g) : "cc");', ""),  # another clobber
    ('asm volatile("mov.u32 %0, %%clock64;" : "=r"(r));', ""),  # a 64-bit counter in a 32-bit register
    ('asm volatile("bar.sync 1;" ::: "memory");', ""),  # a named barrier
    ('asm volatile("bar.sync 0, 64;" ::: "memory");', ""),  # a thread count
    ('asm volatile("mad.hi.s32 %0, %1, %1, %0;" : "+r"(r) : "r"(n));', ""),  # a signed high half
    # the second word's address is the first word's output: PTX reads it before either is written
    ('asm volatile("ld.global.v2.u64 {%0, %1}, [%0];" : "+l"(q), "=l"(w));', ""),
    ('asm volatile("ld.shared.b32 %0, [%1];" : "=r"(r) : "r"(a));', "a parameter"),
    ('asm volatile("ld.shared.b32 %0, [%0];" : "+r"(n) : : "memory");', "loaded from memory"),
])
def test_a_look_alike_stays_kp201_at_its_line(asm, why):
    src = ("__device__ unsigned int f(const unsigned int *g, unsigned int a, unsigned int n) {\n"
           "    unsigned int r = 0; float f = 0; unsigned short h = 0;\n"
           "    unsigned long long q = (unsigned long long)g, w = 0;\n"
           f"    {asm}\n    return r + n + (unsigned int)f + h + (unsigned int)(q + w);\n}}\n"
           "__global__ void k(unsigned int* o) { o[0] = f(o, o[1], o[2]); }\n")
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert [(d.code, d.location.line, d.location.column) for d in errors] == [("KP201", 4, 5)], \
        [d.format() for d in errors]
    assert why in errors[0].message
