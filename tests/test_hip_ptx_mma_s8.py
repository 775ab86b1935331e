"""The HIP port's integer inline-PTX mma.sync (kernelport/ptx_matrix.py's `m16n8k32|m16n8k16 .row.col.s32.s8.s8.s32`,
backends/hip_ptx_matrix.py; heldout96: llama.cpp-style quantised GEMM tests stopped at KP201 on them): a kernel
ports, keeps CUDA's 32-lane warps and compiles for gfx90a and gfx1030; the polyfill, run on the host with 64 lanes
(two warps of one wave) in lockstep, gives D = A * B + C exactly, fragments laid out as PTX documents them
(signed bytes, the sums wrapping in 32 bits).  Unsigned bytes, .satfinite and another shape stay KP201 at their line."""
from __future__ import annotations

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_hip_ptx_matrix import _HOST as _F16_HOST

_LANES = _F16_HOST[:_F16_HOST.index("POLYFILL")]

KERNEL = """\
__global__ void k(const int* w, const int* x, int* out, int* sums) {
    int warp = threadIdx.x / warpSize, lane = threadIdx.x % 32, gid = lane / 4, tid = lane % 4;
    const int* a = w + warp * 512 + gid * 8 + tid;
    int c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
        : "=r"(c0), "=r"(c1), "=r"(c2), "=r"(c3)
        : "r"(a[0]), "r"(a[64]), "r"(a[4]), "r"(a[68]), "r"(x[lane]), "r"(x[lane + 32]),
          "r"(0), "r"(0), "r"(0), "r"(0));
    asm("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
        : "+r"(c0), "+r"(c1), "+r"(c2), "+r"(c3) : "r"(a[0]), "r"(a[64]), "r"(x[lane]));
    int s = c0 + c1 + c2 + c3;
    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);
    if (lane == 0) sums[warp] = s;
    out[threadIdx.x] = c0;
}
"""


def _port(code: str, backend: str = "hip"):
    return translate(SourceFile.from_text(code, "t.cu"), backend)


def test_an_integer_mma_kernel_ports_with_32_lane_warps_and_compiles(tmp_path):
    from test_header_uses import _hipcc
    port, whole = _port(KERNEL)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert ("kp_mma_m16n8k32_s32_s8(&c0, &c1, &c2, &c3, a[0], a[64], a[4], a[68], x[lane], x[lane + 32], 0, 0, 0, 0);"
            in whole), whole
    assert "kp_mma_m16n8k16_s32_s8(&c0, &c1, &c2, &c3, a[0], a[64], x[lane], c0, c1, c2, c3);" in whole, whole
    body = whole[whole.index("__global__"):]
    assert "threadIdx.x / 32," in body and "__shfl_xor(s, o, 32)" in body and "warpSize" not in body, body
    r = _hipcc(tmp_path, whole)
    assert r.returncode == 0, r.stderr[-3000:]


@pytest.mark.parametrize("old, new", [
    ("m16n8k32.row.col.s32.s8.s8.s32", "m16n8k32.row.col.s32.u8.u8.s32"),  # unsigned bytes
    ("m16n8k32.row.col.s32.s8.s8.s32", "m16n8k32.row.col.satfinite.s32.s8.s8.s32"),  # saturating sums
    ("m16n8k32.row.col.s32.s8.s8.s32", "m16n8k64.row.col.s32.s4.s4.s32"),  # another shape and type
    ('"=r"(c0), "=r"(c1)', '"=f"(c0), "=r"(c1)'),  # a float register for an s32 accumulator
])
def test_another_integer_form_stays_kp201_at_its_line(old, new):
    code = KERNEL.replace(old, new, 1)
    assert code != KERNEL
    port, _ = _port(code)
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP201", 5)], new


