"""CUDA's `__dp4a` (sm_61+, device_functions.h: c plus the four products of a's and b's bytes) as the HIP port's
own `kp_dp4a`: ROCm 5.2 (the HIP backend's `api_checked_with`) declares no `__dp4a` (its `amd_mixed_dot` takes
char4 and a saturate flag), so the API table spells the call `kp_dp4a` and the prologue defines CUDA's four
overloads where a port calls one: int and char4 operands read as signed bytes, unsigned int and uchar4 as unsigned,
the sum in 32 bits that wrap (the instruction's; no saturation).  tests/test_hip_dp4a.py compiles the same text
with g++ and compares it with a model over edge and random operands."""
from __future__ import annotations

POLYFILL = """
#ifndef KP_HAVE_DP4A  // also defined by another port in this translation unit (a header's)
#define KP_HAVE_DP4A
// CUDA's __dp4a: c + the four byte products of a and b (signed for int / char4, unsigned for unsigned int / uchar4)
__device__ inline int kp_dp4a(int a, int b, int c)
{
    unsigned int s = (unsigned int)c;
    for (int j = 0; j < 32; j += 8) s += (unsigned int)((int)(signed char)(a >> j) * (int)(signed char)(b >> j));
    return (int)s;
}
__device__ inline unsigned int kp_dp4a(unsigned int a, unsigned int b, unsigned int c)
{
    unsigned int s = c;
    for (int j = 0; j < 32; j += 8) s += ((a >> j) & 0xffu) * ((b >> j) & 0xffu);
    return s;
}
__device__ inline unsigned int kp_dp4a_bytes(unsigned char x, unsigned char y, unsigned char z, unsigned char w)
{
    return (unsigned int)x | (unsigned int)y << 8 | (unsigned int)z << 16 | (unsigned int)w << 24;
}
__device__ inline int kp_dp4a(char4 a, char4 b, int c)
{
    return kp_dp4a((int)kp_dp4a_bytes(a.x, a.y, a.z, a.w), (int)kp_dp4a_bytes(b.x, b.y, b.z, b.w), c);
}
__device__ inline unsigned int kp_dp4a(uchar4 a, uchar4 b, unsigned int c)
{
    return kp_dp4a(kp_dp4a_bytes(a.x, a.y, a.z, a.w), kp_dp4a_bytes(b.x, b.y, b.z, b.w), c);
}
#endif
"""


def definitions(body: str) -> str:
    """The polyfill where `body` calls `kp_dp4a` ("" where none)."""
    return POLYFILL if "kp_dp4a(" in body else ""
