"""Inline PTX's matrix instructions and asynchronous copies in the forms real code writes them
(kernelport/ptx_matrix.py, ptx_idioms.py; issue 11): ldmatrix's modifiers in any order (ptxas takes
`.x4.trans.m8n8`, `.trans.x4.m8n8`, `.aligned.sync` ...: checked with CUDA 13's ptxas) read as PTX's order,
mma's layouts and types positional (`.col.row` is another instruction); mma.sync operands that are
accessor expressions (`"+f"(c(0))`, `reinterpret_cast<float*>(&x)[k]`) bound once to a local reference,
as the asm evaluates each once; a cp.async whose size is a constant expression (`"n"(sizeof(T))`) at an
address from `__cvta_generic_to_shared` (cast to unsigned).  Each ports, compiles for gfx90a (wave 64)
and gfx1030 (wave 32), and keeps CUDA's 32-lane warps; the look-alikes stay KP201 at their line."""
from __future__ import annotations

import textwrap

from kernelport import ptx_matrix
from kernelport.source import SourceFile
from kernelport.translate import translate

SOURCE = """\
#include <cuda_fp16.h>
#include <cstdint>
struct Frag {
    float v[4];
    __device__ float& operator()(int i) { return v[i]; }
    __device__ const float& operator()(int i) const { return v[i]; }
};
struct Regs {
    uint32_t x[4];
    __device__ uint32_t operator()(int i) const { return x[i]; }
};
template <class T>
__device__ void copy16(T const& src, T& dst) {
    uint32_t smem = static_cast<unsigned>(__cvta_generic_to_shared(&dst));
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\\n" :: "r"(smem), "l"(&src), "n"(sizeof(T)));
}
__device__ void load_a(Regs& a, const half* p) {
    uint32_t addr = __cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a.x[0]), "=r"(a.x[1]), "=r"(a.x[2]), "=r"(a.x[3]) : "r"(addr));
}
__device__ void load_b(uint32_t* b, const half* p) {
    uint32_t addr = __cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.x2.trans.m8n8.shared.b16 {%0, %1}, [%2];"
                 : "=r"(reinterpret_cast<uint32_t*>(b)[0]), "=r"(reinterpret_cast<uint32_t*>(b)[1]) : "r"(addr));
}
template <class A, class B, class C>
__device__ void fma(A const& a, B const& b, C& c) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(c(0)), "+f"(c(1)), "+f"(c(2)), "+f"(c(3))
                 : "r"(a(0)), "r"(a(1)), "r"(a(2)), "r"(a(3)), "r"(reinterpret_cast<const uint32_t*>(b)[0]),
                   "r"(reinterpret_cast<const uint32_t*>(b)[1]));
}
__global__ void gemm(const half* A, const half* B, float* C, const float4* g) {
    __shared__ half sa[4][16 * 16], sb[4][16 * 8];
    __shared__ float4 staged[128];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    copy16(g[threadIdx.x], staged[threadIdx.x]);
    asm volatile("cp.async.wait_all;\\n" ::);
    for (int i = lane; i < 16 * 16; i += 32) sa[warp][i] = A[(warp * 16 + i / 16) * 16 + i % 16];
    for (int i = lane; i < 16 * 8; i += 32) sb[warp][i] = B[(i / 8) * 8 + i % 8];
    __syncwarp();
    Regs a;
    uint32_t b[2];
    Frag c = {{staged[lane].x, 0.0f, 0.0f, 0.0f}};
    load_a(a, sa[warp] + (lane % 16) * 16 + (lane / 16) * 8);
    load_b(b, sb[warp] + (lane % 16) * 8);
    fma(a, b, c);
    int g4 = lane / 4, t = lane % 4;
    C[(warp * 16 + g4) * 8 + 2 * t] = c(0);
    C[(warp * 16 + g4) * 8 + 2 * t + 1] = c(1);
    C[(warp * 16 + g4 + 8) * 8 + 2 * t] = c(2);
    C[(warp * 16 + g4 + 8) * 8 + 2 * t + 1] = c(3);
}
"""


