"""The HIP port's inline-PTX `mma.sync` and `ldmatrix` (kernelport/ptx_matrix.py's FORMS) over logical
32-lane warps: lane l = __lane_id() & 31 (a 64-lane wave holds two warps, as for wmma: hip_wmma.py),
each exchange a width-32 `__shfl`, so every lane ends with exactly the registers PTX documents for it
(PTX ISA, "Matrix Fragments for mma.m16n8k16 / m16n8k8" and "ldmatrix"; groupID g = l >> 2,
threadID_in_group t = l & 3):

- ldmatrix .m8n8 .b16 (.x1/.x2/.x4): matrix j's eight row addresses are lanes 8j..8j+7's; lane l receives
  in register j row g's halves 2t and 2t+1 (low half first).  .trans: the transpose's, i.e. halves g of
  rows 2t and 2t+1.  The row address is taken from its lane by a shuffle, then read from LDS.
- mma m16n8k16 .row.col f32 <- f16: A (16x16) a0 = (row g, cols 2t..2t+1), a1 = (g+8, 2t..), a2 = (g, 2t+8..),
  a3 = (g+8, 2t+8..); B (16x8) b0 = (rows 2t..2t+1, col g), b1 = (rows 2t+8.., col g); C and D (16x8)
  c0, c1 = (row g, cols 2t, 2t+1), c2, c3 = (row g+8, cols 2t, 2t+1).  m16n8k8: a0, a1 and b0 alone.
  A lane's D needs rows g and g+8 of A (lanes 4g..4g+3) and columns 2t and 2t+1 of B (lanes 8t..8t+7):
  taken by shuffles, the halves widened to float (exact), the products summed in float in k order
  (the tensor cores' order of summation is not documented: verify's tolerance is auto).
- mma m16n8k32 .row.col s32 <- s8 (four bytes to a register, the lowest k in the low byte): a0 = (row g, cols
  4t..4t+3), a1 = (g+8, 4t..), a2 = (g, 4t+16..), a3 = (g+8, 4t+16..); b0 = (rows 4t..4t+3, col g), b1 = (rows
  4t+16.., col g); C and D as f32's.  m16n8k16: a0, a1 and b0 alone.  The products are summed in 32-bit
  integers that wrap (PTX's without .satfinite): exact, in any order.

Checked on the host against a plain GEMM (tests/test_hip_ptx_matrix.py, 64 lanes in lockstep) and, for
the lead, against the H200's own instructions (bench/device/ptx_matrix_check.py)."""
from __future__ import annotations

# The concepts' HIP spellings (outputs by address: the call reads every input before it writes one).
SPELLINGS = {
    "ptx_mma_m16n8k16_f32_f16": "kp_mma_m16n8k16_f32_f16(&{d0}, &{d1}, &{d2}, &{d3}, {a0}, {a1}, {a2}, {a3}, "
                                "{b0}, {b1}, {c0}, {c1}, {c2}, {c3})",
    "ptx_mma_m16n8k8_f32_f16": "kp_mma_m16n8k8_f32_f16(&{d0}, &{d1}, &{d2}, &{d3}, {a0}, {a1}, {b0}, "
                               "{c0}, {c1}, {c2}, {c3})",
    "ptx_mma_m16n8k32_s32_s8": "kp_mma_m16n8k32_s32_s8(&{d0}, &{d1}, &{d2}, &{d3}, {a0}, {a1}, {a2}, {a3}, "
                               "{b0}, {b1}, {c0}, {c1}, {c2}, {c3})",
    "ptx_mma_m16n8k16_s32_s8": "kp_mma_m16n8k16_s32_s8(&{d0}, &{d1}, &{d2}, &{d3}, {a0}, {a1}, {b0}, "
                               "{c0}, {c1}, {c2}, {c3})",
    **{f"ptx_ldmatrix_x{n}{t}": f"kp_ldmatrix_x{n}{t}(" + "".join(f"&{{d{i}}}, " for i in range(n)) + "{p})"
       for n in (1, 2, 4) for t in ("", "_trans")},
    # an operand the call names twice (`"+f"(c(0))`: an accessor's element), evaluated once as the asm does
    "ptx_bound_operand": "auto&& {name} = {value};",
    # ... one the asm writes (`"+f"`): a modifiable lvalue, as nvcc requires (`c(0)` returning a copy is rejected
    # there, "expression must be a modifiable lvalue"; `auto&&` would bind the copy and drop the write)
    "ptx_bound_output": "auto& {name} = {value};",
}

