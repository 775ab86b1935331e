"""A rounding to bfloat16 is bounded as a half's is: u ufp(r) (u = 2^-8, half an ulp of r), not the gap this run's own float left
(stop 66).  The gap is 0 where the emulator's float happens to be a bfloat16 (x * 3 / 3 of a bfloat16 x), but a GPU
whose float differs within its bound rounds to a neighbour: against a bound of the float's own rounding (2^-24)
that right port failed.  Look-alikes: a bfloat16 of an exact value (an input) stays exact, and a port two
bfloat16 ulps off still fails."""
from __future__ import annotations

import numpy as np

from kernelport import compare
from kernelport.emulator import bfloat16, run_kernel

SRC = """
#include <cuda_bf16.h>
__global__ void k(const float* x, float* out) {
    int i = threadIdx.x;
    out[i] = __bfloat162float(__float2bfloat16(EXPR));
}
"""
X = bfloat16.rounded(np.linspace(1.0, 1.9, 32).astype(np.float32))  # each a bfloat16


def _run(expr):
    return run_kernel(SRC.replace("EXPR", expr), "k", grid=(1, 1, 1), block=(32, 1, 1),
                      args={"x": X, "out": np.zeros(32, np.float32)})


def _ok(r, got):  # as verify --device compares: the emulator's bound on both sides
    return compare.compare({"out": got}, {"out": r.outputs["out"]}, "auto", None, r.bounds, r.bounds).ok


def _half_ulp(v):
    """Half an ulp of bfloat16 at v: 2^-8 ufp(v) (emulator/ufp.py)."""
    return 2.0 ** -8 * 2.0 ** np.floor(np.log2(np.abs(v.astype(np.float64))))


def _bf16_ulps(v, n):
    return bfloat16.to_float(bfloat16.bits(v).astype(np.uint16) + np.uint16(n))


def test_a_computed_value_that_is_a_bfloat16_keeps_half_a_bfloat16_ulp():
    r = _run("x[i] * 3.0f / 3.0f")
    out = r.outputs["out"]
    np.testing.assert_array_equal(out, X)  # no gap: the float was a bfloat16 already
    assert (r.bounds["out"] >= _half_ulp(out)).all()  # was ~3 * 2^-24 |out|
    assert _ok(r, _bf16_ulps(out, 1))  # a GPU whose quotient rounded the other way
    assert not _ok(r, _bf16_ulps(out, 3))  # further than both sides' rounding


def test_the_bfloat16_of_an_exact_value_stays_exact():
    r = _run("x[i]")
    assert not r.bounds["out"].any()
    assert not _ok(r, _bf16_ulps(r.outputs["out"], 1))


def test_a_store_that_rounds_holds_the_same_bound():
    src = ("#include <cuda_bf16.h>\n__global__ void k(const float* x, __nv_bfloat16* out) {\n"
           "    int i = threadIdx.x;\n    out[i] = x[i] * 3.0f / 3.0f;\n}\n")
    r = run_kernel(src, "k", grid=(1, 1, 1), block=(32, 1, 1), args={"x": X, "out": np.zeros(32, np.float32)})
    assert (r.bounds["out"] >= _half_ulp(r.outputs["out"])).all()
