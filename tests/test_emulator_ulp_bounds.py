"""CUDA's math functions within their documented ulps (stop 65): the emulator's bound of a library result counted
the programming guide's maximum ulp errors as half ulps ((1 + N) u |r|), so expf's 2 ulps were bounded by 1.5 and
powf's 4 by 1.5: a GPU within its documentation could fail `verify --device` against the emulator's run.  Now
N ulps are 2 N u |r| (an ulp of r is at most 2 u |r|), a correctly rounded result u |r|; __expf's extra error is
2 + floor(|1.173 x|) ulps; hypot's operands' bounds move it by hypot(ea, eb) (it is 1-Lipschitz in the plane),
not by the larger of the two.  Look-alikes: a GPU further off than the documented error on both sides still
fails, and sqrt (correctly rounded) keeps half an ulp."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport import compare
from kernelport.emulator import run_kernel

SRC = """
__global__ void k(const float* x, const float* y, float* out) {
    int i = threadIdx.x;
    out[i] = EXPR;
}
"""
X = np.linspace(0.5, 3.0, 32).astype(np.float32)
Y = np.linspace(1.0, 2.0, 32).astype(np.float32)


def _run(expr):
    return run_kernel(SRC.replace("EXPR", expr), "k", grid=(1, 1, 1), block=(32, 1, 1),
                      args={"x": X, "y": Y, "out": np.zeros(32, np.float32)})


def _ulps(v, n):
    """v moved n ulps up."""
    for _ in range(n):
        v = np.nextafter(v, np.float32(np.inf))
    return v


def _ok(r, got):
    return compare.compare({"out": got}, {"out": r.outputs["out"]}, "auto", None, r.bounds, r.bounds).ok


@pytest.mark.parametrize("expr, ulps", [("expf(x[i])", 2), ("sinf(x[i])", 2), ("tanf(x[i])", 4), ("powf(x[i], y[i])", 4),
                                        ("atan2f(x[i], y[i])", 3)])
def test_a_result_within_its_documented_ulps_is_within_the_bound(expr, ulps):
    r = _run(expr)
    out = r.outputs["out"]
    spacing = np.abs(np.nextafter(out, np.float32(np.inf)).astype(np.float64) - out)
    assert (r.bounds["out"] >= ulps * spacing).all(), expr
    assert _ok(r, _ulps(out, ulps))  # the GPU at its documented worst case, the emulator exact
    assert not _ok(r, _ulps(out, 2 * ulps + 2))  # further off than both sides' documented errors


def test_a_correctly_rounded_result_keeps_half_an_ulp():
    r = _run("sqrtf(x[i])")
    np.testing.assert_allclose(r.bounds["out"], np.abs(r.outputs["out"]) * 2.0 ** -24)
    assert not _ok(r, _ulps(r.outputs["out"], 2))


def test_fast_expf_holds_its_argument_dependent_ulps():
    r = run_kernel(SRC.replace("EXPR", "__expf(x[i] * 10.0f)"), "k", grid=(1, 1, 1), block=(32, 1, 1),
                   args={"x": X, "y": Y, "out": np.zeros(32, np.float32)})
    out = r.outputs["out"]
    spacing = np.abs(np.nextafter(out, np.float32(np.inf)).astype(np.float64) - out)
    arg = (X * np.float32(10.0)).astype(np.float64)
    assert (r.bounds["out"] >= (2 + np.floor(np.abs(1.173 * arg))) * spacing).all()


def test_hypot_moves_by_the_hypot_of_its_operands_bounds():
    r = _run("hypotf(x[i] / 3.0f, x[i] / 3.0f)")  # both operands off by their roundings, the same way
    q = (X / np.float32(3.0)).astype(np.float64)
    e = np.abs(q) * 2.0 ** -24  # each quotient's bound
    moved = np.hypot(q + e, q + e) - np.hypot(q, q)  # both moved by their bounds: sqrt(2) e
    assert (r.bounds["out"] >= moved).all()


def test_atan2_turns_with_its_operands_bounds():
    """Before, atan2's bound held its own rounding only: an operand's error vanished."""
    r = _run("atan2f(x[i] / 3.0f, 1.0f)")
    q = (X / np.float32(3.0)).astype(np.float64)
    moved = np.arctan2(q + np.abs(q) * 2.0 ** -24, 1.0) - np.arctan2(q, 1.0)
    own = np.abs(r.outputs["out"].astype(np.float64)) * 2.0 ** -24 * 6
    assert (r.bounds["out"] >= own + moved * 0.999).all()
