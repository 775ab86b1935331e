"""The emulator runs C's `frexp(x, &e)` (the mantissa returned, the exponent written through the pointer)
and `ldexp(x, n)`, double and float (kernelport/emulator/modf_calls.py, intrinsics.c_library).  Found on
heldout98's certified interval kernels: the HIP port's directed-rounding prologue (ROCm 5.2 lacks
`__dadd_ru` and its kin) scales operands with frexp / ldexp, so `verify --oracle original` could not run the
port ("unknown function `frexp`") while the original ran.  Exact values against numpy's; an unknown
function beside them (`frexpl`) is still the emulator's located error."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError

KERNEL = """__global__ void scale(const double *x, const float *y, double *m, int *e, float *g, int *h, double *back) {
    int i = threadIdx.x;
    int ex;
    m[i] = frexp(x[i], &ex);
    e[i] = ex;
    g[i] = frexpf(y[i], &h[i]);
    back[i] = ldexp(m[i], ex) + (double)ldexpf(g[i], h[i]);
}
"""
X = np.array([0.75, -3.0, 1e-310, 6.5e300, 1.0, -0.1, 1024.0, 3.0], np.float64)
Y = np.array([0.3, -8.0, 1e-40, 3e38, 1.0, -0.5, 7.0, 2.5], np.float32)


def _run(src: str):
    n = len(X)
    args = {"x": X.copy(), "y": Y.copy(), "m": np.zeros(n), "e": np.zeros(n, np.int32), "g": np.zeros(n, np.float32),
            "h": np.zeros(n, np.int32), "back": np.zeros(n)}
    return run_kernel(src, "scale", args=args, grid=(1,), block=(n,)).outputs


def test_frexp_and_ldexp_are_exact():
    r = _run(KERNEL)
    m, e = np.frexp(X)
    g, h = np.frexp(Y)
    np.testing.assert_array_equal(r["m"], m)
    np.testing.assert_array_equal(r["e"], e)
    np.testing.assert_array_equal(r["g"], g)
    np.testing.assert_array_equal(r["h"], h)
    np.testing.assert_array_equal(r["back"], X + Y.astype(np.float64))


def test_a_function_it_does_not_know_is_still_a_located_error():
    with pytest.raises(EmulatorError, match="frexpl"):
        _run(KERNEL.replace("frexp(x[i], &ex)", "frexpl(x[i], &ex)"))
