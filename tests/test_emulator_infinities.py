"""Error bounds through infinities (kernelport.emulator.infinities).

llm.c's classifier_fused kernels 1 and 3 start an online softmax at `maxval = -INFINITY`: the bound
of `-INFINITY - v` was the rounding term inf * u = inf and expf's bound of it NaN, so every Metal
check of them was a skip although -inf - v = -inf and expf(-inf) = 0 are exact.  Now an infinity
with a finite bound is exact and stays exact through the operations IEEE makes exact there; an
overflow stays unbounded (inf), and compare() counts an element that differs under an inf bound as
unknown, never a silent pass.  The scalar model is numpy's float64 softmax.
"""
from __future__ import annotations

import numpy as np
import pytest

from kernelport import compare
from kernelport.emulator import ops, run_kernel
from kernelport.emulator.intrinsics import math1

# one warp per row: each lane keeps (max, sum) online from -INFINITY, then the warp merges them
SOFTMAX = r"""
__global__ void softmax(const float* x, float* out, int C) {
    int row = blockIdx.x;
    int lane = threadIdx.x;
    const float* xr = x + row * C;
    float maxval = -INFINITY, sumval = 0.0f;
    for (int i = lane; i < C; i += warpSize) {
        float old = maxval;
        maxval = fmaxf(maxval, xr[i]);
        sumval *= expf(old - maxval);
        sumval += expf(xr[i] - maxval);
    }
    for (int off = warpSize / 2; off > 0; off /= 2) {
        float om = __shfl_xor_sync(0xffffffff, maxval, off);
        float os = __shfl_xor_sync(0xffffffff, sumval, off);
        float m = fmaxf(maxval, om);
        sumval = sumval * expf(maxval - m) + os * expf(om - m);
        maxval = m;
    }
    for (int i = lane; i < C; i += warpSize) out[row * C + i] = SIGN expf(xr[i] - maxval) / sumval;
}
"""
ROWS, C = 4, 100
X = (np.random.default_rng(5).standard_normal(ROWS * C) * 4).astype(np.float32)


def _softmax(wave, sign="", x=X, block=None):
    src = SOFTMAX.replace("SIGN", "").replace("expf(maxval - m)", f"expf({sign}(maxval - m))")
    return run_kernel(src, "softmax", args=dict(x=x, out=np.zeros(ROWS * C, np.float32), C=C), grid=(ROWS,),
                      block=(block or wave,), wave=wave)


def _model(x=X):
    x = x.astype(np.float64).reshape(ROWS, C)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).ravel()


@pytest.mark.parametrize("wave", [32, 64])
def test_online_softmax_from_minus_infinity_has_a_finite_bound_and_passes(wave):
    r = _softmax(wave)
    b = r.bounds["out"]
    assert np.isfinite(b).all() and (b > 0).all() and b.max() < 1e-5  # main: all NaN
    assert (np.abs(r.outputs["out"] - _model()) <= b + np.finfo(np.float32).eps / 2 * _model()).all()
    # the port at the other wave width, against the original at this one: a match, judged
    other = _softmax(96 - wave)
    cmp = compare.compare({"out": other.outputs["out"]}, {"out": r.outputs["out"]}, "auto", None,
                          other.bounds, r.bounds)
    assert cmp.ok and cmp.unknown == 0


def test_a_wrong_sign_still_fails():
    """The warp merge's rescale upside down (expf(m - maxval)): finite bounds judge it a mismatch."""
    good, bad = _softmax(32), _softmax(32, sign="-")
    assert np.isfinite(bad.bounds["out"]).all() and np.isfinite(bad.outputs["out"]).all()
    cmp = compare.compare({"out": bad.outputs["out"]}, {"out": good.outputs["out"]}, "auto", None,
                          bad.bounds, good.bounds)
    assert not cmp.ok and cmp.mismatch is not None


def test_an_overflow_in_one_port_only_still_fails():
    """A port without the max subtraction overflows expf(100) to inf where the original is finite."""
    x = X.copy()
    x[7] = 100.0
    good = _softmax(32, x=x)
    src = SOFTMAX.replace("SIGN", "").replace("expf(xr[i] - maxval) / sumval", "expf(xr[i]) / (sumval * expf(maxval))")
    bad = run_kernel(src, "softmax", args=dict(x=x, out=np.zeros(ROWS * C, np.float32), C=C), grid=(ROWS,),
                     block=(32,), wave=32)
    assert np.isinf(bad.outputs["out"][7]) or np.isnan(bad.outputs["out"][7])
    cmp = compare.compare({"out": bad.outputs["out"]}, {"out": good.outputs["out"]}, "auto", None,
                          bad.bounds, good.bounds)
    assert not cmp.ok


def _v(*xs):
    return np.array(xs, np.float32)


def test_exact_infinities_stay_exact_and_an_overflow_stays_unbounded():
    inf = np.float32(np.inf)
    # -inf - v, v - inf: exact; max(-inf, v) = v; 1 / inf = 0; inf * 2 = inf; exp(-inf) = 0
    d, e = ops.arith("-", (_v(-inf, 1.0), None), (_v(2.0, inf), None), True)
    assert list(d) == [-inf, -inf] and list(e) == [0.0, 0.0]
    q, e = ops.arith("/", (_v(1.0, 3.0), 1e-7), (_v(inf, inf), None), True)
    assert list(q) == [0.0, 0.0] and list(e) == [0.0, 0.0]
    p, e = ops.arith("*", (_v(inf, -inf), None), (_v(2.0, 3.0), 1e-7), True)
    assert list(p) == [inf, -inf] and list(e) == [0.0, 0.0]
    z, e = math1("exp", (_v(-inf), 0.0), True, fast=True)
    assert z[0] == 0.0 and e[0] == 0.0
    # an overflow of finite operands: inf, unbounded, not exact
    with np.errstate(over="ignore"):
        o, e = ops.arith("*", (_v(3e38), None), (_v(10.0), None), True)
    assert np.isinf(o[0]) and np.isinf(e[0])
    # inf times a value whose sign the bound leaves open: not exact
    p, e = ops.arith("*", (_v(inf), None), (_v(1e-8), 1e-7), True)
    assert np.isinf(e[0])


def test_no_nan_bound_from_finite_values():
    """0 * an unbounded value is exactly 0 (bound 0); erf of an unbounded value is unbounded (inf)."""
    p, e = ops.arith("*", (_v(0.0), None), (_v(5.0), np.inf), True)
    assert p[0] == 0.0 and e[0] == 0.0
    _, e = math1("erf", (_v(0.5), np.inf), True)
    assert np.isinf(e[0])
    _, e = ops.fma((_v(0.0), None), (_v(2.0), np.inf), (_v(1.0), None), True)
    assert np.isfinite(e[0])


def test_an_unbounded_element_that_differs_is_unknown_not_a_silent_pass():
    want, got = _v(1.0, 2.0), _v(1.0, 2.5)
    cmp = compare.compare({"out": got}, {"out": want}, "auto", None, {"out": np.array([0.0, np.inf])}, None)
    assert cmp.ok and cmp.unknown == 1 and cmp.unbounded
    assert "unbounded" in compare.unknown_detail(cmp, [])
    # the same values equal: nothing to judge, a pass
    cmp = compare.compare({"out": want}, {"out": want}, "auto", None, {"out": np.array([0.0, np.inf])}, None)
    assert cmp.ok and cmp.unknown == 0
