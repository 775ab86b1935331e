"""A device function the file defines in a namespace, called qualified (heldout60's bitonic sorts:
`util::compare_and_swap(data, i, j, up)` of `namespace util { __device__ void compare_and_swap(...) }`):
the emulator runs it (emulator/frontend/namespaces.py).  Before, "unknown function `util::compare_and_swap`"
and verify --oracle original ran none of the 12 kernels.  Look-alikes: a name two namespaces define, or a
namespace and the file scope, stays a located refusal (the run never calls the other definition)."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

KERNEL = r"""
namespace util {
__device__ __forceinline__ int twice(int v) { return 2 * v; }
namespace deep { __device__ int plus(int v, int k) { return v + k; } }
__device__ int both(int v) { return deep::plus(twice(v), 1); }
}
__global__ void k(const int *x, int *y) {
  int i = threadIdx.x;
  y[i] = CALL;
}
"""


def _run(src):
    x = np.arange(8, dtype=np.int32)
    return run_kernel(src, "k", args={"x": x, "y": np.zeros(8, np.int32)}, grid=(1,), block=(8,)).outputs["y"]


@pytest.mark.parametrize("call, want", [("util::twice(x[i])", 2 * np.arange(8)),
                                        ("util::deep::plus(x[i], 3)", np.arange(8) + 3),
                                        ("deep::plus(x[i], 3)", np.arange(8) + 3),
                                        ("::util::both(x[i])", 2 * np.arange(8) + 1),
                                        ("util :: twice(x[i]) + util::both(1)", 2 * np.arange(8) + 3)])
def test_qualified_calls_of_the_files_namespaces(call, want):
    np.testing.assert_array_equal(_run(KERNEL.replace("CALL", call)), want)


@pytest.mark.parametrize("extra", ["namespace other { __device__ int twice(int v) { return 3 * v; } }",
                                   "__device__ int twice(int v) { return 3 * v; }"])
def test_a_name_defined_twice_stays_refused(extra):
    src = KERNEL.replace("__global__", extra + "\n__global__").replace("CALL", "util::twice(x[i])")
    with pytest.raises(EmulatorError, match="util::twice"):
        _run(src)
