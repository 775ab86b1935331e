"""A C++ cast followed by `[i]` or `.f` casts its operand, as C++ reads it: `reinterpret_cast<const
uint4*>(keys)[g]` is row g of the keys viewed as uint4 (hecbench radixsort's loads).  Before, the front
end wrote `(const uint4*)(keys)[g]`, the cast of the integer keys[g] to a pointer: 'an integer
converted to a pointer that is not the address of one buffer', and verify's oracle did not run."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel

KERNEL = """
__global__ void k(const unsigned int* keys, unsigned int* out, const float* x, float* y) {
  int g = threadIdx.x;
  uint4 key = reinterpret_cast<const uint4*>(keys)[g];
  out[g] = key.x + key.w;
  y[g] = static_cast<float>(reinterpret_cast<const float2*>(x)[g].y) * 2.0f + static_cast<int>(x[g] * 4.0f);
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_a_cast_then_an_index_or_a_field_views_the_operand(wave):
    keys = np.arange(256, dtype=np.uint32)
    x = np.random.default_rng(2).uniform(-1, 1, 128).astype(np.float32)
    r = run_kernel(KERNEL, "k", args={"keys": keys, "out": np.zeros(64, np.uint32), "x": x,
                                      "y": np.zeros(64, np.float32)}, grid=(1, 1, 1), block=(64, 1, 1), wave=wave)
    assert r.outputs["out"].tolist() == (keys[0::4] + keys[3::4]).tolist()
    want = x[1::2] * np.float32(2) + np.trunc(x[:64] * np.float32(4)).astype(np.float32)
    np.testing.assert_array_equal(r.outputs["y"], want)
