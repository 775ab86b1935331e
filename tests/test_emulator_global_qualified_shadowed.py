"""`::scale` beside a parameter or local `scale` (review of stop 64's merge of h/verify64).

The emulator's front end writes a global-scope qualified name bare (`::sqrtf(v)` is `sqrtf(v)`).  Where the
function declares the same name itself, the bare name reads the parameter or local instead of the file's
variable: `y[i] = x[i] * ::scale + scale` with a parameter `scale` = 5 and `__device__ float scale = 2` ran
as `x[i] * 5 + 5` on main, silently (an oracle computing something else than the GPU does).  Such a name now
stays qualified: a located refusal.  Look-alike: `::scale` in a kernel that declares no `scale` runs and
reads the file's variable."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

SHADOWED = r"""
__device__ float scale = 2.0f;
__global__ void k(const float* x, float* y, float scale) {
  int i = threadIdx.x;
  y[i] = x[i] * ::scale + scale;
}
"""

SHADOWED_LOCAL = r"""
__device__ float scale = 2.0f;
__global__ void k(const float* x, float* y) {
  int i = threadIdx.x;
  float scale = 5.0f;
  y[i] = x[i] * ::scale + scale;
}
"""

PLAIN = r"""
__device__ float scale = 2.0f;
__global__ void k(const float* x, float* y, float bias) {
  int i = threadIdx.x;
  y[i] = x[i] * ::scale + bias;
}
"""

X = np.arange(4, dtype=np.float32)


def _run(src, **extra):
    return run_kernel(src, "k", args={"x": X, "y": np.zeros(4, np.float32), **extra}, grid=(1,), block=(4,))


@pytest.mark.parametrize("src, extra, line", [(SHADOWED, {"scale": np.float32(5)}, 5), (SHADOWED_LOCAL, {}, 6)])
def test_a_global_name_the_function_shadows_is_refused_located(src, extra, line):
    with pytest.raises(EmulatorError, match=rf":{line}:\d+: cannot lower"):
        _run(src, **extra)


def test_a_global_name_nothing_shadows_reads_the_file_s_variable():
    np.testing.assert_allclose(_run(PLAIN, bias=np.float32(5)).outputs["y"], X * 2 + 5)
