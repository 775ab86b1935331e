"""The HIP port's inline-PTX ldmatrix / mma.sync (kernelport/backends/hip_ptx_matrix.py) against the real
instructions, on an NVIDIA GPU (sm_80+): the polyfill's text, in namespace `kpptx` with `__lane_id`
(%laneid), a width-32 `__shfl` (`__shfl_sync`) and `kp_shared_ptr` (cvta.shared: a shared-window address
as a generic pointer), is compiled with nvcc beside the PTX; one block of two warps, each with its own
A (16 x K, row-major), B (K x 8: row-major, read with ldmatrix .trans, or column-major, plain) and C in
shared memory, runs each case both ways (addresses from cvta.to.shared, as the census files compute them):
every lane's ldmatrix registers are compared bit for bit, D = A*B + C element by element.  The integer forms
(m16n8k32 / m16n8k16 s32 <- s8) run on random register bits per lane and random C (some near INT_MAX: the sums
wrap), D compared exactly.

    python3 bench/device/ptx_matrix_check.py [--compile-only] [--arch sm_90] [--out DIR]

Prints one line per case and `N mismatches`; exit status 0 only when every case matches (half inputs:
the products are exact in float, only the summation order may differ: |d| tolerance 1e-3 relative).
Reads the polyfill from the module file directly (no kernelport dependencies needed)."""
from __future__ import annotations

import argparse
import importlib.util
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]

PRELUDE = r"""
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_fp16.h>
namespace kpptx {
__device__ inline unsigned __lane_id() { unsigned l; asm volatile("mov.u32 %0, %%laneid;" : "=r"(l)); return l; }
template <class T> __device__ inline T __shfl(T v, int src, int width) { return __shfl_sync(0xffffffffu, v, src, width); }
__device__ inline void* kp_shared_ptr(unsigned a) {
    unsigned long long p; asm volatile("cvta.shared.u64 %0, %1;" : "=l"(p) : "l"((unsigned long long)a)); return (void*)p;
}
"""

