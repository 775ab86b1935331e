"""The HIP port's `nvcuda::wmma` (<mma.h>), which ROCm has no counterpart for (rocWMMA is a separate
library, for MFMA/WMMA GPUs only: gfx1030 has neither, and ROCm 5.2 here does not ship it).

CUDA documents a fragment's element layout as unspecified: code may touch `frag.x[i]` only element-wise
between fragments of one type (and read `num_elements`), so the port picks its own.  The fragments live
on logical 32-lane warps, as CUDA's do: the lane is the thread's lane within its half of a 64-lane wave
(or its 32-lane wave), since a warp of CUDA and a wave of AMD both hold consecutive linear thread ids.
A kernel that uses wmma therefore keeps CUDA's 32-lane warps (kernelport/warpwidth.py decides its group
logical: `threadIdx.x / 32`, `warpSize` stay 32).

Layout (M x N x K, lane l = 0..31 of the warp; every shape with M and N dividing 32):
- matrix_a (M x K): lane l holds row l*M/32 whole: x[k] = A[l*M/32][k] (K elements);
- matrix_b (K x N): lane l holds column l*N/32 whole: x[k] = B[k][l*N/32] (K elements);
- accumulator (M x N): lane l holds the M*N/32 elements l*M*N/32 + t of the tile in row-major order.
A lane's accumulator elements all lie in the row of A it holds, so `mma_sync` reads its own A and takes
each B column from the lane that holds it by a width-32 shuffle (`__shfl(v, src, 32)` stays inside
the 32-lane half of a 64-lane wave).  For 16x16x16, 32x8x16 and 8x32x16 the counts are CUDA's own
(16, 16, 8).  Products and sums are in float for half/float (int for integer types, double for double);
the sum runs in another order than the tensor cores' (verify's tolerance: auto).  Names of <mma.h> not
defined here (`precision::tf32`, `bmma_sync`, `experimental::`) are refused where used (KP209,
kernelport/header_uses.py reads WMMA_DEFINES).
"""
from __future__ import annotations

# What the port defines in nvcuda::wmma (any other `wmma::` name is refused at its use).
WMMA_DEFINES = frozenset({"fragment", "fill_fragment", "load_matrix_sync", "store_matrix_sync", "mma_sync",
                          "matrix_a", "matrix_b", "accumulator", "row_major", "col_major", "layout_t",
                          "mem_row_major", "mem_col_major"})

