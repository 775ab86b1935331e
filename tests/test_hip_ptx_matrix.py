"""The HIP port's inline-PTX mma.sync / ldmatrix (kernelport/ptx_matrix.py, backends/hip_ptx_matrix.py):
PTX documents each lane's part of the fragments, so the port reproduces it over logical 32-lane warps
(width-32 shuffles, LDS loads).  A kernel using them ports and compiles for gfx90a (wave 64) and gfx1030
(wave 32), keeps CUDA's 32-lane warp arithmetic; other shapes, types and addresses stay KP201 at their
line.  The polyfill is checked on the host against a plain GEMM, 64 lanes (two warps of one wave) run
as threads in lockstep at each shuffle, with HIP's `__shfl` and `__lane_id` semantics."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

GEMM = """\
#include <cuda_fp16.h>
#include <cstdint>
__device__ unsigned int smem_addr(const void* p) {
    unsigned int a;
    asm("{ .reg .u64 smem_ptr; cvta.to.shared.u64 smem_ptr, %1; cvt.u32.u64 %0, smem_ptr; }\\n" : "=r"(a) : "l"(p));
    return a;
}
__device__ void load_a(unsigned int* frag, const half* sa, int lane) {
    unsigned int smem_ptr;
    const half* ptr = sa + (lane % 16) * 16 + (lane / 16) * 8;
    asm("{ .reg .u64 smem_ptr; cvta.to.shared.u64 smem_ptr, %1; cvt.u32.u64 %0, smem_ptr; }\\n"
        : "=r"(smem_ptr) : "l"(ptr));
    asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\\n"
                 : "=r"(frag[0]), "=r"(frag[1]), "=r"(frag[2]), "=r"(frag[3]) : "r"(smem_ptr));
}
__device__ void load_b(unsigned int* frag, const half* sb, int lane) {
    unsigned int smem_ptr;
    const half* ptr = sb + (lane % 16) * 8;
    asm("{ .reg .u64 smem_ptr; cvta.to.shared.u64 smem_ptr, %1; cvt.u32.u64 %0, smem_ptr; }\\n"
        : "=r"(smem_ptr) : "l"(ptr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\\n"
                 : "=r"(frag[0]), "=r"(frag[1]) : "r"(smem_ptr));
}
__device__ void mma(unsigned int* a, unsigned int* b, float* acc) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\\n"
                 : "=f"(acc[0]), "=f"(acc[1]), "=f"(acc[2]), "=f"(acc[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]),
                   "f"(acc[0]), "f"(acc[1]), "f"(acc[2]), "f"(acc[3]));
}
__device__ void mma8(unsigned int* a, unsigned int* b, float* acc) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]));
}
// C (16 x 8 per warp) = A (16 x K, row-major) * B (K x 8, row-major), K a multiple of 16; each warp sums its tile
__global__ void gemm(const half* A, const half* B, float* C, float* sums, int K) {
    __shared__ half sa[4][16 * 16], sb[4][16 * 8];
    int warp = threadIdx.x / warpSize, lane = threadIdx.x % 32;
    unsigned int fa[4], fb[2];
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int k = 0; k < K; k += 16) {
        for (int i = lane; i < 16 * 16; i += 32) sa[warp][i] = A[(warp * 16 + i / 16) * K + k + i % 16];
        for (int i = lane; i < 16 * 8; i += 32) sb[warp][i] = B[(k + i / 8) * 8 + i % 8];
        __syncwarp();
        load_a(fa, sa[warp], lane);
        load_b(fb, sb[warp], lane);
        mma(fa, fb, acc);
        mma8(fa, fb, acc);
        __syncwarp();
    }
    float s = acc[0] + acc[1] + acc[2] + acc[3];
    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);
    if (lane == 0) sums[warp] = s;
    int g = lane / 4, t = lane % 4;
    C[(warp * 16 + g) * 8 + 2 * t] = acc[0];
    C[(warp * 16 + g) * 8 + 2 * t + 1] = acc[1];
    C[(warp * 16 + g + 8) * 8 + 2 * t] = acc[2];
    C[(warp * 16 + g + 8) * 8 + 2 * t + 1] = acc[3];
}
"""


def _port(code: str, backend: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), backend)


def _errors(port):
    return [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]


def test_a_gemm_of_ldmatrix_and_mma_sync_ports_and_compiles_for_cdna_and_rdna(tmp_path):
    from test_header_uses import _hipcc
    port, whole = _port(GEMM)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "kp_ldmatrix_x4(&frag[0], &frag[1], &frag[2], &frag[3], smem_ptr);" in whole, whole
    assert "kp_ldmatrix_x2_trans(&frag[0], &frag[1], smem_ptr);" in whole, whole
    assert "kp_mma_m16n8k16_f32_f16(&acc[0], &acc[1], &acc[2], &acc[3], a[0], a[1], a[2], a[3], b[0], b[1], " \
           "acc[0], acc[1], acc[2], acc[3]);" in whole, whole
    assert "kp_mma_m16n8k8_f32_f16(&acc[0], &acc[1], &acc[2], &acc[3], a[0], a[1], b[0], acc[0], acc[1], " \
           "acc[2], acc[3]);" in whole, whole
    assert "asm" not in whole[whole.index("__device__ unsigned int smem_addr"):], whole
    r = _hipcc(tmp_path, whole)
    assert r.returncode == 0, r.stderr[-3000:]


def test_a_kernel_using_mma_sync_keeps_cuda_s_32_lane_warps():
    """The fragments are spread over 32 lanes: the warp index, the lane and the shuffle's reach stay 32
    (at the wave width, two warps of a 64-lane wave would share one tile and sum two warps' tiles)."""
    port, whole = _port(GEMM)
    body = whole[whole.index("__global__"):]
    assert "threadIdx.x / 32," in body and "threadIdx.x % 32;" in body, body
    assert "__shfl_xor(s, o, 32)" in body and "warpSize" not in body, body


def test_the_same_kernel_without_the_matrix_instructions_reads_the_wave():  # look-alike: other PTX only
    code = GEMM.replace("        mma(fa, fb, acc);\n        mma8(fa, fb, acc);\n", "")
    code = code[:code.index("__device__ void load_a")] + code[code.index("// C (16 x 8"):]
    code = code.replace("        load_a(fa, sa[warp], lane);\n        load_b(fb, sb[warp], lane);\n",
                        "        acc[0] += smem_addr(sa[warp]);\n")
    port, whole = _port(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    body = whole[whole.index("__global__"):]
    assert "/ warpSize," in body and "__shfl_xor(s, o)" in body, body


def test_other_matrix_forms_stay_kp201_at_their_line():
    """An f16 accumulator, a row.row layout, an ldmatrix at a parameter's address (not shown to be an LDS
    offset) and two instructions in one statement are not FORMS: refused where they are."""
    for old, new, line in (
            ("row.col.f32.f16.f16.f32 \"", "row.col.f16.f16.f16.f16 \"", 25),
            ("m16n8k8.row.col", "m16n8k8.row.row", 32),
            ('"=r"(frag[1]) : "r"(smem_ptr));', '"=r"(frag[1]) : "r"((unsigned int)(size_t)sb));', 21),
            ("{%6}, {%0,%1,%2,%3};\"", "{%6}, {%0,%1,%2,%3}; mov.b32 %4, %4;\"", 32)):
        code = GEMM.replace(old, new, 1)
        assert code != GEMM, old
        port, _ = _port(code)
        assert _errors(port) == [("KP201", line)], (old, [d.format() for d in port.diagnostics])


# -- the polyfill's arithmetic on the host -------------------------------------------------------------
# 64 threads are the lanes of one 64-lane wave (two 32-lane warps, each with its own matrices); HIP's
# __shfl (index = src + (lane & ~(width - 1))) exchanges through a slot array between two barriers; LDS
# is one byte array, a shared-window address an offset into it.
_HOST = r"""
#include <barrier>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
#define __device__
static thread_local unsigned kp_lane;
static std::barrier<>* kp_bar;
static unsigned __lane_id() { return kp_lane; }
static unsigned char kp_lds[1 << 16];
static void* kp_shared_ptr(unsigned a) { return kp_lds + a; }
template <class T> static T __shfl(T v, int src, int width) {
    static T slot[64];
    slot[kp_lane] = v;
    kp_bar->arrive_and_wait();
    T r = slot[src + (int)(kp_lane & ~(unsigned)(width - 1))];
    kp_bar->arrive_and_wait();
    return r;
}
POLYFILL
static int failures = 0;
static unsigned short half_of(int v) {  // a small integer's IEEE half
    if (v == 0) return 0;
    unsigned m = v < 0 ? -v : v, e = 0;
    while ((m >> e) > 1) ++e;
    return (unsigned short)((v < 0 ? 0x8000u : 0u) | ((e + 15u) << 10) | ((m << (10 - e)) & 0x3ffu));
}
static void fail(const char* what, int w, int i, int j, double got, double want) {
    if (failures++ < 8) std::printf("%s warp %d: [%d][%d] = %g, want %g\n", what, w, i, j, got, want);
}
// One case per warp w of the wave: A (16 x K) row-major at LDS offset w * 4096, B (K x 8) row-major (trans:
// loaded with ldmatrix .trans) or column-major (8 x K rows, plain ldmatrix) at w * 4096 + 1024, C random;
// D = A * B + C from the fragments ldmatrix gives, against the plain sum; every register ldmatrix gives
// against PTX's map (lane l = 4g + t: row g's halves 2t, 2t+1; .trans: rows 2t, 2t+1's half g)
template <int K, bool TransB> static void check(const char* what) {
    int A[2][16][16], B[2][16][8], C[2][16][8];
    for (int w = 0; w < 2; ++w) {
        for (int i = 0; i < 16; ++i) for (int k = 0; k < K; ++k) A[w][i][k] = std::rand() % 9 - 4;
        for (int k = 0; k < K; ++k) for (int j = 0; j < 8; ++j) B[w][k][j] = std::rand() % 9 - 4;
        for (int i = 0; i < 16; ++i) for (int j = 0; j < 8; ++j) C[w][i][j] = std::rand() % 19 - 9;
        unsigned short* a = (unsigned short*)(kp_lds + w * 4096);
        unsigned short* b = (unsigned short*)(kp_lds + w * 4096 + 1024);
        for (int i = 0; i < 16; ++i) for (int k = 0; k < K; ++k) a[i * K + k] = half_of(A[w][i][k]);
        for (int k = 0; k < K; ++k) for (int j = 0; j < 8; ++j)
            (TransB ? b[k * 8 + j] : b[j * K + k]) = half_of(B[w][k][j]);
    }
    float D[2][16][8];
    std::barrier<> bar(64);
    kp_bar = &bar;
    std::vector<std::thread> lanes;
    for (unsigned l = 0; l < 64; ++l)
        lanes.emplace_back([&, l] {
            kp_lane = l;
            const int w = l / 32, r = l % 32, g = r / 4, t = r % 4;
            const unsigned base = w * 4096;
            unsigned a[4] = {0, 0, 0, 0}, b[2] = {0, 0};
            // A: matrices (rows 0-7 | 8-15) x (k 0-7 | 8-15) from the row addresses of lanes 0-15 | 16-31
            if (K == 16) kp_ldmatrix_x4(&a[0], &a[1], &a[2], &a[3], base + ((r % 16) * K + (r / 16) * 8) * 2);
            else kp_ldmatrix_x2(&a[0], &a[1], base + (r % 16) * K * 2);
            const unsigned pb = base + 1024 + (TransB ? (r % 16) * 8 * 2 : ((r % 8) * K + (r / 8) * 8) * 2);
            if (K == 16 && TransB) kp_ldmatrix_x2_trans(&b[0], &b[1], pb);
            else if (K == 16) kp_ldmatrix_x2(&b[0], &b[1], pb);
            else if (TransB) kp_ldmatrix_x1_trans(&b[0], pb);
            else kp_ldmatrix_x1(&b[0], pb);
            for (int q = 0; q < K / 4; ++q)  // a_q: rows g (+8 for odd q), k 2t (+8 for q >= 2)
                for (int h = 0; h < 2; ++h) {
                    const int i = g + 8 * (q & 1), k = 2 * t + 8 * (q >> 1) + h;
                    if (((a[q] >> (16 * h)) & 0xffffu) != half_of(A[w][i][k])) fail("ldmatrix A", w, i, k, 0, 1);
                }
            for (int q = 0; q < K / 8; ++q)  // b_q: k 2t (+8 for q = 1), column g
                for (int h = 0; h < 2; ++h) {
                    const int k = 2 * t + 8 * q + h;
                    if (((b[q] >> (16 * h)) & 0xffffu) != half_of(B[w][k][g])) fail("ldmatrix B", w, k, g, 0, 1);
                }
            float d[4];
            const float c0 = C[w][g][2 * t], c1 = C[w][g][2 * t + 1], c2 = C[w][g + 8][2 * t], c3 = C[w][g + 8][2 * t + 1];
            if (K == 16) kp_mma_m16n8k16_f32_f16(&d[0], &d[1], &d[2], &d[3], a[0], a[1], a[2], a[3], b[0], b[1], c0, c1, c2, c3);
            else kp_mma_m16n8k8_f32_f16(&d[0], &d[1], &d[2], &d[3], a[0], a[1], b[0], c0, c1, c2, c3);
            D[w][g][2 * t] = d[0]; D[w][g][2 * t + 1] = d[1]; D[w][g + 8][2 * t] = d[2]; D[w][g + 8][2 * t + 1] = d[3];
        });
    for (auto& th : lanes) th.join();
    for (int w = 0; w < 2; ++w)
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 8; ++j) {
                int want = C[w][i][j];
                for (int k = 0; k < K; ++k) want += A[w][i][k] * B[w][k][j];
                if (D[w][i][j] != (float)want) fail(what, w, i, j, D[w][i][j], want);
            }
}
int main() {
    check<16, true>("m16n8k16, B by ldmatrix .trans");
    check<16, false>("m16n8k16, B column-major");
    check<8, true>("m16n8k8, B by ldmatrix .trans");
    check<8, false>("m16n8k8, B column-major");
    std::printf("%d failures\n", failures);
    return failures != 0;
}
"""


def test_the_polyfill_computes_d_equals_a_b_plus_c_on_each_warp_of_a_64_lane_wave(tmp_path):
    from conftest import run_host_check
    from kernelport.backends.hip_ptx_matrix import POLYFILL
    run_host_check(tmp_path, "ptx_matrix_host", _HOST.replace("POLYFILL", POLYFILL))


def test_a_vote_in_an_mma_sync_kernel_is_refused_where_the_wave_holds_two_warps():
    """The kernel keeps 32-lane warps for its fragments: a ballot's mask at wave 64 would hold two of them."""
    code = GEMM.replace("if (lane == 0) sums[warp] = s;",
                        "unsigned m = __ballot_sync(0xffffffff, s > 0.0f);\n    if (lane == 0) sums[warp] = m;")
    port, _ = _port(code)
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert errors and {d.code for d in errors} == {"KP219"}, [d.format() for d in port.diagnostics]
    assert "`ldmatrix.sync.aligned.x4.m8n8.shared.b16` acts on a 32-lane warp" in errors[0].message, errors[0].format()