KERNEL = r"""
}  // namespace kpptx
__device__ inline unsigned smem(const void* p) {
    unsigned a;
    asm("{ .reg .u64 smem_ptr; cvta.to.shared.u64 smem_ptr, %1; cvt.u32.u64 %0, smem_ptr; }\n" : "=r"(a) : "l"(p));
    return a;
}
// regs[thread][0..3] = A's registers, [4..5] B's; D[warp][16][8]
template <int K, bool TransB, bool KP>
__global__ void run_case(const __half* A, const __half* B, const float* C, unsigned* regs, float* D) {
    __shared__ __half sa[2][16 * 16], sb[2][16 * 8];
    const int w = threadIdx.x / 32, l = threadIdx.x % 32, g = l / 4, t = l % 4;
    for (int i = l; i < 16 * K; i += 32) sa[w][i] = A[w * 256 + i];
    for (int i = l; i < K * 8; i += 32) sb[w][i] = B[w * 128 + i];
    __syncwarp();
    unsigned a[4] = {0, 0, 0, 0}, b[2] = {0, 0};
    const unsigned pa = K == 16 ? smem(&sa[w][(l % 16) * K + (l / 16) * 8]) : smem(&sa[w][(l % 16) * K]);
    const unsigned pb = TransB ? smem(&sb[w][(l % 16) * 8]) : smem(&sb[w][(l % 8) * K + (l / 8) % 2 * 8]);
    const float* c = C + w * 128;
    float d[4] = {c[g * 8 + 2 * t], c[g * 8 + 2 * t + 1], c[(g + 8) * 8 + 2 * t], c[(g + 8) * 8 + 2 * t + 1]};
    if (KP) {
        using namespace kpptx;
        if (K == 16) kp_ldmatrix_x4(&a[0], &a[1], &a[2], &a[3], pa); else kp_ldmatrix_x2(&a[0], &a[1], pa);
        if (K == 16 && TransB) kp_ldmatrix_x2_trans(&b[0], &b[1], pb);
        else if (K == 16) kp_ldmatrix_x2(&b[0], &b[1], pb);
        else if (TransB) kp_ldmatrix_x1_trans(&b[0], pb);
        else kp_ldmatrix_x1(&b[0], pb);
        if (K == 16) kp_mma_m16n8k16_f32_f16(&d[0], &d[1], &d[2], &d[3], a[0], a[1], a[2], a[3], b[0], b[1], d[0], d[1], d[2], d[3]);
        else kp_mma_m16n8k8_f32_f16(&d[0], &d[1], &d[2], &d[3], a[0], a[1], b[0], d[0], d[1], d[2], d[3]);
    } else {
        if (K == 16) asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                                  : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(pa));
        else asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n" : "=r"(a[0]), "=r"(a[1]) : "r"(pa));
        if (K == 16 && TransB)
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n" : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
        else if (K == 16)
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n" : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
        else if (TransB) asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n" : "=r"(b[0]) : "r"(pb));
        else asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(b[0]) : "r"(pb));
        if (K == 16)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                         "{%8, %9}, {%0, %1, %2, %3};\n" : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        else
            asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                         "{%0, %1, %2, %3};\n" : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                         : "r"(a[0]), "r"(a[1]), "r"(b[0]));
    }
    for (int i = 0; i < 4; ++i) regs[threadIdx.x * 6 + i] = a[i];
    for (int i = 0; i < 2; ++i) regs[threadIdx.x * 6 + 4 + i] = b[i];
    float* o = D + w * 128;
    o[g * 8 + 2 * t] = d[0]; o[g * 8 + 2 * t + 1] = d[1]; o[(g + 8) * 8 + 2 * t] = d[2]; o[(g + 8) * 8 + 2 * t + 1] = d[3];
}

// the integer forms: every lane's registers random bits (any layout the polyfill misread would show), C random, some
// near INT_MAX (the sums wrap); D compared exactly
template <int K, bool KP> __global__ void run_s8(const unsigned* regs, const int* C, int* D) {
    const unsigned* r = regs + threadIdx.x * 6;
    int d[4] = {C[threadIdx.x * 4], C[threadIdx.x * 4 + 1], C[threadIdx.x * 4 + 2], C[threadIdx.x * 4 + 3]};
    if (KP) {
        using namespace kpptx;
        if (K == 32) kp_mma_m16n8k32_s32_s8(&d[0], &d[1], &d[2], &d[3], r[0], r[1], r[2], r[3], r[4], r[5], d[0], d[1], d[2], d[3]);
        else kp_mma_m16n8k16_s32_s8(&d[0], &d[1], &d[2], &d[3], r[0], r[1], r[4], d[0], d[1], d[2], d[3]);
    } else if (K == 32) {
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                     "{%0, %1, %2, %3};\n" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                     : "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]));
    } else {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                     "{%0, %1, %2, %3};\n" : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(r[0]), "r"(r[1]), "r"(r[4]));
    }
    for (int i = 0; i < 4; ++i) D[threadIdx.x * 4 + i] = d[i];
}

static int mismatches = 0;
template <int K> static void check_s8(const char* what) {
    std::vector<unsigned> regs(64 * 6);
    std::vector<int> c(64 * 4), d[2];
    for (auto& v : regs) v = ((unsigned)std::rand() << 16) ^ (unsigned)std::rand();
    for (size_t i = 0; i < c.size(); ++i) c[i] = i % 5 == 0 ? 2147483647 - std::rand() % 1000 : std::rand() % 20001 - 10000;
    unsigned* dR; int *dC, *dD;
    cudaMalloc(&dR, regs.size() * 4); cudaMalloc(&dC, c.size() * 4); cudaMalloc(&dD, c.size() * 4);
    cudaMemcpy(dR, regs.data(), regs.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dC, c.data(), c.size() * 4, cudaMemcpyHostToDevice);
    for (int kp = 0; kp < 2; ++kp) {
        if (kp) run_s8<K, true><<<1, 64>>>(dR, dC, dD); else run_s8<K, false><<<1, 64>>>(dR, dC, dD);
        d[kp].resize(c.size());
        cudaError_t e = cudaMemcpy(d[kp].data(), dD, c.size() * 4, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) { std::printf("%s: CUDA error %s\n", what, cudaGetErrorString(e)); ++mismatches; return; }
    }
    cudaFree(dR); cudaFree(dC); cudaFree(dD);
    int bad = 0;
    for (size_t i = 0; i < c.size(); ++i)
        if (d[0][i] != d[1][i] && bad++ < 3)
            std::printf("  %s lane %d d%d: polyfill %d, mma.sync %d\n", what, (int)i / 4, (int)i % 4, d[1][i], d[0][i]);
    std::printf("%s: %s (%d of %d differ)\n", what, bad ? "MISMATCH" : "match", bad, (int)c.size());
    mismatches += bad != 0;
}
template <int K, bool TransB> static void check(const char* what) {
    std::vector<__half> a(2 * 256), b(2 * 128);
    std::vector<float> c(2 * 128);
    for (auto& v : a) v = __float2half((std::rand() % 201 - 100) / 64.0f);
    for (auto& v : b) v = __float2half((std::rand() % 201 - 100) / 64.0f);
    for (auto& v : c) v = (std::rand() % 201 - 100) / 16.0f;
    __half *dA, *dB; float *dC, *dD[2]; unsigned* dR[2];
    cudaMalloc(&dA, a.size() * 2); cudaMalloc(&dB, b.size() * 2); cudaMalloc(&dC, c.size() * 4);
    cudaMemcpy(dA, a.data(), a.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, b.data(), b.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(dC, c.data(), c.size() * 4, cudaMemcpyHostToDevice);
    std::vector<float> d[2]; std::vector<unsigned> r[2];
    for (int kp = 0; kp < 2; ++kp) {
        cudaMalloc(&dD[kp], 2 * 128 * 4); cudaMalloc(&dR[kp], 64 * 6 * 4);
        if (kp) run_case<K, TransB, true><<<1, 64>>>(dA, dB, dC, dR[kp], dD[kp]);
        else run_case<K, TransB, false><<<1, 64>>>(dA, dB, dC, dR[kp], dD[kp]);
        d[kp].resize(2 * 128); r[kp].resize(64 * 6);
        cudaMemcpy(r[kp].data(), dR[kp], r[kp].size() * 4, cudaMemcpyDeviceToHost);
        cudaError_t e = cudaMemcpy(d[kp].data(), dD[kp], d[kp].size() * 4, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) { std::printf("%s: CUDA error %s\n", what, cudaGetErrorString(e)); ++mismatches; return; }
        cudaFree(dD[kp]); cudaFree(dR[kp]);
    }
    cudaFree(dA); cudaFree(dB); cudaFree(dC);
    int bad = 0, badregs = 0; double worst = 0;
    for (int i = 0; i < 64 * 6; ++i)
        if (r[0][i] != r[1][i] && badregs++ < 3)
            std::printf("  %s lane %d register %d: polyfill %08x, ldmatrix %08x\n", what, i / 6, i % 6, r[1][i], r[0][i]);
    for (int i = 0; i < 2 * 128; ++i) {
        const double want = d[0][i], got = d[1][i];
        const double err = std::fabs(got - want) / std::fmax(1.0, std::fabs(want));
        worst = std::fmax(worst, err);
        if (err > 1e-3 && bad++ < 3)
            std::printf("  %s warp %d D[%d][%d]: polyfill %g, mma.sync %g\n", what, i / 128, i % 128 / 8, i % 8, got, want);
    }
    std::printf("%s: %s (%d register mismatches, worst relative difference of D %.2e)\n", what,
                bad || badregs ? "MISMATCH" : "match", badregs, worst);
    mismatches += bad != 0 || badregs != 0;
}
int main() {
    check<16, true>("m16n8k16 A ldmatrix.x4, B ldmatrix.x2.trans");
    check<16, false>("m16n8k16 A ldmatrix.x4, B ldmatrix.x2 (column-major)");
    check<8, true>("m16n8k8 A ldmatrix.x2, B ldmatrix.x1.trans");
    check<8, false>("m16n8k8 A ldmatrix.x2, B ldmatrix.x1 (column-major)");
    check_s8<32>("m16n8k32 s32 <- s8 (random registers)");
    check_s8<16>("m16n8k16 s32 <- s8 (random registers)");
    std::printf("%d mismatches\n", mismatches);
    return mismatches != 0;
}
"""


def source() -> str:
    spec = importlib.util.spec_from_file_location("hip_ptx_matrix", ROOT / "kernelport" / "backends" / "hip_ptx_matrix.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return PRELUDE + mod.POLYFILL + KERNEL


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compile-only", action="store_true")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--out", type=pathlib.Path, default=None)
    args = ap.parse_args()
    out = args.out or pathlib.Path(tempfile.mkdtemp())
    out.mkdir(parents=True, exist_ok=True)
    cu = out / "ptx_matrix_check.cu"
    cu.write_text(source())
    exe = out / "ptx_matrix_check"
    r = subprocess.run(["nvcc", "-std=c++17", f"-arch={args.arch}", "-O2", str(cu), "-o", str(exe)])
    if r.returncode != 0 or args.compile_only:
        return r.returncode
    return subprocess.run([str(exe)]).returncode


if __name__ == "__main__":
    sys.exit(main())
