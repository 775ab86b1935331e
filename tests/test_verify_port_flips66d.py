"""A port's own comparison within its bounds is an unknown, not a value never written (review66d).

The port's run (wave 64: one 64-lane sum per wave, another order) has its own bounds: where |tot - t| lies
between the original's bound and the port's, only the port's `if (tot > t)` may flip (emulator/flips.py), and the
integer it decides was marked as a value never written; compared against the original's defined element that
was a mismatch, `flag[i] = ... (stored from a value never written)`: a right port failed.  Such marks (a run
with flips: flips.Marks) are now unknown elements, judged out where the values differ (a skip), not a failure.
Look-alikes: a port that stores another flag there still fails; a shuffle's read of an inactive lane in the
port's run (no flip) is still a never-written mismatch (test_verify_inactive_shuffles)."""
from __future__ import annotations

import numpy as np

from kernelport import compare
from kernelport.emulator import run_kernel

SRC = r"""
__global__ void k(const float* x, float* tot_out, int* flag, float t) {
    __shared__ float red[64];
    int i = threadIdx.x;
    float v = x[i];
    for (int m = warpSize / 2; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
    if (i % warpSize == 0) red[i / warpSize] = v;
    __syncthreads();
    float tot = 0.0f;
    for (int j = 0; j < blockDim.x / warpSize; ++j) tot += red[j];
    tot_out[i] = tot;
    int f = 0;
    if (tot > t) f = 1;
    flag[i] = f;
}
"""
PORT = SRC.replace("__shfl_xor_sync(0xffffffff, v, m)", "__shfl_xor(v, m)")
X = np.random.default_rng(3).uniform(-1, 1, 256).astype(np.float32)


def _run(src, wave, backend, t):
    return run_kernel(src, "k", args={"x": X.copy(), "tot_out": np.zeros(256, np.float32),
                                      "flag": np.zeros(256, np.int32), "t": np.float32(t)},
                      grid=(1, 1, 1), block=(256, 1, 1), wave=wave, backend=backend)


def _threshold():
    """A t only the port's run may take the other side of (its bound, not the original's, reaches it)."""
    o = _run(SRC, 32, "cuda", 0.0)
    tot, eo = float(o.outputs["tot_out"][0]), float(o.bounds["tot_out"][0])
    ep = float(_run(PORT, 64, "hip", 0.0).bounds["tot_out"][0])
    assert ep > eo  # (the premise: 64-lane sums bound the total more loosely here)
    for t in np.arange(np.float32(tot - eo), np.float32(tot - ep), -np.float32(2.0 ** -21)):
        o, r = _run(SRC, 32, "cuda", t), _run(PORT, 64, "hip", t)
        if not o.unjudged and r.unjudged:
            return o, r, t
    raise AssertionError("no threshold between the two runs' bounds")


def _cmp(o, r, flag):
    outs = {"tot_out": r.outputs["tot_out"], "flag": flag}
    return compare.compare(outs, {k: o.outputs[k] for k in outs}, "auto", None, r.bounds, o.bounds,
                           undefined=o.undefined, got_undefined=r.undefined)


def test_a_flip_only_the_ports_run_may_take_is_not_a_never_written_failure():
    o, r, _ = _threshold()
    assert r.undefined["flag"].all()  # (the port's flag stored from lanes its flip tainted)
    c = _cmp(o, r, r.outputs["flag"])
    assert c.ok, c.mismatch
    other = 1 - r.outputs["flag"]  # (a GPU's port on the other side of t: unknown, not a failure)
    c = _cmp(o, r, other)
    assert c.ok and c.unknown == 256, (c.mismatch, c.unknown)


def test_a_port_that_stores_another_flag_where_no_flip_reached_still_fails():
    o, r, t = _threshold()
    wrong = PORT.replace("tot_out[i] = tot;", "tot_out[i] = i == 7 ? tot + 1.0f : tot;")  # (before the branch)
    w = _run(wrong, 64, "hip", t)
    assert not _cmp(o, w, w.outputs["flag"]).ok
