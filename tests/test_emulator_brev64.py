"""`__brevll` in the emulator: the 64-bit value's bits reversed (main: a KeyError traceback, 'brev64', in any
run of a kernel that calls it, the original's or a port's); `__brev` of the same value's low word unchanged."""
from __future__ import annotations

import numpy as np

CODE = """__global__ void k(const unsigned long long* in, unsigned long long* out, unsigned* low)
{
    int i = threadIdx.x;
    out[i] = __brevll(in[i]);
    low[i] = __brev((unsigned)in[i]);
}
"""


def test_brevll_reverses_64_bits_and_brev_32():
    from kernelport.emulator import run_kernel
    x = np.array([1, 2, 0x8000000000000000, 0x0123456789ABCDEF], np.uint64)
    r = run_kernel(CODE, "k", args={"in": x, "out": np.zeros(4, np.uint64), "low": np.zeros(4, np.uint32)},
                   grid=(1, 1, 1), block=(4, 1, 1), wave=32).outputs
    want = [int(f"{int(v):064b}"[::-1], 2) for v in x]
    assert [int(v) for v in r["out"]] == want
    assert [int(v) for v in r["low"]] == [int(f"{int(v) & 0xFFFFFFFF:032b}"[::-1], 2) for v in x]
