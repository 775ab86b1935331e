"""The unsuffixed C math functions are C++ overloads in CUDA, HIP and MSL: `sqrt(x)`, `fma(a, b, c)`,
`fmin(x, y)` of float arguments are the float functions, so the result is a float and what follows
computes in float; a double argument or only integers call the double function.  The emulator used the
double function for every unsuffixed name, and the GPU run of llm.c's adamw (its `lerp` is
`fma(w, end, fma(-w, start, start))` on floats) differed from it by 4 float ulps.  The reference here
is numpy's float32 and float64 arithmetic, written out per case."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

SOURCE = """
__global__ void k(const float* a, const double* d, const int* n, float* f_out, float* d_out, float* i_out) {
    int i = threadIdx.x;
    f_out[i] = (sqrt(a[i]) + 1e-8f) - sqrt(a[i]);                  // float: 1 + 1e-8f rounds to 1
    f_out[i + 4] = (fma(a[i], a[i], 1e-8f) - a[i] * a[i]) * 1e8f;  // float fma: 1e-8 is lost beside a*a
    f_out[i + 8] = (fmin(a[i], 2.0f) + 1e-8f) - fmin(a[i], 2.0f);
    d_out[i] = (float)(((sqrt(d[i]) + 1e-8) - sqrt(d[i])) * 1e8);  // a double argument: the double sqrt
    i_out[i] = (float)(((sqrt(n[i]) + 1e-8) - sqrt(n[i])) * 1e8);  // only an integer: the double sqrt
}
"""


def test_float_arguments_call_the_float_function_and_double_or_integer_arguments_the_double():
    a = np.array([1.0, 1.0, 1.0, 1.0], np.float32)
    out = run_kernel(SOURCE, "k", args={"a": a, "d": a.astype(np.float64), "n": np.ones(4, np.int32),
                                       "f_out": np.full(12, 7.0, np.float32), "d_out": np.zeros(4, np.float32),
                                       "i_out": np.zeros(4, np.float32)},
                     grid=(1,), block=(4,)).outputs
    one, tiny = np.float32(1.0), np.float32(1e-8)
    assert (one + tiny) - one == 0.0  # the reference: float32 loses 1e-8 beside 1
    np.testing.assert_array_equal(out["f_out"], np.zeros(12, np.float32))
    want = np.float32(((np.float64(1.0) + 1e-8) - 1.0) * 1e8)
    assert abs(want - 1.0) < 1e-6  # float64 keeps it
    np.testing.assert_array_equal(out["d_out"], np.full(4, want))
    np.testing.assert_array_equal(out["i_out"], np.full(4, want))
