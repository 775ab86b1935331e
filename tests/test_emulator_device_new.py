"""`new T[n]` / `delete[] p` in device code run on the device heap as malloc / free do (heldout64 2DMeanField's
`float *channelSum = new float[dim]; ... delete[] channelSum;` in its filters: before, "cannot lower for the
emulator: before: float").  Look-alikes: names that contain the words (`renew`, `deleted`) are untouched, and
a scalar `new T(x)` (a constructor call) stays a located refusal."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel
from kernelport.emulator.frontend.device_new import lower_new

KERNEL = r"""
__device__ float sum_of(const float *x, int i, int dim) {
  float *acc = new float[dim + 1];
  for (int k = 0; k <= dim; k++) acc[k] = x[i * dim + k % dim] * k;
  float s = 0.0f;
  for (int k = 0; k <= dim; k++) s += acc[k];
  delete[] acc;
  return s;
}
__global__ void k(const float *x, float *y, int dim) {
  int i = threadIdx.x;
  int deleted = 0, renew = 1;
  y[i] = sum_of(x, i, dim) + deleted + renew;
}
"""


def _run(src):
    x = np.arange(32, dtype=np.float32)
    return run_kernel(src, "k", args={"x": x, "y": np.zeros(8, np.float32), "dim": np.int32(4)},
                      grid=(1,), block=(8,)).outputs["y"]


def test_new_and_delete_of_an_array_run_on_the_heap():
    x = np.arange(32, dtype=np.float32).reshape(8, 4)
    want = np.array([sum(x[i, k % 4] * k for k in range(5)) for i in range(8)], np.float32) + 1
    np.testing.assert_array_equal(_run(KERNEL), want)


def test_the_rewrite_leaves_look_alikes():
    assert lower_new("int deleted = 0; renew(x); p = new float[n * 2]; delete [] p;") == \
        "int deleted = 0; renew(x); p = ((float *)malloc(sizeof(float) * (n * 2))); free(p);"
    assert lower_new("q = new unsigned int[a[i]];") == "q = ((unsigned int *)malloc(sizeof(unsigned int) * (a[i])));"
    assert lower_new("float *f = new float(3.0f);") == "float *f = new float(3.0f);"
    assert lower_new("p = new float[n; q = 1;") == "p = new float[n; q = 1;"  # unterminated: as written


def test_an_unterminated_new_is_a_located_error():
    src = KERNEL.replace("float *acc = new float[dim + 1];", "float *acc = new float[dim + 1;")
    with pytest.raises(EmulatorError) as e:
        _run(src)
    assert e.value.line is not None, e.value


def test_a_scalar_new_with_a_constructor_stays_refused():
    src = KERNEL.replace("float *acc = new float[dim + 1];", "float *acc = new float(3.0f);")
    with pytest.raises(EmulatorError) as e:
        _run(src)
    assert e.value.line == 3, e.value
