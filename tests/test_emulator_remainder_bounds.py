"""Rounding bounds the GPU checks (stop 65): `verify --device` compares the original on the GPU with the
emulator's run of it within the emulator's bounds, on both sides (kernelport/verify_device.py), so a bound
that leaves out an error the GPU may make fails a correct kernel.  Two did on an H100 (heldout86 gnss's
Klobuchar model, heldout94 konfoton-fa's naive attention); the bound model now covers both:

- fmod (emulator.remainders): exact, but its operands' error carries through (ea + |n| eb); near a jump
  (a multiple of y) the bound is inf, an unknown (skip), never a finite one the jump breaks.  Before: no
  bound at all (exact), though `t = fmod(4.32e4 * lambda_i + gps_time, 86400.0)` carried lambda_i's.
- __float2half (and the other narrowing `cvt` intrinsics): the rounding into the narrower type is the
  conversion's error, as a cast's is.  Before: the bound went through unchanged, so a loop accumulating
  into half storage (`Oi[d] = __float2half(__half2float(Oi[d]) + p * v)`) carried no half rounding at all.

Look-alikes: exact operands keep an exact result (fmod of integer-valued floats), and the bounds stay
tight enough that a port that drops a term or drifts an ulp per step still fails.
"""
from __future__ import annotations

import numpy as np

from kernelport import compare
from kernelport.emulator import run_kernel

FMOD = """
__global__ void k(const float* x, const float* y, float* out) {
    int i = threadIdx.x;
    float t = x[i] / 3.0f;          // rounded: t carries an error into fmod
    out[i] = fmod(t, y[i]) * 1000.0f;
}
"""


def _fmod_run(x, y):
    n = len(x)
    return run_kernel(FMOD, "k", grid=(1, 1, 1), block=(n, 1, 1),
                      args={"x": np.asarray(x, np.float32), "y": np.asarray(y, np.float32), "out": np.zeros(n, np.float32)})


def test_fmod_carries_its_operands_error():
    x = np.random.default_rng(3).uniform(-50, 50, 64).astype(np.float32)
    y = np.full(64, 1.5, np.float32)
    r = _fmod_run(x, y)
    exact = np.fmod(x.astype(np.float64) / 3.0, 1.5) * 1000.0
    e = r.bounds["out"].astype(np.float64)
    fin = np.isfinite(e)
    assert fin.sum() >= 60, e  # (a few may sit within t's error of a multiple of 1.5)
    gap = np.abs(r.outputs["out"].astype(np.float64) - exact)
    assert (gap[fin] > 0).any() and (e[fin] >= gap[fin]).all()
    # the bound is t's error (about u |t|) scaled by 1000, not fmod's result's own rounding
    assert np.median(e[fin]) > 1000 * 2.0 ** -24 * 2


def test_fmod_near_a_multiple_is_unbounded_not_a_finite_bound_the_jump_breaks():
    # 4.5f / 3 is 1.5 within t's rounding bound: the exact t may lie below the divisor (fmod near 1.5) or at
    # it (0); 4.4999995f / 3 is 1.4999999, an ulp below, farther from it than its bound: no jump
    x = np.array([4.5, 2.0, -4.5, 4.4999995], np.float32)
    r = _fmod_run(x, np.full(4, 1.5, np.float32))
    e = r.bounds["out"]
    assert np.isinf(e[0]) and np.isinf(e[2]), e
    assert np.isfinite(e[1]) and np.isfinite(e[3]), e
    # the device row's comparison: a GPU on the other side of the jump is an unknown (skip), not a fail
    got = r.outputs["out"].copy()
    got[0] = 1499.9999 if got[0] < 750 else 0.0
    cmp = compare.compare({"out": got}, {"out": r.outputs["out"]}, "auto", None, r.bounds, r.bounds)
    assert cmp.ok and cmp.unknown == 1, cmp


def test_fmod_of_exact_operands_stays_exact_and_a_wrong_value_fails():
    src = FMOD.replace("x[i] / 3.0f", "x[i]").replace(" * 1000.0f", "")  # exact operands: an exact remainder
    n = 8
    r = run_kernel(src, "k", grid=(1, 1, 1), block=(n, 1, 1),
                   args={"x": np.arange(n, dtype=np.float32), "y": np.full(n, 3.0, np.float32),
                         "out": np.zeros(n, np.float32)})
    assert r.bounds["out"].max() == 0.0 and not np.isinf(r.bounds["out"]).any()
    got = r.outputs["out"].copy()
    got[5] = np.nextafter(got[5], np.float32(1e9))  # one ulp off
    assert not compare.compare({"out": got}, {"out": r.outputs["out"]}, "auto", None, r.bounds, r.bounds).ok


