"""An inline-PTX constraint written as two adjacent literals in the emulator (review66a of lead66).

lead66 made `"=" "r"(x)` parse for the translator (C joins the literals: nvcc reads "=r"), but the emulator's PTX
lowering (emulator/frontend/ptx.py `_operands`) matched one literal per operand and dropped that operand: every
later `%N` named the next operand, so `asm("mov.u32 %0, %%laneid;" : "=" "r"(r) : "r"(d))` stored the lane in `d`
and left `r` as it was (a wrong oracle, no error).  The literals are joined as C joins them."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel

KERNEL = """__global__ void k(unsigned* out) {
    unsigned r = 99, d = 5;
    asm volatile("mov.u32 %0, %%laneid;" : CONSTRAINT(r) : "r"(d));
    out[threadIdx.x] = r * 100 + d;
}
"""


@pytest.mark.parametrize("constraint", ['"=" "r"', '"=r"', '"="  "r"'])  # (the look-alike: "=r", one literal)
def test_adjacent_constraint_literals_name_one_operand(constraint):
    got = run_kernel(KERNEL.replace("CONSTRAINT", constraint), "k", args={"out": np.zeros(40, np.uint32)},
                     grid=(1,), block=(40,), backend="cuda").outputs["out"]
    np.testing.assert_array_equal(got, (np.arange(40) % 32) * 100 + 5)
