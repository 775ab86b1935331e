"""nvcc contracts every float `a*b + c` it sees into one fused multiply-add (-fmad=true, the default), and
not only that spelling: `x += a*b` (llm.c's `v += (res - m) * (res - m)` variance loops), `a*b - c`
(fma(a, b, -c)) and `c - a*b` (fma(-a, b, c)), `x -= a*b` too.  The emulator contracted only `a*b + c`.
(Found while tracing llm.c's fused_residual_forward_kernel5, whose GPU run differs from the emulator's by
7.5e-8 on one output near zero, bench/device/oracle_device_h200_47.txt: this was not that cause, the
emulator's value is unchanged by it; that element's error bound is lost where Packed128's bits pass
through an int4 `__stcs`.)  The reference is numpy: a fused result is the exact a*b + c rounded once
(float64 holds a product of two floats exactly), an unfused one rounds a*b first; the operands make the
two differ."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel

SOURCE = """
__global__ void k(const float* a, const float* b, const float* c, float* out) {
    int i = threadIdx.x;
    float x = c[i];
    x += a[i] * b[i];
    out[i] = x;
    float y = c[i];
    y -= a[i] * b[i];
    out[i + 4] = y;
    out[i + 8] = a[i] * b[i] - c[i];
    out[i + 12] = c[i] - a[i] * b[i];
    out[i + 16] = c[i];
    out[i + 16] += a[i] * b[i];   // through memory
    int n = 1;
    n += 2 * 3;                   // integers: no fma
    out[i + 20] = (float)n;
}
"""

E = np.float32(2.0 ** -13)
A = np.full(4, 1 + E, np.float32)
B = np.full(4, 1 - E, np.float32)


def _fused(a, b, c):
    return np.float32(np.float64(a) * np.float64(b) + np.float64(c))


@pytest.mark.parametrize("contract", [True, False])
def test_accumulate_and_subtract_forms_fuse_as_nvcc_does(contract):
    c = np.full(4, -1.0, np.float32)
    out = run_kernel(SOURCE, "k", args={"a": A, "b": B, "c": c, "out": np.zeros(24, np.float32)},
                     grid=(1,), block=(4,), contract=contract).outputs["out"]
    a, b = A[0], B[0]
    assert a * b == np.float32(1.0)  # the product rounded alone loses 2^-26
    if contract:
        want = [_fused(a, b, -1.0), _fused(-a, b, -1.0), _fused(a, b, 1.0), _fused(-a, b, -1.0),
                _fused(a, b, -1.0)]
        assert want[0] == np.float32(-(2.0 ** -26))  # the fused sum keeps it
    else:
        p = a * b
        want = [p - 1, -1 - p, p + 1, -1 - p, p - 1]
    for j, w in enumerate(want):
        np.testing.assert_array_equal(out[4 * j:4 * j + 4], np.full(4, w, np.float32), err_msg=f"form {j}")
    np.testing.assert_array_equal(out[20:24], np.full(4, 7.0, np.float32))
