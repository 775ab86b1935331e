"""The HIP port's nvcuda::wmma (kernelport/backends/hip_wmma.py) against the real tensor-core wmma, on an
NVIDIA GPU (sm_70+): the polyfill's text, renamed into namespace `kpwmma` and given `__lane_id` (%laneid)
and a width-32 `__shfl` (`__shfl_sync`), is compiled with nvcc beside <mma.h>; one block of two warps
runs each shape/layout both ways on the same inputs and the host compares D = A*B + C (then scaled 2x
element-wise through `num_elements`) element by element.

    python3 bench/device/wmma_polyfill_check.py [--compile-only] [--arch sm_90] [--out DIR]

Prints one line per case and `N mismatches`; exit status 0 only when every case matches (half inputs:
the products are exact in float, so only the summation order differs: |d| tolerance 1e-3 relative).
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
#include <mma.h>
namespace kpwmma {
__device__ inline unsigned __lane_id() { unsigned l; asm volatile("mov.u32 %0, %%laneid;" : "=r"(l)); return l; }
template <class T> __device__ inline T __shfl(T v, int src, int width) { return __shfl_sync(0xffffffffu, v, src, width); }
}
"""

CASES = [  # M, N, K, A layout, B layout, C load layout, D store layout, accumulator type
    (16, 16, 16, "row_major", "col_major", "mem_row_major", "mem_row_major", "float"),
    (16, 16, 16, "col_major", "row_major", "mem_col_major", "mem_row_major", "float"),
    (16, 16, 16, "row_major", "row_major", "mem_row_major", "mem_col_major", "__half"),
    (32, 8, 16, "row_major", "col_major", "mem_row_major", "mem_row_major", "float"),
    (32, 8, 16, "col_major", "col_major", "mem_col_major", "mem_col_major", "float"),
    (8, 32, 16, "row_major", "col_major", "mem_row_major", "mem_row_major", "float"),
    (8, 32, 16, "col_major", "row_major", "mem_row_major", "mem_col_major", "__half"),
]

