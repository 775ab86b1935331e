"""An array bound nvcc folds from `const double` locals is a constant the emulator sizes arrays by too
(heldout65's Lyapunov kernels: `double L[dim][nMax + 1]` with `const int nMax = (t_final - t_init) / t_gsr`
over `const double`s).  Before, "`nMax` is not a constant expression" and verify failed the original's
CUDA row although translate's port (kernelport/folded_bounds.py) passed at 32 and 64.  Look-alikes: a
non-const local, or a const one from a run-time value, stays a located refusal.  (Float-typed pieces, `0.7f`
or a cast to float, were refused too until stop 59 typed the folder's values: tests/test_emulator_float_bounds.py.)"""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError

KERNEL = """
__global__ void k(const float* x, float* out) {
    const double t_init = 0;
    const double t_final = 10.0;
    const double t_gsr = 0.5;
    const int nMax = ((t_final - t_init) / t_gsr);
    float local[nMax + 1];
    for (int j = 0; j <= nMax; j++) local[j] = x[threadIdx.x] * j;
    float acc = 0.0f;
    for (int j = 0; j <= nMax; j++) acc += local[j];
    out[threadIdx.x] = acc;
}
"""


def _run(src):
    x = np.arange(4, dtype=np.float32)
    return run_kernel(src, "k", args={"x": x, "out": np.zeros(4, np.float32)}, grid=(1, 1, 1), block=(4, 1, 1))


def test_const_double_locals_fold_into_array_bounds():
    res = _run(KERNEL)
    np.testing.assert_array_equal(res.outputs["out"], np.arange(4, dtype=np.float32) * sum(range(21)))


@pytest.mark.parametrize("piece", ["double t_gsr = 0.5;", "const double t_gsr = 0.5 * x[0];"])
def test_float_pieces_and_plain_locals_stay_refused(piece):
    with pytest.raises(EmulatorError, match="`(t_gsr|nMax)` is not a constant expression") as e:
        _run(KERNEL.replace("const double t_gsr = 0.5;", piece))
    assert e.value.line == 7, e.value  # float local[nMax + 1]
