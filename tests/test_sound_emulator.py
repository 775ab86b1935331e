"""Emulator features real kernels need (issue 12): math constants, C++ reference out-parameters,
functional casts in kernelport's own helpers, kernelport's own kp_syncwarp, Metal's `x & 15`."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel

CONSTANTS = """
#include <math.h>
#include <float.h>
__global__ void k(float* out, int* iout) {
    out[0] = -INFINITY; out[1] = FLT_MAX; out[2] = NAN; out[3] = M_PI; out[4] = FLT_EPSILON;
    iout[0] = INT_MAX; iout[1] = INT_MIN;
}
"""


def test_math_and_float_constants():
    r = run_kernel(CONSTANTS, "k", args=dict(out=np.zeros(5, np.float32), iout=np.zeros(2, np.int32)),
                   grid=(1, 1, 1), block=(1, 1, 1))
    o, i = r.outputs["out"], r.outputs["iout"]
    assert o[0] == -np.inf and o[1] == np.finfo(np.float32).max and np.isnan(o[2])
    assert o[3] == np.float32(np.pi) and o[4] == np.finfo(np.float32).eps
    assert list(i) == [2**31 - 1, -2**31]


REFS = """
__device__ void minmax(float v, float& lo, float& hi) { if (v < lo) lo = v; if (v > hi) hi = v; }
__device__ void swap_if(int& a, int& b) { if (a > b) { int t = a; a = b; b = t; } }
__global__ void k(const float* x, float* out, int* s) {
    float lo = 1e30f, hi = -1e30f;
    for (int i = 0; i < 4; ++i) minmax(x[threadIdx.x * 4 + i], lo, hi);
    out[threadIdx.x * 2] = lo; out[threadIdx.x * 2 + 1] = hi;
    int a = s[threadIdx.x * 2], b = s[threadIdx.x * 2 + 1];
    if (threadIdx.x % 2 == 0) swap_if(a, b);   // divergent: only even lanes swap
    s[threadIdx.x * 2] = a; s[threadIdx.x * 2 + 1] = b;
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_reference_out_parameters_are_written_back_per_lane(wave):
    x = np.arange(64 * 4, dtype=np.float32)[::-1].copy()
    s = np.tile(np.array([5, 1], np.int32), 64)
    r = run_kernel(REFS, "k", args=dict(x=x, out=np.zeros(128, np.float32), s=s), grid=(1, 1, 1),
                   block=(64, 1, 1), wave=wave)
    out = r.outputs["out"].reshape(64, 2)
    assert (out[:, 0] == x.reshape(64, 4).min(1)).all() and (out[:, 1] == x.reshape(64, 4).max(1)).all()
    pairs = r.outputs["s"].reshape(64, 2)
    assert (pairs[0::2] == [1, 5]).all() and (pairs[1::2] == [5, 1]).all()


METAL = """
#include <metal_stdlib>
using namespace metal;
template <typename T>
inline T kp_simd_shuffle_down(T v, uint delta, uint width, uint lane)
{
    T r = simd_shuffle_down(v, ushort(delta));
    return (lane & (width - 1u)) + delta < width ? r : v;
}
kernel void k(device float* x [[buffer(0)]], uint3 tid [[thread_position_in_threadgroup]],
              uint simd_lane [[thread_index_in_simdgroup]]) {
    float v = x[tid.x];
    for (int o = 8; o > 0; o /= 2) v += kp_simd_shuffle_down(v, o, 16, simd_lane);
    if ((tid.x & 15) == 0) x[tid.x] = v;
}
"""


def test_metal_template_helper_with_functional_cast_and_bitwise_and():
    x = np.arange(32, dtype=np.float32)
    r = run_kernel(METAL, "k", args=dict(x=x.copy()), grid=(1, 1, 1), block=(32, 1, 1), backend="metal")
    assert r.outputs["x"][0] == x[:16].sum() and r.outputs["x"][16] == x[16:].sum()


PORTABLE_SYNCWARP = """
__device__ inline void kp_syncwarp()
{
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
    __builtin_amdgcn_wave_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
__global__ void k(float* x) {
    __shared__ float s[64];
    s[threadIdx.x] = x[threadIdx.x];
    kp_syncwarp();
    x[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
"""


def test_kernelports_own_syncwarp_runs_as_the_wave_barrier():
    x = np.arange(64, dtype=np.float32)
    r = run_kernel(PORTABLE_SYNCWARP, "k", args=dict(x=x.copy()), grid=(1, 1, 1), block=(64, 1, 1), wave=64,
                   backend="hip")
    assert (r.outputs["x"] == np.roll(x, -1)).all()
