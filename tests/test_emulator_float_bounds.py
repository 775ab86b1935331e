"""`const float` locals fold into array bounds as C computes them, in float (the task after c1833fe8, which folded
`const double` ones): the emulator's constant folder types its values as C does (`0.3f` and a cast to float in
np.float32, a double literal in np.float64, an int converted as C converts it), so `const int n = t1 / dt` over
`const float t1 = 9.0f, dt = 0.3f` is 29 (float: 29.999998), where a fold in doubles gives 30 (30.000000000000004)
and the kernel's loop over `n` (computed at run time in float) would disagree with the array's length.  Before,
"`n` is not a constant expression".  Look-alikes: the same over double literals is 30; a float local that is
not const stays a located refusal."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError

KERNEL = """
__global__ void k(const float* x, float* out) {
    const float t1 = T1;
    const float dt = DT;
    const int n = t1 / dt;
    float local[n + 1];
    for (int j = 0; j <= n; j++) local[j] = x[threadIdx.x] + j;
    float acc = 0.0f;
    for (int j = 0; j <= n; j++) acc += local[j];
    out[threadIdx.x] = acc + 1000.0f * n;
}
"""


def _run(t1="9.0f", dt="0.3f", src=KERNEL):
    return run_kernel(src.replace("T1", t1).replace("DT", dt), "k", grid=(1, 1, 1), block=(4, 1, 1),
                      args={"x": np.arange(4, dtype=np.float32), "out": np.zeros(4, np.float32)}).outputs["out"]


def _want(n):
    x = np.arange(4, dtype=np.float32)
    return np.array([sum(np.float32(v) + j for j in range(n + 1)) for v in x], np.float32) + 1000.0 * n


@pytest.mark.parametrize("t1, dt, n", [("9.0f", "0.3f", 29),  # computed in float, as C: 29.999998
                                       ("(float)9", "(float)0.3", 29),  # casts to float round likewise
                                       ("9", "0.3f", 29),  # an int converted to float
                                       ("9.0", "0.3", 29),  # double literals initialise floats: each rounds to float
                                       ("1.0f", "0.25f", 4)])
def test_const_float_locals_fold_into_array_bounds_in_float(t1, dt, n):
    np.testing.assert_array_equal(_run(t1, dt), _want(n))


def test_double_locals_fold_in_double():
    src = KERNEL.replace("const float t1", "const double t1").replace("const float dt", "const double dt")
    np.testing.assert_array_equal(_run("9.0", "0.3", src), _want(30))


def test_a_non_const_float_local_stays_refused():
    with pytest.raises(EmulatorError, match="`n` is not a constant expression|`dt` is not a constant expression"):
        _run(src=KERNEL.replace("const float dt", "float dt"))


@pytest.mark.parametrize("init", ["1.0 / 0", "0.0f / 0.0f", "1e30f * 1e30f"])
def test_a_non_finite_constant_is_no_array_length_and_no_traceback_or_warning(init):
    """`const int n = 1.0 / 0;`: the folder's inf (IEEE's, as C's) is no int: n is computed at run time, and
    numpy's overflow or invalid-value warnings do not reach the user's terminal."""
    src = KERNEL.replace("const int n = t1 / dt;", f"const int n = {init};").replace("float local[n + 1];",
                                                                                   "float local[8];")
    src = src.replace("j <= n", "j < 8").replace("1000.0f * n", "0.0f * t1 * dt")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = _run(src=src)
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(got, np.array([sum(v + j for j in range(8)) for v in x], np.float32))
