"""A global-scope qualified call (`::sqrt(gx * gx + gy * gy)`, heldout85's gpu-conv sobelConvolution: "cannot
lower for the emulator: Invalid expression") names the file-scope function or builtin.  Look-alikes: a
qualified name (`std::`, `S<T>::f`) is not touched, and `::twice` where a namespace of the file also defines
`twice` stays qualified, a located refusal rather than a call of the namespace's one."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel
from kernelport.emulator.frontend.items import Item
from kernelport.emulator.frontend.namespaces import unqualify

KERNEL = r"""
__device__ float twice(float v) { return 2.0f * v; }
__global__ void k(const float* x, float* y) {
  int i = threadIdx.x;
  y[i] = ::sqrtf(x[i] * x[i] + 1.0f) + ::twice(x[i]);
}
"""

CLASH = r"""
namespace m { __device__ float twice(float v) { return 3.0f * v; } }
__device__ float twice(float v) { return 2.0f * v; }
__global__ void k(const float* x, float* y) {
  int i = threadIdx.x;
  y[i] = ::twice(x[i]);
}
"""


def _run(src):
    x = np.arange(8, dtype=np.float32)
    return run_kernel(src, "k", args={"x": x, "y": np.zeros(8, np.float32)}, grid=(1,), block=(8,)).outputs["y"]


def test_a_global_qualified_call_runs():
    x = np.arange(8, dtype=np.float32)
    np.testing.assert_allclose(_run(KERNEL), np.sqrt(x * x + 1) + 2 * x, rtol=1e-6)


def test_qualified_names_are_left_alone():
    it = Item("y = std::max(a, b) + S<T>::f(a) + a ? ::g(b) : c;", "x.cu", 1, "device", "f")
    unqualify([it])
    assert it.text == "y = std::max(a, b) + S<T>::f(a) + a ? g(b) : c;"


def test_a_name_a_namespace_also_defines_stays_qualified():
    with pytest.raises(EmulatorError, match=r":6:.*cannot lower"):
        _run(CLASH)