# 64 threads are the lanes of one 64-lane wave (two 32-lane warps, each with its own matrices); HIP's __shfl
# (index = src + (lane & ~(width - 1))) exchanges through a slot array between two barriers.  Each lane builds
# its fragments from A (16 x K, row-major) and B (K x 8) as PTX documents them: a0 = A[g][4t..4t+3],
# a1 = A[g+8][4t..], a2 = A[g][4t+16..], a3 = A[g+8][4t+16..], b0 = B[4t..4t+3][g], b1 = B[4t+16..][g], the
# lowest k in the low byte; c0, c1 = C[g][2t, 2t+1], c2, c3 = C[g+8][2t, 2t+1].
# the lanes, barrier and __shfl of test_hip_ptx_matrix's host harness, then this check
_HOST = _LANES + r"""
#include <climits>
#include <cstring>
POLYFILL
static int failures = 0;
static unsigned bytes4(const int* v) {  // four signed bytes, the first in the low byte
    unsigned r = 0;
    for (int j = 0; j < 4; ++j) r |= (unsigned)(unsigned char)(signed char)v[j] << (8 * j);
    return r;
}
template <int K> static void check(const char* what, bool big) {
    static int A[2][16][32], Bt[2][8][32], C[2][16][8];  // Bt: B's columns, k contiguous
    for (int w = 0; w < 2; ++w) {
        for (int i = 0; i < 16; ++i) for (int k = 0; k < K; ++k) A[w][i][k] = std::rand() % 256 - 128;
        for (int j = 0; j < 8; ++j) for (int k = 0; k < K; ++k) Bt[w][j][k] = std::rand() % 256 - 128;
        for (int i = 0; i < 16; ++i) for (int j = 0; j < 8; ++j)
            C[w][i][j] = big ? INT_MAX - std::rand() % 1000 : std::rand() % 20001 - 10000;  // big: the sums wrap
    }
    int D[2][16][8];
    std::barrier<> bar(64);
    kp_bar = &bar;
    std::vector<std::thread> lanes;
    for (unsigned l = 0; l < 64; ++l)
        lanes.emplace_back([&, l] {
            kp_lane = l;
            const int w = l / 32, r = l % 32, g = r / 4, t = r % 4;
            const unsigned a0 = bytes4(&A[w][g][4 * t]), a1 = bytes4(&A[w][g + 8][4 * t]);
            const unsigned a2 = K == 32 ? bytes4(&A[w][g][4 * t + 16]) : 0u;
            const unsigned a3 = K == 32 ? bytes4(&A[w][g + 8][4 * t + 16]) : 0u;
            const unsigned b0 = bytes4(&Bt[w][g][4 * t]), b1 = K == 32 ? bytes4(&Bt[w][g][4 * t + 16]) : 0u;
            int d[4];
            const int c0 = C[w][g][2 * t], c1 = C[w][g][2 * t + 1], c2 = C[w][g + 8][2 * t], c3 = C[w][g + 8][2 * t + 1];
            if (K == 32) kp_mma_m16n8k32_s32_s8(&d[0], &d[1], &d[2], &d[3], a0, a1, a2, a3, b0, b1, c0, c1, c2, c3);
            else kp_mma_m16n8k16_s32_s8(&d[0], &d[1], &d[2], &d[3], a0, a1, b0, c0, c1, c2, c3);
            D[w][g][2 * t] = d[0]; D[w][g][2 * t + 1] = d[1]; D[w][g + 8][2 * t] = d[2]; D[w][g + 8][2 * t + 1] = d[3];
        });
    for (auto& th : lanes) th.join();
    for (int w = 0; w < 2; ++w)
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 8; ++j) {
                long long want = C[w][i][j];
                for (int k = 0; k < K; ++k) want += (long long)A[w][i][k] * Bt[w][j][k];
                const unsigned wrapped = (unsigned)(unsigned long long)want;
                int expect;
                std::memcpy(&expect, &wrapped, 4);
                if (D[w][i][j] != expect && failures++ < 8)
                    std::printf("%s warp %d: [%d][%d] = %d, want %d\n", what, w, i, j, D[w][i][j], expect);
            }
}
int main() {
    for (int rep = 0; rep < 3; ++rep) {
        check<32>("m16n8k32", false);
        check<16>("m16n8k16", false);
    }
    check<32>("m16n8k32 (wrapping)", true);
    check<16>("m16n8k16 (wrapping)", true);
    std::printf("%d failures\n", failures);
    return failures != 0;
}
"""


def test_the_polyfill_computes_d_equals_a_b_plus_c_on_each_warp_of_a_64_lane_wave(tmp_path):
    from conftest import run_host_check
    from kernelport.backends.hip_ptx_matrix import POLYFILL
    run_host_check(tmp_path, "ptx_mma_s8_host", _HOST.replace("POLYFILL", POLYFILL))