KERNEL = r"""
template <int M, int N, int K, class LA, class LB, class TC, bool KP>
__global__ void run_case(const __half* A, const __half* B, const TC* C, TC* D, unsigned lda, unsigned ldb,
                         unsigned ldc, unsigned ldd, int lc, int ld) {
    const int w = threadIdx.x / 32;  // each warp its own matrices
    A += w * 32 * lda; B += w * 32 * ldb; C += w * 32 * ldc; D += w * 32 * ldd;
    if constexpr (KP) {
        using namespace kpwmma::wmma;
        fragment<matrix_a, M, N, K, __half, typename std::conditional<std::is_same<LA, nvcuda::wmma::row_major>::value, row_major, col_major>::type> a;
        fragment<matrix_b, M, N, K, __half, typename std::conditional<std::is_same<LB, nvcuda::wmma::row_major>::value, row_major, col_major>::type> b;
        fragment<accumulator, M, N, K, TC> c;
        load_matrix_sync(a, A, lda); load_matrix_sync(b, B, ldb);
        load_matrix_sync(c, C, ldc, lc ? mem_col_major : mem_row_major);
        mma_sync(c, a, b, c);
        for (int i = 0; i < c.num_elements; ++i) c.x[i] = c.x[i] * TC(2);
        store_matrix_sync(D, c, ldd, ld ? mem_col_major : mem_row_major);
    } else {
        using namespace nvcuda::wmma;
        fragment<matrix_a, M, N, K, __half, LA> a;
        fragment<matrix_b, M, N, K, __half, LB> b;
        fragment<accumulator, M, N, K, TC> c;
        load_matrix_sync(a, A, lda); load_matrix_sync(b, B, ldb);
        load_matrix_sync(c, C, ldc, lc ? mem_col_major : mem_row_major);
        mma_sync(c, a, b, c);
        for (int i = 0; i < c.num_elements; ++i) c.x[i] = c.x[i] * TC(2);
        store_matrix_sync(D, c, ldd, ld ? mem_col_major : mem_row_major);
    }
}

static int mismatches = 0;
template <int M, int N, int K, class LA, class LB, class TC>
static void check(int lc, int ld, const char* what) {
    const bool ra = std::is_same<LA, nvcuda::wmma::row_major>::value, rb = std::is_same<LB, nvcuda::wmma::row_major>::value;
    const unsigned lda = (ra ? K : M) + 8, ldb = (rb ? N : K) + 8, ldc = (lc ? M : N) + 8, ldd = (ld ? M : N) + 8;
    std::vector<__half> a(2 * 32 * lda), b(2 * 32 * ldb);
    std::vector<TC> c(2 * 32 * ldc);
    for (auto& v : a) v = __float2half((std::rand() % 201 - 100) / 64.0f);
    for (auto& v : b) v = __float2half((std::rand() % 201 - 100) / 64.0f);
    for (auto& v : c) v = TC((std::rand() % 201 - 100) / 16.0f);
    __half *dA, *dB; TC *dC, *dD[2];
    cudaMalloc(&dA, a.size() * 2); cudaMalloc(&dB, b.size() * 2); cudaMalloc(&dC, c.size() * sizeof(TC));
    cudaMemcpy(dA, a.data(), a.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, b.data(), b.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(dC, c.data(), c.size() * sizeof(TC), cudaMemcpyHostToDevice);
    std::vector<TC> d[2];
    for (int kp = 0; kp < 2; ++kp) {
        cudaMalloc(&dD[kp], 2 * 32 * ldd * sizeof(TC));
        cudaMemset(dD[kp], 0, 2 * 32 * ldd * sizeof(TC));
        if (kp) run_case<M, N, K, LA, LB, TC, true><<<1, 64>>>(dA, dB, dC, dD[kp], lda, ldb, ldc, ldd, lc, ld);
        else run_case<M, N, K, LA, LB, TC, false><<<1, 64>>>(dA, dB, dC, dD[kp], lda, ldb, ldc, ldd, lc, ld);
        d[kp].resize(2 * 32 * ldd);
        cudaError_t e = cudaMemcpy(d[kp].data(), dD[kp], d[kp].size() * sizeof(TC), cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) { std::printf("%s: CUDA error %s\n", what, cudaGetErrorString(e)); ++mismatches; return; }
        cudaFree(dD[kp]);
    }
    cudaFree(dA); cudaFree(dB); cudaFree(dC);
    int bad = 0; double worst = 0;
    for (int w = 0; w < 2; ++w)
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j) {
                const size_t at = w * 32 * ldd + (ld ? j * ldd + i : i * ldd + j);
                const double want = (double)(float)d[0][at], got = (double)(float)d[1][at];
                const double err = std::fabs(got - want) / std::fmax(1.0, std::fabs(want));
                worst = std::fmax(worst, err);
                if (err > (sizeof(TC) == 2 ? 4e-3 : 1e-3) && bad++ < 3)
                    std::printf("  %s warp %d D[%d][%d]: polyfill %g, wmma %g\n", what, w, i, j, got, want);
            }
    std::printf("%s: %s (worst relative difference %.2e)\n", what, bad ? "MISMATCH" : "match", worst);
    mismatches += bad != 0;
}
int main() {
CHECKS
    std::printf("%d mismatches\n", mismatches);
    return mismatches != 0;
}
"""


def source() -> str:
    spec = importlib.util.spec_from_file_location("hip_wmma", ROOT / "kernelport" / "backends" / "hip_wmma.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    polyfill = mod.WMMA_POLYFILL.replace("namespace nvcuda {", "namespace kpwmma {").replace(
        "}  // namespace nvcuda", "}  // namespace kpwmma").replace("#ifndef KP_WMMA", "#ifndef KP_WMMA_CHECK")
    checks = "\n".join(
        f'    check<{m}, {n}, {k}, nvcuda::wmma::{la}, nvcuda::wmma::{lb}, {tc}>({int(lc == "mem_col_major")}, '
        f'{int(ld == "mem_col_major")}, "{m}x{n}x{k} A {la} B {lb} C {lc} D {ld} {tc}");'
        for m, n, k, la, lb, lc, ld, tc in CASES)
    return PRELUDE + polyfill + "\n" + KERNEL.replace("CHECKS", checks)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compile-only", action="store_true")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--out", type=pathlib.Path, default=None)
    args = ap.parse_args()
    out = args.out or pathlib.Path(tempfile.mkdtemp())
    out.mkdir(parents=True, exist_ok=True)
    cu = out / "wmma_polyfill_check.cu"
    cu.write_text(source())
    exe = out / "wmma_polyfill_check"
    r = subprocess.run(["nvcc", "-std=c++17", f"-arch={args.arch}", "-O2", str(cu), "-o", str(exe)])
    if r.returncode != 0 or args.compile_only:
        return r.returncode
    return subprocess.run([str(exe)]).returncode


if __name__ == "__main__":
    sys.exit(main())
