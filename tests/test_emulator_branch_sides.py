"""heldout89 fuzzy.cu's FillWeightArrayS_out_Kernel / FillWeightArrayG_out_Kernel: the GPU gave
`WeightArray_dev[0] = -1.29...`, the emulator 0.0 / -0.0.  Not the emulator's math: the original stores
element 0 from three threads of one warp (`int x = horizontal_line - i` truncates, so i = 0, 1, 2 all map
to y = 0), two on the else side of `if (x < 0)` and one on the then side.  CUDA orders neither side of a
divergent branch before the other; the emulator ran the then side first and its oracle compared a value the
GPU need not give.  Now one warp's stores of different values on the two sides of one divergent if are a
write-write race (emulator/branch_sides.py), and the oracle does not compare such a kernel.  Look-alikes:
a store after the if (ordered by reconvergence), a uniform branch, equal values."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel


def _races(body, x=(1, -1, 1, -1), block=4):
    src = "__global__ void k(float *o, const float *x) { int i = threadIdx.x; %s }" % body
    xs = np.resize(np.array(x, np.float32), block)
    return run_kernel(src, "k", args={"o": np.zeros(4, np.float32), "x": xs}, grid=(1,), block=(block,),
                      global_races=True).global_races


@pytest.mark.parametrize("body, x, block, race", [
    ("if (x[i] > 0) o[0] = 1.0f; else o[0] = 2.0f;", (1, -1, 1, -1), 4, True),
    # one lane of 64 on the then side: the branch runs compacted, on a SubGroup of its parent's path
    ("if (x[i] > 0) o[0] = 1.0f; else o[0] = 2.0f;", (-1, -1, 1) + (-1,) * 61, 64, True),
    ("if (x[i] > 0) { if (i > 1) o[1] = 3.0f; } else { o[1] = 4.0f; }", (1, -1, 1, -1), 4, True),
    ("if (x[i] > 0) o[0] = 1.0f; o[0] = 2.0f;", (1, -1, 1, -1), 4, False),        # ordered: after the if
    ("if (x[i] > 0) o[0] = 1.0f; else o[0] = 2.0f;", (1, 1, 1, 1), 4, False),      # no lane on the else side
    ("if (x[i] > 0) o[0] = 1.0f; else o[0] = 1.0f;", (1, -1, 1, -1), 4, False),    # the same value
    ("if (x[i] > 0) o[0] = 1.0f; else o[1] = 2.0f;", (1, -1, 1, -1), 4, False),    # other locations
])
def test_the_two_sides_of_a_divergent_branch_are_unordered(body, x, block, race):
    got = _races(body, x, block)
    assert bool(got) == race, got
    if race:
        assert got[0].kind == "write-after-write"
