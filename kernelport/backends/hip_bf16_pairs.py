"""CUDA's bf16 pair arithmetic (cuda_bf16.h on `__nv_bfloat162`) for the HIP port's `kp_bfloat162` (the prologue's
pair of hip_bfloat16: ROCm 5.2, the HIP backend's `api_checked_with`, has no pair type and no bf16 arithmetic but
hip_bfloat16's operators, which round through float).  CUDA computes each lane as one correctly rounded bf16
operation (sm_80's fma.rn.bf16x2: a + b as a * 1 + b, a * b as a * b - 0): here the exact result is formed in
double (a bf16 product is exact there, a sum's error exact by TwoSum), rounded to odd into double and then float
(ulp steps toward the exact value where inexact), then to nearest even into bf16: round-to-odd with two or more
bits to spare gives the correctly rounded result (never the double rounding float arithmetic would give).

The API table spells the pair's constructors and conversions as the prologue's `kp_bfloat162_*` calls; the
names CUDA shares with half2 (`__hadd2`, `__hmul2`, `__hfma2`, `__low2float`, ...) stay as written and the
prologue overloads them on the pair, as are `+ - *` and their assignments.  Left unsupported (a compile error,
never a value computed otherwise): `__h2div` and `/` (CUDA's is no correctly rounded division), the `_sat`,
`_relu` and comparison forms.  tests/test_bf16_pair_arithmetic.py compiles this text with g++ and compares every
operation bit for bit with an exact model (Python fractions, round to nearest even) and compiles a port with
hipcc for gfx90a and gfx1030."""
from __future__ import annotations

# the API table's spellings of the pair's constructors and conversions (scripts/gen_hip_api.py DEVICE_OVERRIDES)
CALLS = {
    "__floats2bfloat162_rn": "kp_bfloat162_rn({0}, {1})", "__float2bfloat162_rn": "kp_bfloat162_dup_rn({0})",
    "__bfloat1622float2": "kp_bfloat162_float2({0})", "__halves2bfloat162": "kp_bfloat162_of({0}, {1})",
    "__low2bfloat16": "kp_bfloat162_low({0})", "__high2bfloat16": "kp_bfloat162_high({0})",
}