def test_fdim_carries_its_operands_error():
    src = FMOD.replace("fmod(t, y[i])", "fdim(t, y[i])")
    x = np.random.default_rng(4).uniform(0, 50, 32).astype(np.float32)
    r = _fmod_run(x, np.full(32, 2.0, np.float32))
    exact = np.maximum(x.astype(np.float64) / 3.0 - 2.0, 0) * 1000.0
    r2 = run_kernel(src, "k", grid=(1, 1, 1), block=(32, 1, 1),
                    args={"x": x, "y": np.full(32, 2.0, np.float32), "out": np.zeros(32, np.float32)})
    gap = np.abs(r2.outputs["out"].astype(np.float64) - exact)
    assert (gap > 0).any() and (r2.bounds["out"] >= gap).all()


HALF = """
#include <cuda_fp16.h>
__global__ void k(const __half* v, const float* p, __half* o, int n) {
    o[threadIdx.x] = __float2half(0.0f);
    for (int j = 0; j < n; j++) {
        float acc = __half2float(o[threadIdx.x]) + expf(p[j]) * __half2float(v[j * blockDim.x + threadIdx.x]);
        o[threadIdx.x] = __float2half(acc);
    }
}
"""
N, W = 64, 32


def _half_inputs():
    rng = np.random.default_rng(7)
    return rng.uniform(-1, 1, N * W).astype(np.float16), rng.uniform(-4, -3, N).astype(np.float32)


def _other_way(acc):
    """acc rounded into half to the neighbour round-to-nearest does not pick: what a GPU whose float acc
    differed from the emulator's within its bound (another expf, an fma) may store where acc lies near a
    midpoint between two halfs: a whole ulp of half from the emulator's, not half of one."""
    near = acc.astype(np.float16)
    up, down = np.nextafter(near, np.float16(np.inf)), np.nextafter(near, np.float16(-np.inf))
    return np.where(near.astype(np.float32) < acc, up, np.where(near.astype(np.float32) > acc, down, near))


def _half_model(v, p, flip_every=0, drop=None, drift=0):
    """The GPU's side: the same loop, each step rounded into half, every flip_every-th step the other way;
    drop: a step a wrong port leaves out; drift: ulps of half a wrong port adds per step."""
    e = np.exp(p.astype(np.float64)).astype(np.float32)
    o = np.zeros(W, np.float16)
    for j in range(N):
        if j == drop:
            continue
        acc = o.astype(np.float32) + (e[j] * v[j * W:(j + 1) * W].astype(np.float32)).astype(np.float32)
        o = _other_way(acc) if flip_every and j % flip_every == 0 else acc.astype(np.float16)
        for _ in range(drift):
            o = np.nextafter(o, np.float16(np.inf))
    return o


def _half_run(src=HALF):
    v, p = _half_inputs()
    return run_kernel(src, "k", grid=(1, 1, 1), block=(W, 1, 1),
                      args={"v": v, "p": p, "o": np.zeros(W, np.float16), "n": N})


def test_float2half_rounding_is_in_the_bound_as_a_casts_is():
    r = _half_run()
    cast = _half_run(HALF.replace("__half2float(o[threadIdx.x]) +", "(float)o[threadIdx.x] +")
                     .replace("o[threadIdx.x] = __float2half(acc)", "o[threadIdx.x] = acc"))
    np.testing.assert_array_equal(r.outputs["o"], cast.outputs["o"])
    np.testing.assert_allclose(r.bounds["o"], cast.bounds["o"])
    # N roundings into half of values around 0.1: far above a float's rounding
    assert np.median(r.bounds["o"]) > 8 * 2.0 ** -11 * 0.01


def test_a_gpu_rounding_into_half_the_other_way_passes_and_a_wrong_port_fails():
    v, p = _half_inputs()
    r = _half_run()

    def ok(got):
        return compare.compare({"o": got}, {"o": r.outputs["o"]}, "auto", None, r.bounds, r.bounds).ok
    assert ok(_half_model(v, p))  # the right kernel
    assert ok(_half_model(v, p, flip_every=2))  # rounded the other way on every other step
    assert ok(_half_model(v, p, flip_every=1))  # and on every step: the worst case the bound must hold
    assert not ok(_half_model(v, p, drop=N // 2))  # a dropped term
    # a port that drifts two ulps of half a step (one a step is what a flip on every step gives: no bound that
    # holds flips can tell them apart)
    assert not ok(_half_model(v, p, drift=2))


def test_the_unknown_detail_names_the_jump():
    r = _fmod_run(np.array([4.5, 2.0], np.float32), np.full(2, 1.5, np.float32))
    got = r.outputs["out"].copy()
    got[0] = 1499.9999 if got[0] < 750 else 0.0
    cmp = compare.compare({"out": got}, {"out": r.outputs["out"]}, "auto", None, r.bounds, r.bounds)
    assert "within its operands' bound of a multiple of its divisor" in compare.unknown_detail(cmp, ())

