"""One object name declared with two classes in one function (review66a of metal66's plain classes in the emulator).

`{ S s = {x}; r += s.get(); } { T s = {x}; r += s.get(); }` with S and T of the same field `a`: classdata bound each
name to its first declaration's class, so the second block called S's get on the T object (its fields line up):
x where CUDA gives 2x, with no error.  Such a name is now left as written, a located error; the same class declared
again keeps running."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

CUDA = """struct S {
    float a;
    __device__ float get() const { return a; }
};
struct T {
    float a;
    __device__ float get() const { return a * 2; }
};
__global__ void k(float* out, const float* in) {
    int i = threadIdx.x;
    float r = 0;
    { S s = {in[i]}; r += s.get(); }
    { SECOND s = {in[i]}; r += s.get(); }
    out[i] = r;
}
"""


def _run(src: str) -> np.ndarray:
    return run_kernel(src, "k", args={"out": np.zeros(8, np.float32), "in": np.arange(8, dtype=np.float32)},
                      grid=(1,), block=(8,), backend="cuda").outputs["out"]


def test_a_name_of_two_classes_is_refused_at_its_use():
    with pytest.raises(EmulatorError) as e:
        _run(CUDA.replace("SECOND", "T"))
    assert "<kernel>:12:" in str(e.value), str(e.value)  # the first use (main: 0, 2, 4, ... where CUDA gives 0, 3, 6, ...)


def test_the_same_class_declared_again_runs():
    np.testing.assert_array_equal(_run(CUDA.replace("SECOND", "S")), 2 * np.arange(8, dtype=np.float32))