WMMA_POLYFILL = """\
// <mma.h> has no HIP counterpart: nvcuda::wmma over logical 32-lane warps (kernelport).  CUDA leaves
// the fragment layout unspecified; here lane l of a warp holds row l*M/32 of A, column l*N/32 of B, and
// the M*N/32 row-major elements from l*M*N/32 of C; mma_sync takes B's columns by width-32 shuffles.
#ifndef KP_WMMA
#define KP_WMMA
#include <type_traits>
namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
template <class Use, int M, int N, int K> struct kp_frag_count;
template <int M, int N, int K> struct kp_frag_count<matrix_a, M, N, K> { enum { value = K }; };
template <int M, int N, int K> struct kp_frag_count<matrix_b, M, N, K> { enum { value = K }; };
template <int M, int N, int K> struct kp_frag_count<accumulator, M, N, K> { enum { value = M * N / 32 }; };
template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
    static_assert(M > 0 && N > 0 && K > 0 && 32 % M == 0 && 32 % N == 0 && M * N % 32 == 0,
                  "kernelport's wmma: M and N must divide 32 (one row of A, one column of B per lane)");
public:
    typedef T element_type;
    typedef T storage_element_type;
    enum { num_elements = kp_frag_count<Use, M, N, K>::value };
    T x[num_elements];
};
// the products' and sums' type: int for integer elements, float for half and float, double for double
template <class T> struct kp_sum {
    typedef typename std::conditional<std::is_integral<T>::value, int,
        typename std::conditional<(sizeof(T) <= 4), float, double>::type>::type type;
};
__device__ inline int kp_wmma_lane() { return (int)(__lane_id() & 31u); }
template <class Use, int M, int N, int K, class T, class L>
__device__ inline void fill_fragment(fragment<Use, M, N, K, T, L>& f,
                                     const typename fragment<Use, M, N, K, T, L>::element_type& v) {
#pragma unroll
    for (int i = 0; i < fragment<Use, M, N, K, T, L>::num_elements; ++i) f.x[i] = v;
}
template <int M, int N, int K, class T, class L>
__device__ inline void load_matrix_sync(fragment<matrix_a, M, N, K, T, L>& f, const T* p, unsigned ldm) {
    const unsigned r = (unsigned)(kp_wmma_lane() * M / 32);
#pragma unroll
    for (unsigned k = 0; k < (unsigned)K; ++k)
        f.x[k] = std::is_same<L, col_major>::value ? p[k * ldm + r] : p[r * ldm + k];
}
template <int M, int N, int K, class T, class L>
__device__ inline void load_matrix_sync(fragment<matrix_b, M, N, K, T, L>& f, const T* p, unsigned ldm) {
    const unsigned c = (unsigned)(kp_wmma_lane() * N / 32);
#pragma unroll
    for (unsigned k = 0; k < (unsigned)K; ++k)
        f.x[k] = std::is_same<L, col_major>::value ? p[c * ldm + k] : p[k * ldm + c];
}
template <int M, int N, int K, class T>
__device__ inline void load_matrix_sync(fragment<accumulator, M, N, K, T>& f, const T* p, unsigned ldm,
                                        layout_t layout) {
    const unsigned e = (unsigned)(kp_wmma_lane() * (M * N / 32));
#pragma unroll
    for (unsigned t = 0; t < (unsigned)(M * N / 32); ++t) {
        const unsigned i = (e + t) / N, j = (e + t) % N;
        f.x[t] = layout == mem_col_major ? p[j * ldm + i] : p[i * ldm + j];
    }
}
template <int M, int N, int K, class T>
__device__ inline void store_matrix_sync(T* p, const fragment<accumulator, M, N, K, T>& f, unsigned ldm,
                                         layout_t layout) {
    const unsigned e = (unsigned)(kp_wmma_lane() * (M * N / 32));
#pragma unroll
    for (unsigned t = 0; t < (unsigned)(M * N / 32); ++t) {
        const unsigned i = (e + t) / N, j = (e + t) % N;
        if (layout == mem_col_major) p[j * ldm + i] = f.x[t]; else p[i * ldm + j] = f.x[t];
    }
}
template <int M, int N, int K, class Ta, class La, class Tb, class Lb, class Tc, class Td>
__device__ inline void mma_sync(fragment<accumulator, M, N, K, Td>& d, const fragment<matrix_a, M, N, K, Ta, La>& a,
                                const fragment<matrix_b, M, N, K, Tb, Lb>& b,
                                const fragment<accumulator, M, N, K, Tc>& c) {
    typedef typename kp_sum<Tc>::type S;
    const int e = kp_wmma_lane() * (M * N / 32);
    S acc[M * N / 32];
#pragma unroll
    for (int t = 0; t < M * N / 32; ++t) acc[t] = static_cast<S>(c.x[t]);
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const S bk = static_cast<S>(b.x[k]);  // B[k][this lane's column]
        const S ak = static_cast<S>(a.x[k]);  // A[this lane's row][k]
#pragma unroll
        for (int t = 0; t < M * N / 32; ++t)  // the lane holding column j of B is j*32/N
            acc[t] += ak * __shfl(bk, (e + t) % N * (32 / N), 32);
    }
#pragma unroll
    for (int t = 0; t < M * N / 32; ++t) d.x[t] = static_cast<Td>(acc[t]);
}
}  // namespace wmma
}  // namespace nvcuda
#endif"""