def _port(code: str):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "hip")


def _errors(port):
    return [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]


def test_the_forms_port_as_the_polyfill_s_calls_and_compile_for_cdna_and_rdna(tmp_path):
    from test_header_uses import _hipcc
    port, whole = _port(SOURCE)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "kp_cp_async(smem, &src, sizeof(T), sizeof(T));" in whole, whole
    assert "kp_ldmatrix_x4(&a.x[0], &a.x[1], &a.x[2], &a.x[3], addr);" in whole, whole
    # .x2.trans.m8n8 is PTX's .m8n8.x2.trans: the transposing load, not the plain one
    assert "kp_ldmatrix_x2_trans(&reinterpret_cast<uint32_t*>(b)[0], &reinterpret_cast<uint32_t*>(b)[1], addr);" \
        in whole, whole
    # each "+f" accessor evaluated once (a reference), the inputs read as written
    assert "{ auto& kp_op0 = c(0); auto& kp_op1 = c(1); auto& kp_op2 = c(2); auto& kp_op3 = c(3); " \
           "kp_mma_m16n8k16_f32_f16(&kp_op0, &kp_op1, &kp_op2, &kp_op3, a(0), a(1), a(2), a(3), " \
           "reinterpret_cast<const uint32_t*>(b)[0], reinterpret_cast<const uint32_t*>(b)[1], " \
           "kp_op0, kp_op1, kp_op2, kp_op3); }" in whole, whole
    assert "asm" not in whole[whole.index("struct Frag"):], whole
    body = whole[whole.index("__global__"):]
    assert "threadIdx.x / 32," in body and "threadIdx.x % 32;" in body, body  # 32-lane warps kept
    r = _hipcc(tmp_path, whole)
    assert r.returncode == 0, r.stderr[-3000:]