POLYFILL = """
#ifndef KP_HAVE_BFLOAT162_MATH  // also defined by another port in this translation unit (a header's)
#define KP_HAVE_BFLOAT162_MATH
// CUDA's bf16 pair arithmetic, each lane one correctly rounded bf16 operation (kernelport/backends/hip_bf16_pairs.py):
// the exact value in double, rounded to odd into double and float, then to nearest even into bf16
__device__ inline unsigned short kp_bf16_rne(float f)  // hip_bfloat16's own rounding (a NaN kept quiet)
{
    unsigned int u = __builtin_bit_cast(unsigned int, f);
    if (~u & 0x7f800000u) u += 0x7fffu + ((u >> 16) & 1u);
    else if (u & 0xffffu) u |= 0x10000u;
    return (unsigned short)(u >> 16);
}
__device__ inline float kp_bf16_odd(double x)  // x to float, rounded to odd
{
    float f = (float)x;
    if (x != x || (double)f == x) return f;
    unsigned int u = __builtin_bit_cast(unsigned int, f);
    if ((u & 0x7fffffffu) == 0x7f800000u) u = (u & 0x80000000u) | 0x7f7fffffu;  // beyond the largest float
    else if (!(u & 1u)) u += (__builtin_fabs((double)f) < __builtin_fabs(x)) ? 1u : 0xffffffffu;
    return __builtin_bit_cast(float, u);
}
__device__ inline hip_bfloat16 kp_bf16_round(double p, double c)  // p + c, p and c exact, correctly rounded
{
    double s = p + c;
    if (s - s == 0.0) {  // finite: the sum's error exactly (TwoSum), the sum stepped to odd toward it
        double b = s - p, e = (p - (s - b)) + (c - b);
        unsigned long long u = __builtin_bit_cast(unsigned long long, s);
        if (e != 0.0 && !(u & 1ull)) s = __builtin_bit_cast(double, u + (((e > 0.0) == (s > 0.0)) ? 1ull : ~0ull));
    }
    hip_bfloat16 r;
    r.data = kp_bf16_rne(kp_bf16_odd(s));
    return r;
}
__device__ inline hip_bfloat16 kp_bf16_fma(hip_bfloat16 a, hip_bfloat16 b, hip_bfloat16 c)
{
    return kp_bf16_round((double)(float)a * (double)(float)b, (double)(float)c);  // the product exact in double
}
__device__ inline hip_bfloat16 kp_bf16_neg(hip_bfloat16 a)
{
    a.data ^= 0x8000u;
    return a;
}
__device__ inline kp_bfloat162 kp_bfloat162_of(hip_bfloat16 x, hip_bfloat16 y)
{
    kp_bfloat162 r;
    r.x = x;
    r.y = y;
    return r;
}
__device__ inline kp_bfloat162 kp_bfloat162_rn(float x, float y) { return kp_bfloat162_of(hip_bfloat16(x), hip_bfloat16(y)); }
__device__ inline kp_bfloat162 kp_bfloat162_dup_rn(float x) { return kp_bfloat162_rn(x, x); }
__device__ inline float2 kp_bfloat162_float2(kp_bfloat162 a) { return make_float2((float)a.x, (float)a.y); }
__device__ inline hip_bfloat16 kp_bfloat162_low(kp_bfloat162 a) { return a.x; }
__device__ inline hip_bfloat16 kp_bfloat162_high(kp_bfloat162 a) { return a.y; }
__device__ inline float __low2float(kp_bfloat162 a) { return (float)a.x; }
__device__ inline float __high2float(kp_bfloat162 a) { return (float)a.y; }
__device__ inline kp_bfloat162 __hadd2(kp_bfloat162 a, kp_bfloat162 b)
{
    return kp_bfloat162_of(kp_bf16_round((float)a.x, (float)b.x), kp_bf16_round((float)a.y, (float)b.y));
}
__device__ inline kp_bfloat162 __hsub2(kp_bfloat162 a, kp_bfloat162 b)
{
    return kp_bfloat162_of(kp_bf16_round((float)a.x, -(double)(float)b.x), kp_bf16_round((float)a.y, -(double)(float)b.y));
}
__device__ inline kp_bfloat162 __hmul2(kp_bfloat162 a, kp_bfloat162 b)
{
    // (+ -0: a product's zero keeps its sign, as fma.rn's a * b - 0)
    return kp_bfloat162_of(kp_bf16_round((double)(float)a.x * (float)b.x, -0.0), kp_bf16_round((double)(float)a.y * (float)b.y, -0.0));
}
__device__ inline kp_bfloat162 __hfma2(kp_bfloat162 a, kp_bfloat162 b, kp_bfloat162 c)
{
    return kp_bfloat162_of(kp_bf16_fma(a.x, b.x, c.x), kp_bf16_fma(a.y, b.y, c.y));
}
__device__ inline kp_bfloat162 __hneg2(kp_bfloat162 a) { return kp_bfloat162_of(kp_bf16_neg(a.x), kp_bf16_neg(a.y)); }
__device__ inline kp_bfloat162 operator+(kp_bfloat162 a, kp_bfloat162 b) { return __hadd2(a, b); }
__device__ inline kp_bfloat162 operator-(kp_bfloat162 a, kp_bfloat162 b) { return __hsub2(a, b); }
__device__ inline kp_bfloat162 operator*(kp_bfloat162 a, kp_bfloat162 b) { return __hmul2(a, b); }
__device__ inline kp_bfloat162 operator-(kp_bfloat162 a) { return __hneg2(a); }
__device__ inline kp_bfloat162& operator+=(kp_bfloat162& a, kp_bfloat162 b) { return a = __hadd2(a, b); }
__device__ inline kp_bfloat162& operator-=(kp_bfloat162& a, kp_bfloat162 b) { return a = __hsub2(a, b); }
__device__ inline kp_bfloat162& operator*=(kp_bfloat162& a, kp_bfloat162 b) { return a = __hmul2(a, b); }
#endif
"""


def definitions(body: str) -> str:
    """The polyfill where `body` names the pair ("" where not): after the prologue's `kp_bfloat162`."""
    return POLYFILL if "kp_bfloat162" in body else ""
