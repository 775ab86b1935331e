"""PTX's conversions between f32 and an f16's bits in a 16-bit register (`cvt.rn.f16.f32 h, f`, `cvt.f32.f16 f, h`:
kernelport/ptx_idioms.py's forms) as HIP functions over hip_fp16's: a float rounded to the nearest even half (ROCm's
`__float2half_rn`, a `_Float16` conversion) and a half's exact float.  A NaN converts to a NaN (PTX's canonical NaN
and ROCm's may differ in their payload bits)."""
from __future__ import annotations

SPELLINGS = {"ptx_cvt_rn_f16_f32": "kp_cvt_rn_f16_f32({x})", "ptx_cvt_f32_f16": "kp_cvt_f32_f16({x})"}  # the concepts'

POLYFILL = """
#ifndef KP_HAVE_PTX_HALF  // also defined by another port in this translation unit (a header's)
#define KP_HAVE_PTX_HALF
#include <hip/hip_fp16.h>  // (the file's own include of it comes after the prologue)
// PTX's cvt.rn.f16.f32 (f rounded to the nearest even half, its bits) and cvt.f32.f16 (a half's bits, exact)
__device__ inline unsigned short kp_cvt_rn_f16_f32(float f) { return __half_as_ushort(__float2half_rn(f)); }
__device__ inline float kp_cvt_f32_f16(unsigned short h) { return __half2float(__ushort_as_half(h)); }
#endif
"""


def definitions(body: str) -> str:
    """The polyfill where `body` calls one of its functions ("" where none)."""
    return POLYFILL if "kp_cvt_rn_f16_f32(" in body or "kp_cvt_f32_f16(" in body else ""