POLYFILL = r"""
// PTX's ldmatrix and mma.sync (the inline asm the CUDA source had) over logical 32-lane warps: lane l is
// __lane_id() & 31, every exchange a width-32 __shfl, and each lane ends with the registers PTX documents
// for it (groupID g = l >> 2, threadID_in_group t = l & 3); kernelport/backends/hip_ptx_matrix.py.
#ifndef KP_HAVE_PTX_MATRIX  // also defined by another port in this translation unit (a header's)
#define KP_HAVE_PTX_MATRIX
__device__ inline int kp_ptx_lane() { return (int)(__lane_id() & 31u); }
template <class T> __device__ inline void kp_ptx_put(T* d, unsigned int bits)
{
    static_assert(sizeof(T) == 4, "a 32-bit register");
    __builtin_memcpy(d, &bits, 4);
}
// An IEEE half's bits (the low 16 of h) as the float of the same value (exact)
__device__ inline float kp_ptx_h2f(unsigned int h)
{
    const unsigned int s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0) return s ? -(float)m * 5.9604644775390625e-8f : (float)m * 5.9604644775390625e-8f;
    const unsigned int bits = s | (e == 31 ? 0x7f800000u : (e + 112u) << 23) | (m << 13);
    float f;
    __builtin_memcpy(&f, &bits, 4);
    return f;
}
// Register j of ldmatrix .m8n8.b16: row addresses from lanes 8j..8j+7
template <bool Trans> __device__ inline unsigned int kp_ldmatrix_b16(unsigned int p, int j)
{
    const int l = kp_ptx_lane();
    if (!Trans) {
        const unsigned int row = (unsigned int)__shfl((int)p, 8 * j + (l >> 2), 32);
        return *((const unsigned int*)kp_shared_ptr(row) + (l & 3));
    }
    const unsigned int r0 = (unsigned int)__shfl((int)p, 8 * j + 2 * (l & 3), 32);
    const unsigned int r1 = (unsigned int)__shfl((int)p, 8 * j + 2 * (l & 3) + 1, 32);
    const unsigned int lo = *((const unsigned short*)kp_shared_ptr(r0) + (l >> 2));
    const unsigned int hi = *((const unsigned short*)kp_shared_ptr(r1) + (l >> 2));
    return lo | (hi << 16);
}
template <class T> __device__ inline void kp_ldmatrix_x1(T* d0, unsigned int p)
{
    kp_ptx_put(d0, kp_ldmatrix_b16<false>(p, 0));
}
template <class T> __device__ inline void kp_ldmatrix_x2(T* d0, T* d1, unsigned int p)
{
    const unsigned int r0 = kp_ldmatrix_b16<false>(p, 0), r1 = kp_ldmatrix_b16<false>(p, 1);
    kp_ptx_put(d0, r0); kp_ptx_put(d1, r1);
}
template <class T> __device__ inline void kp_ldmatrix_x4(T* d0, T* d1, T* d2, T* d3, unsigned int p)
{
    const unsigned int r0 = kp_ldmatrix_b16<false>(p, 0), r1 = kp_ldmatrix_b16<false>(p, 1);
    const unsigned int r2 = kp_ldmatrix_b16<false>(p, 2), r3 = kp_ldmatrix_b16<false>(p, 3);
    kp_ptx_put(d0, r0); kp_ptx_put(d1, r1); kp_ptx_put(d2, r2); kp_ptx_put(d3, r3);
}
template <class T> __device__ inline void kp_ldmatrix_x1_trans(T* d0, unsigned int p)
{
    kp_ptx_put(d0, kp_ldmatrix_b16<true>(p, 0));
}
template <class T> __device__ inline void kp_ldmatrix_x2_trans(T* d0, T* d1, unsigned int p)
{
    const unsigned int r0 = kp_ldmatrix_b16<true>(p, 0), r1 = kp_ldmatrix_b16<true>(p, 1);
    kp_ptx_put(d0, r0); kp_ptx_put(d1, r1);
}
template <class T> __device__ inline void kp_ldmatrix_x4_trans(T* d0, T* d1, T* d2, T* d3, unsigned int p)
{
    const unsigned int r0 = kp_ldmatrix_b16<true>(p, 0), r1 = kp_ldmatrix_b16<true>(p, 1);
    const unsigned int r2 = kp_ldmatrix_b16<true>(p, 2), r3 = kp_ldmatrix_b16<true>(p, 3);
    kp_ptx_put(d0, r0); kp_ptx_put(d1, r1); kp_ptx_put(d2, r2); kp_ptx_put(d3, r3);
}
// D = A * B + C, m16n8kK (K = 8: a2, a3 and b1 unused), A row-major and B column-major f16, C and D f32
template <int K> __device__ inline void kp_mma_m16n8_f32_f16(float* d, unsigned int a0, unsigned int a1,
                                                             unsigned int a2, unsigned int a3, unsigned int b0,
                                                             unsigned int b1, float c0, float c1, float c2, float c3)
{
    const int l = kp_ptx_lane(), g = l >> 2, t = l & 3;
    float acc0 = c0, acc1 = c1, acc2 = c2, acc3 = c3;
#pragma unroll
    for (int k = 0; k < K; k += 2) {  // the lanes 4r+q hold rows / columns r at k = 2q, 2q+1 (+8: a2, a3, b1)
        const int q = (k & 7) >> 1;
        const unsigned int ag = (unsigned int)__shfl((int)(k < 8 ? a0 : a2), 4 * g + q, 32);  // A[g][k, k+1]
        const unsigned int ah = (unsigned int)__shfl((int)(k < 8 ? a1 : a3), 4 * g + q, 32);  // A[g+8][k, k+1]
        const unsigned int bl = (unsigned int)__shfl((int)(k < 8 ? b0 : b1), 8 * t + q, 32);  // B[k, k+1][2t]
        const unsigned int bh = (unsigned int)__shfl((int)(k < 8 ? b0 : b1), 8 * t + 4 + q, 32);  // [2t+1]
        const float g0 = kp_ptx_h2f(ag), g1 = kp_ptx_h2f(ag >> 16), h0 = kp_ptx_h2f(ah), h1 = kp_ptx_h2f(ah >> 16);
        const float l0 = kp_ptx_h2f(bl), l1 = kp_ptx_h2f(bl >> 16), m0 = kp_ptx_h2f(bh), m1 = kp_ptx_h2f(bh >> 16);
        acc0 += g0 * l0; acc0 += g1 * l1;
        acc1 += g0 * m0; acc1 += g1 * m1;
        acc2 += h0 * l0; acc2 += h1 * l1;
        acc3 += h0 * m0; acc3 += h1 * m1;
    }
    d[0] = acc0; d[1] = acc1; d[2] = acc2; d[3] = acc3;
}
template <class T> __device__ inline void kp_mma_m16n8k16_f32_f16(T* d0, T* d1, T* d2, T* d3, unsigned int a0,
                                                                  unsigned int a1, unsigned int a2, unsigned int a3,
                                                                  unsigned int b0, unsigned int b1, float c0,
                                                                  float c1, float c2, float c3)
{
    float d[4];
    kp_mma_m16n8_f32_f16<16>(d, a0, a1, a2, a3, b0, b1, c0, c1, c2, c3);
    *d0 = d[0]; *d1 = d[1]; *d2 = d[2]; *d3 = d[3];
}
template <class T> __device__ inline void kp_mma_m16n8k8_f32_f16(T* d0, T* d1, T* d2, T* d3, unsigned int a0,
                                                                 unsigned int a1, unsigned int b0, float c0,
                                                                 float c1, float c2, float c3)
{
    float d[4];
    kp_mma_m16n8_f32_f16<8>(d, a0, a1, 0u, 0u, b0, 0u, c0, c1, c2, c3);
    *d0 = d[0]; *d1 = d[1]; *d2 = d[2]; *d3 = d[3];
}
// D = A * B + C, m16n8kK .s32.s8.s8.s32 (K = 16: a2, a3 and b1 unused), A row-major and B column-major s8, C and D
// s32 (sums wrap, as PTX's without .satfinite)
template <int K> __device__ inline void kp_mma_m16n8_s32_s8(unsigned int* d, unsigned int a0, unsigned int a1,
                                                            unsigned int a2, unsigned int a3, unsigned int b0,
                                                            unsigned int b1, unsigned int c0, unsigned int c1,
                                                            unsigned int c2, unsigned int c3)
{
    const int l = kp_ptx_lane(), g = l >> 2, t = l & 3;
    unsigned int acc0 = c0, acc1 = c1, acc2 = c2, acc3 = c3;
#pragma unroll
    for (int k = 0; k < K; k += 4) {  // the lanes 4r+q hold rows / columns r at k = 4q..4q+3 (+16: a2, a3, b1)
        const int q = (k & 15) >> 2;
        const unsigned int ag = (unsigned int)__shfl((int)(k < 16 ? a0 : a2), 4 * g + q, 32);  // A[g][k..k+3]
        const unsigned int ah = (unsigned int)__shfl((int)(k < 16 ? a1 : a3), 4 * g + q, 32);  // A[g+8][k..k+3]
        const unsigned int bl = (unsigned int)__shfl((int)(k < 16 ? b0 : b1), 8 * t + q, 32);  // B[k..k+3][2t]
        const unsigned int bh = (unsigned int)__shfl((int)(k < 16 ? b0 : b1), 8 * t + 4 + q, 32);  // [2t+1]
#pragma unroll
        for (int j = 0; j < 32; j += 8) {
            const int x = (signed char)(ag >> j), y = (signed char)(ah >> j);
            const int u = (signed char)(bl >> j), v = (signed char)(bh >> j);
            acc0 += (unsigned int)(x * u); acc1 += (unsigned int)(x * v);
            acc2 += (unsigned int)(y * u); acc3 += (unsigned int)(y * v);
        }
    }
    d[0] = acc0; d[1] = acc1; d[2] = acc2; d[3] = acc3;
}
template <class T> __device__ inline void kp_mma_m16n8k32_s32_s8(T* d0, T* d1, T* d2, T* d3, unsigned int a0,
                                                                 unsigned int a1, unsigned int a2, unsigned int a3,
                                                                 unsigned int b0, unsigned int b1, unsigned int c0,
                                                                 unsigned int c1, unsigned int c2, unsigned int c3)
{
    static_assert(sizeof(T) == 4, "a 32-bit register");
    unsigned int d[4];
    kp_mma_m16n8_s32_s8<32>(d, a0, a1, a2, a3, b0, b1, c0, c1, c2, c3);
    kp_ptx_put(d0, d[0]); kp_ptx_put(d1, d[1]); kp_ptx_put(d2, d[2]); kp_ptx_put(d3, d[3]);
}
template <class T> __device__ inline void kp_mma_m16n8k16_s32_s8(T* d0, T* d1, T* d2, T* d3, unsigned int a0,
                                                                 unsigned int a1, unsigned int b0, unsigned int c0,
                                                                 unsigned int c1, unsigned int c2, unsigned int c3)
{
    static_assert(sizeof(T) == 4, "a 32-bit register");
    unsigned int d[4];
    kp_mma_m16n8_s32_s8<16>(d, a0, a1, 0u, 0u, b0, 0u, c0, c1, c2, c3);
    kp_ptx_put(d0, d[0]); kp_ptx_put(d1, d[1]); kp_ptx_put(d2, d[2]); kp_ptx_put(d3, d[3]);
}
#endif
"""


def definitions(body: str) -> str:
    """The polyfill where `body` calls one of its functions ("" where none)."""
    return POLYFILL if "kp_mma_m16n8k" in body or "kp_ldmatrix_x" in body else ""
