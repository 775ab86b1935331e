"""A comparison whose operands' error bounds straddle its threshold may go the other way on a GPU (stop 66,
emulator/flips.py): `if (y >= x)` where |y - x| <= ey + ex.  Before, the branch was taken as the emulator's run
took it and the outputs it decided were compared with the normal bound: a right port whose y rounded the other
way failed by the whole jump (0 against 2), and no finding said why.  Now the lanes such a comparison decides are
tainted: what they store afterwards is unknown (a float's bound NaN, an integer's element left out) and the site
is recorded (bounds_lost, unjudged), so the comparison is a skip naming it; where the construct it decides holds
a store a lane may have skipped, every output is unknown.  Look-alikes: the same comparison with its operands
further apart than their bounds is judged as before (a wrong value fails), an exact comparison never flips, and
`a > b ? a : b` picks one of two values within their bounds of each other: its bound is the larger, no taint."""
from __future__ import annotations

import numpy as np

from kernelport import compare
from kernelport.emulator import run_kernel

X = np.linspace(-1, 1, 32).astype(np.float32)


def _run(body, out_type="float"):
    src = (f"__global__ void k(const float* x, {out_type}* out, int* c) {{\n    int i = threadIdx.x;\n"
           f"    float y = x[i] * 3.0f / 3.0f;\n    {body}\n}}\n")
    return run_kernel(src, "k", grid=(1, 1, 1), block=(32, 1, 1),
                      args={"x": X, "out": np.zeros(32, np.dtype(out_type.replace("int", "int32"))),
                            "c": np.zeros(32, np.int32)})


def _cmp(r, got):
    return compare.compare({"out": got}, {"out": r.outputs["out"]}, "auto", None, r.bounds, r.bounds,
                           undefined=r.undefined)


def test_a_branch_a_gpu_may_take_the_other_way_is_unknown_at_its_comparison():
    r = _run("float v = 0.0f;\n    if (y >= x[i]) v = 2.0f;\n    out[i] = v;")
    assert np.isnan(r.bounds["out"]).all()
    assert any(s.startswith("<kernel>:5:9: a comparison within its operands' error bounds decides this branch")
               for s in r.bounds_lost), r.bounds_lost
    other = np.where(r.outputs["out"] == 0, 2.0, 0.0).astype(np.float32)  # the other side, everywhere
    c = _cmp(r, other)
    assert c.ok and c.unknown == 32  # a skip (unknown), not a failure
    assert "<kernel>:5:9" in compare.unknown_detail(c, r.bounds_lost)


def test_the_same_comparison_with_its_operands_apart_is_judged():
    r = _run("float v = 0.0f;\n    if (y >= x[i] + 0.5f) v = 2.0f;\n    out[i] = v;")
    assert not np.isnan(r.bounds["out"]).any() and not r.bounds_lost
    wrong = r.outputs["out"].copy()
    wrong[3] += 0.5
    assert not _cmp(r, wrong).ok


def test_an_exact_comparison_never_flips():
    r = _run("float v = 0.0f;\n    if (x[i] >= x[31 - i]) v = 2.0f;\n    out[i] = v;")
    assert not r.bounds_lost and not r.bounds["out"].any()


def test_an_integer_a_flip_decides_is_left_out():
    r = _run("int v = 0;\n    if (y > x[i]) v = 1;\n    out[i] = v;", "int")
    assert r.undefined["out"].all() and r.unjudged


def test_a_branch_that_stores_makes_every_output_unknown():
    """A lane that did not take `if (y > x) out[i] = 2;` skipped a store its taint cannot mark."""
    r = _run("out[i] = 1.0f;\n    c[i] = 7;\n    if (y > x[i]) out[i] = 2.0f;")
    assert np.isnan(r.bounds["out"]).all() and r.undefined["c"].all()


def test_the_larger_of_two_close_values_is_bounded_not_unknown():
    r = _run("out[i] = y > x[i] ? y : x[i];\n    c[i] = i;")
    assert not r.bounds_lost and not r.undefined
    e = np.abs(X.astype(np.float64)) * 2.0 ** -24
    assert (r.bounds["out"] >= e).all() and np.isfinite(r.bounds["out"]).all()


def test_a_lane_the_flip_did_not_reach_keeps_its_bound():
    r = _run("float v = 0.0f;\n    if (i < 4 && y >= x[i]) v = 2.0f;\n    out[i] = v;")
    assert np.isnan(r.bounds["out"][:4]).all() and not np.isnan(r.bounds["out"][4:]).any()