def test_an_accessor_with_a_side_effect_is_evaluated_once():
    code = SOURCE.replace('"+f"(c(0)), "+f"(c(1)), "+f"(c(2)), "+f"(c(3))',
                          '"+f"(c(i++)), "+f"(c(1)), "+f"(c(2)), "+f"(c(3))').replace(
        "__device__ void fma(A const& a, B const& b, C& c) {", "__device__ void fma(A const& a, B const& b, C& c) {\n    int i = 0;")
    port, whole = _port(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert whole.count("i++") == 1 and "auto& kp_op0 = c(i++);" in whole, whole


def test_an_output_accessor_that_returns_a_copy_fails_to_compile_as_with_nvcc(tmp_path):
    """Stop 65's review: `"+f"(c(0))` with `float operator()(int) const` (a copy) is no lvalue: nvcc stops
    ("expression must be a modifiable lvalue"); the port bound it `auto&& kp_op0 = c(0);` (the copy, whose
    write the call then dropped) and hipcc compiled it.  An output is bound `auto&`, which hipcc refuses to
    bind to a copy; an input read twice (`{%4, %4}` of `"r"(a(0))`) stays `auto&&` (a copy is a value)."""
    from test_header_uses import _hipcc
    code = SOURCE.replace("    __device__ float& operator()(int i) { return v[i]; }\n", "") \
        .replace("__device__ const float& operator()(int i) const { return v[i]; }",
                 "__device__ float operator()(int i) const { return v[i]; }") \
        .replace('"+f"(c(0)), "+f"(c(1)), "+f"(c(2)), "+f"(c(3))', '"+f"(c(0)), "+f"(c(1)), "+f"(c(2)), "+f"(c(3))') \
        .replace("C[(warp * 16 + g4) * 8 + 2 * t] = c(0);", "C[(warp * 16 + g4) * 8 + 2 * t] = c.v[0];")
    code = code.replace("{%8, %9}, {%0, %1, %2, %3};", "{%8, %8}, {%0, %1, %2, %3};").replace(
        ', "r"(reinterpret_cast<const uint32_t*>(b)[0]),\n                   "r"(reinterpret_cast<const uint32_t*>(b)[1]));',
        ', "r"(reinterpret_cast<const uint32_t*>(b)[0]));')
    port, whole = _port(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "auto& kp_op0 = c(0);" in whole and "auto&& kp_op4 = reinterpret_cast<const uint32_t*>(b)[0];" in whole, whole
    r = _hipcc(tmp_path, whole)
    assert r.returncode != 0 and "cannot bind to a temporary" in r.stderr, r.stderr[-3000:]


def test_one_text_in_two_operands_is_not_bound_once():
    """`"=f"(c(i++))` written and `"f"(c(i++))` read as two operands: the asm evaluates each (i moves
    twice); one binding would evaluate it once: refused (KP201) at the asm."""
    code = SOURCE.replace('"{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"',
                          '"{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %1, %2, %3};"').replace(
        '"+f"(c(0)), "+f"(c(1)), "+f"(c(2)), "+f"(c(3))', '"=f"(c(i++)), "+f"(c(1)), "+f"(c(2)), "+f"(c(3))').replace(
        '"r"(reinterpret_cast<const uint32_t*>(b)[1]));', '"r"(reinterpret_cast<const uint32_t*>(b)[1]), "f"(c(i++)));').replace(
        "__device__ void fma(A const& a, B const& b, C& c) {", "__device__ void fma(A const& a, B const& b, C& c) {\n    int i = 0;")
    assert code.count("c(i++)") == 2
    port, _ = _port(code)
    assert ("KP201", 30) in _errors(port), [d.format() for d in port.diagnostics]


def test_plain_operands_are_not_bound():  # look-alike: an element or a name is read twice as written
    port, whole = _port(SOURCE.replace('"+f"(c(0)), "+f"(c(1)), "+f"(c(2)), "+f"(c(3))',
                                       '"+f"(c.v[0]), "+f"(c.v[1]), "+f"(c.v[2]), "+f"(c.v[3])'))
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "kp_mma_m16n8k16_f32_f16(&c.v[0], &c.v[1], &c.v[2], &c.v[3], a(0)," in whole and "kp_op" not in whole, whole


def test_look_alikes_stay_kp201_at_their_line():
    """A layout swapped (`.col.row`: A column-major, another instruction), a duplicated modifier, a
    cp.async size that is a register (not a constant expression: CUDA's "n" asks for one), an ldmatrix
    address that is a parameter (not shown to be an LDS offset)."""
    for old, new, line in (
            ("m16n8k16.row.col.f32", "m16n8k16.col.row.f32", 29),
            (".x2.trans.m8n8.shared", ".x2.trans.trans.m8n8.shared", 24),
            ('"n"(sizeof(T))', '"r"((unsigned)sizeof(T))', 15),
            ('"r"(addr));\n}\n__device__ void load_b', '"r"((uint32_t)(size_t)p));\n}\n__device__ void load_b', 19)):
        code = SOURCE.replace(old, new, 1)
        assert code != SOURCE, old
        port, _ = _port(code)
        assert ("KP201", line) in _errors(port), (old, [d.format() for d in port.diagnostics])


def test_modifiers_read_in_ptx_s_order():
    assert ptx_matrix.canonical("ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16") == \
        "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"
    assert ptx_matrix.canonical("ldmatrix.aligned.sync.trans.x2.m8n8.b16.shared::cta") == \
        "ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16"
    assert ptx_matrix.canonical("mma.aligned.sync.row.m16n8k16.col.f32.f16.f16.f32") == \
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
    # positional: the layouts' and the types' order among themselves kept
    assert ptx_matrix.canonical("mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32").endswith("col.row.f32.f16.f16.f32")
    assert ptx_matrix.canonical("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32").endswith("f16.f16.f16.f32")
    # an unknown modifier: as written (no FORMS row matches it)
    assert ptx_matrix.canonical("ldmatrix.sync.aligned.m8n8.x4.shared.b8x16.b6x16_p32") == \
        "ldmatrix.sync.aligned.m8n8.x4.shared.b8x16.b6x16_p32"
