"""Overloads told apart by a vector parameter (ggml's `warp_reduce_sum(float)` beside
`warp_reduce_sum(float2)`, tests/corpus/ggml_norm.cu): a float2 argument takes the float2 definition.
The scorer read a vector's first component as a float and chose the scalar one, whose parameter
conversion then failed inside the emulator (`AttributeError: 'tuple' object has no attribute 'dtype'`:
verify ended with an internal error).  A vector given to a scalar variable is a located refusal."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

KERNEL = """
__device__ float twice(float x) { return 2.0f * x; }
__device__ float2 twice(float2 a) { a.x = 3.0f * a.x; a.y = 5.0f * a.y; return a; }

__global__ void k(const float* x, float* out) {
    int t = threadIdx.x;
    float2 v = make_float2(x[t], x[t] + 1.0f);
    v = twice(v);
    float s = twice(x[t]);
    out[t] = v.x + 10.0f * v.y + 100.0f * s;
}
"""


def test_a_vector_argument_takes_the_vector_overload():
    x = np.arange(4, dtype=np.float32)
    out = run_kernel(KERNEL, "k", args={"x": x, "out": np.zeros(4, np.float32)}, grid=(1, 1, 1),
                     block=(4, 1, 1)).outputs["out"]
    assert out.tolist() == [3 * v + 50 * (v + 1) + 200 * v for v in range(4)]
