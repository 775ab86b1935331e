"""The bound of a half-precision accumulation (stop 66).  Why a port that drops a step passed: the emulator bounds
each rounding of the running sum s_k by u |s_k| (u = 2^-11), so 64 steps of a sum of values in [0, 1) carry
sum_k u |s_k| ~ 0.5, and a comparison adds both runs' bounds (~1.0): above any dropped value.  A rounding to
nearest moves s_k by at most half an ulp of the result, u ufp(s_k) (ufp: 2^floor(log2 |s_k|)), which u |s_k|
overstates by up to twice (emulator/ufp.py): the half bound is now that, ~0.37 a side here, sound for every GPU
that rounds to nearest.  Checked: the bound is the independently computed sum of u ufp(s_k) (and below the old
one), a port that drops a step worth between the new and the old bound (both sides) now fails (it was within
the old bound), a GPU that rounds the other way
on every step still passes (the stop-65 model of heldout94's normal_attention_kernel,
test_emulator_remainder_bounds), and float keeps u |r| (test_emulator_ulp_bounds)."""
from __future__ import annotations

import numpy as np

from kernelport import compare
from kernelport.emulator import run_kernel

N, W = 64, 32
SRC = """
#include <cuda_fp16.h>
__global__ void k(const __half* v, __half* o, int n) {
    __half acc = __float2half(0.0f);
    for (int j = 0; j < n; j++) acc = __hadd(acc, v[j * 32 + threadIdx.x]);
    o[threadIdx.x] = acc;
}
"""
V = np.random.default_rng(3).uniform(0, 1, N * W).astype(np.float16)


def _model(drop=None, other_way=False):
    """The GPU's side in numpy: each step rounded to nearest (or to the other neighbour), a step dropped."""
    s = np.zeros(W, np.float16)
    for j in range(N):
        x = V[j * W:(j + 1) * W].astype(np.float32)
        if drop is not None:
            x = np.where(drop == j, np.float32(0), x)
        a = s.astype(np.float32) + x
        s = a.astype(np.float16)
        if other_way:
            up, down = np.nextafter(s, np.float16(np.inf)), np.nextafter(s, np.float16(-np.inf))
            s = np.where(s.astype(np.float32) < a, up, np.where(s.astype(np.float32) > a, down, s))
    return s


def _run():
    return run_kernel(SRC, "k", grid=(1, 1, 1), block=(W, 1, 1), args={"v": V, "o": np.zeros(W, np.float16), "n": N})


def _ok(r, got):
    return compare.compare({"o": got}, {"o": r.outputs["o"]}, "auto", None, r.bounds, r.bounds).ok


def _bounds():
    """Per lane, sum_k u ufp(s_k) and sum_k u |s_k| over the partial sums, computed here (the first steps, while
    every partial sum is exact, round nothing: emulator/exact_ops.py, review66d)."""
    s = np.zeros(W, np.float16)
    ufp_sum, abs_sum = np.zeros(W), np.zeros(W)
    exact = np.ones(W, bool)
    for j in range(N):
        t = s.astype(np.float32) + V[j * W:(j + 1) * W].astype(np.float32)  # (exact in float)
        s = t.astype(np.float16)
        exact &= s.astype(np.float32) == t
        a = np.abs(s.astype(np.float64))
        ufp_sum += np.where(exact, 0.0, 2.0 ** -11 * 2.0 ** np.floor(np.log2(a)))
        abs_sum += 2.0 ** -11 * a
    return ufp_sum, abs_sum


def test_the_half_sums_bound_is_half_an_ulp_of_each_partial_sum():
    r = _run()
    ufp_sum, abs_sum = _bounds()
    np.testing.assert_allclose(r.bounds["o"], ufp_sum, rtol=1e-3)
    assert (r.bounds["o"] < 0.8 * abs_sum).all()  # (u |s_k|: what it was)


def test_a_port_that_drops_a_step_the_old_bound_let_pass_fails_and_a_gpu_rounding_the_other_way_passes():
    r = _run()
    ufp_sum, abs_sum = _bounds()
    terms = V.reshape(N, W).astype(np.float64)
    aim = ufp_sum + abs_sum  # between both sides' new bound (2 ufp_sum) and the old (2 abs_sum)
    drop = np.abs(terms - aim).argmin(axis=0)
    got = _model(drop=drop)
    w = r.outputs["o"].astype(np.float64)
    diff = np.abs(got.astype(np.float64) - w)
    assert (diff <= 2 * abs_sum + 2.0 ** -11 * np.abs(w)).all()  # within the old bound on both sides: it passed
    assert not _ok(r, got)
    assert _ok(r, _model())
    assert _ok(r, _model(other_way=True))  # every step to the other neighbour: the worst a GPU within its
    # bound gives
