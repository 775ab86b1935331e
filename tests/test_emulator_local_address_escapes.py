"""A local's address the emulator cannot honour is refused at its line, never run wrong (stop 65).

`&x` passed to a helper is a temporary copied back when the call returns (emulator/addressed.py); a helper
that RETURNS a pointer may hand back one into that temporary (`float* at(float4* v, int i)`, the pointer form
of llm.c's `float& vec_at(float4&, int)`), and a store through it after the call was silently lost (a wrong
oracle).  `&v.z` of a vector variable was an internal error ('ComponentLV' object has no attribute 'ptr_fn').
Look-alikes: a pointer-returning helper given a buffer's pointer, and an int-returning helper given `&x`,
still run."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError

SRC = """
__device__ float* at(float4* v, int i) { return &(((float*)v)[i]); }
__device__ int bump(float4* v) { v->z += 1.0f; return 3; }
__global__ void k(float4* x, float* out) {
    float4 v = x[threadIdx.x];
    BODY
    out[threadIdx.x] = v.z;
}
"""


def _run(body):
    x = np.arange(16, dtype=np.float32)
    return run_kernel(SRC.replace("BODY", body), "k", args={"x": x, "out": np.zeros(4, np.float32)},
                      grid=(1, 1, 1), block=(4, 1, 1)).outputs


@pytest.mark.parametrize("body", ["*at(&v, 2) = 7.0f;", "float* p = &v.z; *p = 7.0f;"])
def test_a_pointer_into_a_local_is_refused_at_its_line(body):
    with pytest.raises(EmulatorError) as e:
        _run(body)
    assert e.value.line == 6, e.value


def test_a_buffer_s_pointer_and_an_int_result_still_run():
    out = _run("*at(x + threadIdx.x, 2) = 7.0f; int b = bump(&v); v.z += *at(x + threadIdx.x, 2) + b;")["out"]
    np.testing.assert_array_equal(out, np.arange(16, dtype=np.float32).reshape(4, 4)[:, 2] + 7 + 1 + 3)
