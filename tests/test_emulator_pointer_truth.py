"""A pointer as a condition (ppf-contact-solver's block scan, heldout40: `if (d_block_sums && tid == last)`,
an optional output): the emulator took its truth value as a number's and stopped with an internal
error ("'Pointer' object has no attribute 'dtype'"), so verify could not run the kernel.  A pointer
the emulator holds always points into a buffer (a null pointer stays the integer 0): true."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

SRC = """__global__ void k(float* out, const float* x, float* sums)
{
    int t = threadIdx.x;
    out[t] = x[t];
    if (sums && t == 0) sums[0] = 1.0f;
    if (!sums) out[t] = -1.0f;
    float* none = 0;
    if (none || t == 1) out[t] = 2.0f;
}
"""


def test_a_pointer_condition_is_true_and_a_null_one_false():
    got = run_kernel(SRC, "k", args={"out": np.zeros(4, np.float32), "x": np.arange(4, dtype=np.float32),
                                     "sums": np.zeros(1, np.float32)},
                     grid=(1,), block=(4,), wave=32, schedule="block", seed=1)
    out = got["out"] if isinstance(got, dict) else got.outputs["out"]
    sums = got["sums"] if isinstance(got, dict) else got.outputs["sums"]
    assert list(out) == [0.0, 2.0, 2.0, 3.0] and list(sums) == [1.0]
