"""`c ? a : b` where an operand is a vector: make_float4(...), a vector variable, or a row of a vector buffer
(`*p`, `x[t]`).  On main the emulator's ternary stopped with a Python traceback in each mixed form (`cannot
unpack non-iterable Pointer object`, `'tuple' object has no attribute 'dtype'`): the row is now loaded as a
vector in the lanes that chose it, and two vector values merge per component."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel

X = np.arange(32, dtype=np.float32)
T = np.arange(8)
ROW = 8 * T + 3.0  # x[t].x + x[t].w


@pytest.mark.parametrize("expr, want", [
    ("(t == 5) ? make_float4(0, 0, 0, 0) : *p", np.where(T == 5, 0.0, ROW)),
    ("(t != 5) ? x[t] : make_float4(1, 0, 0, 1)", np.where(T == 5, 2.0, ROW)),
    ("(t < 3) ? make_float4(1, 2, 3, 4) : make_float4(t, 0, 0, 1)", np.where(T < 3, 5.0, T + 1.0)),
    ("(t < 3) ? w : *p", np.where(T < 3, 2.0 * T, ROW)),
    # look-alike: two rows of the buffer (a pointer merge, then one load), unchanged
    ("(t == 5) ? x[0] : *p", np.where(T == 5, 3.0, ROW)),
])
def test_a_ternary_of_vector_operands(expr, want):
    src = """__global__ void k(const float4* x, float* out) {
    int t = threadIdx.x;
    const float4* p = x + t;
    float4 w = make_float4(t, 0, 0, t);
    float4 v = EXPR;
    out[t] = v.x + v.w;
}""".replace("EXPR", expr)
    r = run_kernel(src, "k", args=dict(x=X, out=np.zeros(8, np.float32)), grid=(1,), block=(8,))
    assert list(r.outputs["out"]) == list(want)
