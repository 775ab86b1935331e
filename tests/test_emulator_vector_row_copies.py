"""A vector stored whole from one array of vectors to another (HeCBench's radixsort
reorderDataKeysOnlyK: `sKeys2[i] = reinterpret_cast<const uint2*>(keys)[g];` into a shared uint2
array): the element read is the source's row, copied component by component into the destination's
row (its length the destination's: a uint2 is 2 scalars).  A row stored into a buffer of numbers
(which C++ refuses too) stays a located refusal, never its first component."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

SOURCE = r"""
__global__ void k(const unsigned int* keys, uint2* out, float4* quads) {
    __shared__ uint2 s[64];
    __shared__ float4 q[64];
    unsigned int i = threadIdx.x;
    s[i] = reinterpret_cast<const uint2*>(keys)[i];
    const float4* src = reinterpret_cast<const float4*>(quads);
    q[i] = src[i];
    __syncthreads();
    out[i] = s[63 - i];
    quads[i] = q[(i + 1) % 64];
}
"""


def _run(src=SOURCE):
    keys = np.arange(128, dtype=np.uint32)
    quads = np.arange(256, dtype=np.float32)
    return run_kernel(src, "k", args={"keys": keys, "out": np.zeros(128, np.uint32), "quads": quads},
                      grid=(1,), block=(64,)).outputs


def test_rows_of_vectors_are_copied_whole():
    out = _run()
    np.testing.assert_array_equal(out["out"].reshape(64, 2), np.arange(128, dtype=np.uint32).reshape(64, 2)[::-1])
    np.testing.assert_array_equal(out["quads"].reshape(64, 4), np.roll(np.arange(256).reshape(64, 4), -1, axis=0))


def test_a_row_stored_into_a_number_is_refused():
    src = SOURCE.replace("unsigned int i = threadIdx.x;", "unsigned int i = threadIdx.x;\n    unsigned int* flat = "
                         "reinterpret_cast<unsigned int*>(out);").replace("    out[i] = s[63 - i];",
                                                                          "    flat[i] = s[63 - i];")
    with pytest.raises(EmulatorError) as e:
        _run(src)
    assert "storing a pointer" in str(e.value) and ":" in str(e.value)
