"""Wrong ports still fail under stop 66's comparisons within their bounds (review66d, emulator/flips.py): a
comparison whose operands' bounds straddle its threshold leaves the lanes it decides unknown, so where the
bound of an exact value is not 0 an exact `a > 0.25f` at a == 0.25 "may flip", and a port that writes `>=` for
`>` (different exactly there) was a skip.  An operation of exact operands whose result is exact now carries no
error (emulator/exact_ops.py), and each wrong port below (a dropped term, a swapped comparison, a 16-wide
ladder at wave 64) fails at wave 64 and 32 on data of quarters (exact sums) and on uniform data; the right port
(the translation's, logical 32-lane groups) passes.  Look-alikes: an inexact product of exact operands keeps its
rounding, and a contracted a*b + c whose fused result is exact but whose product is not keeps it too."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport import compare, unjudged
from kernelport.emulator import run_kernel

ORIGINAL = """
__device__ float warp_sum(float v) {
    for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
    return v;
}
__global__ void k(const float* x, const float* w, float* out, int* flag) {
    __shared__ float red[32];
    int t = threadIdx.x;
    float a = x[t] * w[t] + x[(t + 1) % 256];
    float s = warp_sum(a);
    if (t % 32 == 0) red[t / 32] = s;
    __syncthreads();
    float tot = 0.0f;
    for (int j = 0; j < blockDim.x / 32; ++j) tot += red[j];
    int f = 0;
    if (a > 0.25f) f = 1;
    flag[t] = f;
    out[t] = a >= 0.0f ? tot * a : s;
}
"""
RIGHT = ORIGINAL.replace("__shfl_xor_sync(0xffffffff, v, m)", "__shfl_xor(v, m, 32)")  # (translate's HIP port)
WRONG = {
    "a dropped term": ("x[t] * w[t] + x[(t + 1) % 256]", "x[t] * w[t]"),
    "a swapped comparison": ("a > 0.25f", "a >= 0.25f"),
    "a 16-wide ladder": ("m = 16; m > 0; m >>= 1) v += __shfl_xor(v, m, 32)",
                         "m = 8; m > 0; m >>= 1) v += __shfl_xor(v, m, 16)"),
}
_RNG = np.random.default_rng(1)
DATA = {"quarters": tuple(_RNG.integers(-2, 3, 256).astype(np.float32) / 4 for _ in range(2)),
        "uniform": tuple(_RNG.uniform(-1, 1, 256).astype(np.float32) for _ in range(2))}


def _verdict(port: str, wave: int, data: str):
    """verify's row for the port's run against the original's: fail, skip (unknown, unjudged) or pass."""
    x, w = DATA[data]
    args = {"x": x, "w": w, "out": np.zeros(256, np.float32), "flag": np.zeros(256, np.int32)}

    def run(src, wv, backend):
        return run_kernel(src, "k", args={k: v.copy() for k, v in args.items()}, grid=(1, 1, 1), block=(256, 1, 1),
                          wave=wv, backend=backend)
    oracle, res = run(ORIGINAL, 32, "cuda"), run(port, wave, "hip")
    outs = ("out", "flag")
    cmp = compare.compare({k: res.outputs[k] for k in outs}, {k: oracle.outputs[k] for k in outs}, "auto", None,
                          res.bounds, oracle.bounds, undefined=oracle.undefined, got_undefined=res.undefined)
    if not cmp.ok:
        return "fail", oracle
    return ("skip" if cmp.unknown or unjudged.skip_detail(cmp, oracle) else "pass"), oracle


@pytest.mark.parametrize("data", sorted(DATA))
@pytest.mark.parametrize("wave", [64, 32])
def test_the_right_port_passes(wave, data):
    verdict, oracle = _verdict(RIGHT, wave, data)
    assert verdict == "pass" and not oracle.unjudged, (verdict, oracle.unjudged)


# (uniform data never hits a == 0.25: there `>` and `>=` agree, a swapped comparison is nothing to find)
@pytest.mark.parametrize("wave", [64, 32])
@pytest.mark.parametrize("what,data", [(w, d) for w in sorted(WRONG) for d in sorted(DATA)
                                       if (w, d) != ("a swapped comparison", "uniform")])
def test_a_wrong_port_fails(what, wave, data):
    old, new = WRONG[what]
    assert old in RIGHT
    verdict, _ = _verdict(RIGHT.replace(old, new), wave, data)
    assert verdict == "fail", (what, wave, data, verdict)


def _bounds(body):
    x = np.array([0.25, 0.5, -0.5, 0.1, 3.0, 1e-3, 0.75, -2.0], np.float32)
    src = "__global__ void k(const float* x, float* out) { int i = threadIdx.x; %s }" % body
    return run_kernel(src, "k", args={"x": x, "out": np.zeros(8, np.float32)}, grid=(1, 1, 1),
                      block=(8, 1, 1)).bounds["out"]


def test_an_exact_result_of_exact_operands_has_no_error_an_inexact_one_keeps_it():
    e = _bounds("out[i] = x[i] * x[i] + x[i];")  # (contracted: fused and unfused both exact but at 0.1, 1e-3)
    assert (e[[0, 1, 2, 4, 6, 7]] == 0).all() and (e[[3, 5]] > 0).all(), e
    e = _bounds("out[i] = x[i] * 0.1f;")  # (exact by powers of two only: 0.1f's products need more bits)
    assert (e[[0, 1, 2, 7]] == 0).all() and (e[[3, 4, 5, 6]] > 0).all(), e
    e = _bounds("float y = x[i] * 3.0f / 3.0f; out[i] = y - x[i];")  # (a division's error carries)
    assert (e[[3, 5]] > 0).all(), e


def test_a_contraction_whose_product_rounds_keeps_the_products_error():
    """fma(a, a, -a*a rounded) is exact fused, but a compiler that leaves a*a + c unfused rounds a*a first."""
    x = np.array([1.0 + 2.0 ** -20], np.float32)
    c = np.array([-float(np.float32(x[0] * x[0]))], np.float32)
    src = "__global__ void k(const float* x, const float* c, float* out) { out[0] = x[0] * x[0] + c[0]; }"
    r = run_kernel(src, "k", args={"x": x, "c": c, "out": np.zeros(1, np.float32)}, grid=(1, 1, 1), block=(1, 1, 1))
    assert r.bounds["out"][0] > 0, r.bounds["out"]
