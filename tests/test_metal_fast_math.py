"""CUDA's single-precision fast intrinsics in a Metal port (MSL 6.5: the fast:: forms of the math
functions) and their error bounds in the emulator (CUDA programming guide, "Intrinsic Functions")."""
from __future__ import annotations

import numpy as np

from conftest import metal_checked
from kernelport.emulator.run import run_kernel


def test_fast_log2_log10_tan_are_metal_fast_forms():
    # rodinia backprop's `__log2f(HEIGHT)`: refused KP223 ('__log2f' defined neither here nor in Metal) before
    out = metal_checked("""
        __global__ void k(float* x)
        {
            x[0] = __log2f(x[0]) + __log10f(x[1]) * __tanf(x[2]);
            x[1] = log2f(x[1]) + log10f(x[2]) + tanf(x[3]);
        }
    """)
    assert "__log2f(x[0]) + __log10f(x[1]) * __tanf(x[2])" in out
    for name, metal in (("__log2f", "log2"), ("__log10f", "log10"), ("__tanf", "tan")):
        assert f"inline float {name}(float x) {{ return fast::{metal}(x); }}" in out
    assert "precise::log2(x[1]) + precise::log10(x[2]) + precise::tan(x[3])" in out


def test_fast_intrinsics_of_ints_convert_as_cuda_does():
    # backprop's `__powf(2, i)` and `__log2f(HEIGHT)` of ints: Metal's fast::pow/log2 take float types only
    # (KP224 'no matching function for call to log2' before); CUDA's signature converts them to float
    out = metal_checked("""
        #define HEIGHT 16
        __global__ void k(int* x)
        {
            for (int i = 1; i <= __log2f(HEIGHT); i++) x[i] = __powf(2, i) + __expf(i);
        }
    """)
    assert "i <= __log2f(HEIGHT)" in out and "x[i] = __powf(2, i) + __expf(i);" in out
    assert "inline float __powf(float x, float y) { return fast::pow(x, y); }" in out


def test_a_project_definition_of_the_signature_is_not_defined_twice():
    out = metal_checked("""
        __device__ float __log2f(float x) { return log2f(x); }
        __global__ void k(float* x) { x[0] = __log2f(x[0]); }
    """)
    assert "return fast::log2(x)" not in out


def test_fast_log2_bound_holds_near_one_where_cuda_bounds_it_absolutely():
    # __log2f(x) for x in [0.5, 2]: at most 2^-22 off (absolute), where a relative bound of log2(1) = 0 is 0
    src = "__global__ void k(const float* x, float* y) { int i = threadIdx.x; y[i] = __log2f(x[i]); }"
    x = np.array([1.0, 1.5, 4.0, 0.25], dtype=np.float32)
    r = run_kernel(src, "k", args=dict(x=x, y=np.zeros(4, np.float32)), grid=(1, 1, 1), block=(4, 1, 1))
    bound = r.bounds["y"]
    assert bound[0] >= 2.0 ** -22 and bound[1] >= 2.0 ** -22  # in [0.5, 2]
    assert bound[2] < 2.0 ** -20 and bound[3] < 2.0 ** -20    # outside it: ulps of |log2 x| = 2
    assert np.allclose(r.outputs["y"], np.log2(x))
