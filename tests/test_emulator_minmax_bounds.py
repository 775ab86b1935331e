"""Error bounds of fmin/fmax (kernelport/emulator/intrinsics.py `_chosen_bound`).

Before stop 51 the result took the chosen operand's bound.  With exact operands A within ea of x and
B within eb of y, where the two intervals overlap the exact minimum may be B while the computed one is
x: fmin(x = 1 +- 0.25, y = 1.5 +- 0.5) computes 1, but A = 1.25, B = 1.0 give 1.0, and A = 1.25,
B = 1.0 - 0.001... the result moves by up to the larger bound (min and max are 1-Lipschitz in the max
norm), so max(ea, eb) is the rigorous bound; the chosen operand's own bound holds only where the
intervals cannot trade places (x + ea <= y - eb for a minimum of x, the edge included).
"""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.intrinsics import math2

F32 = np.float32


def _bound(fn, x, ea, y, eb):
    a = (np.array([x], F32), None if ea is None else np.array([ea]))
    b = (np.array([y], F32), None if eb is None else np.array([eb]))
    return float(math2(fn, a, b, True)[1][0])


@pytest.mark.parametrize("x, ea, y, eb, want", [
    (1.0, 0.25, 2.0, 0.25, 0.25),    # apart: x's interval below y's, x's bound
    (1.0, 0.25, 1.5, 0.25, 0.25),    # the edge: x + ea == y - eb, the exact minimum is still x's
    (1.0, 0.25, 1.5, 0.5, 0.5),      # overlapping: y's larger bound (the old rule said 0.25)
    (1.0, 0.5, 1.25, 0.125, 0.5),    # overlapping, the chosen one's bound the larger
    (3.0, 0.5, 1.0, 0.125, 0.125),   # apart, y chosen
    (1.0, None, 1.25, 0.5, 0.5),     # an exact operand overlapping an inexact one (the old rule said 0)
])
def test_fmin_bound_at_the_edge(x, ea, y, eb, want):
    assert _bound("fmin", x, ea, y, eb) == want


@pytest.mark.parametrize("x, ea, y, eb, want", [
    (2.0, 0.25, 1.0, 0.25, 0.25),
    (1.5, 0.25, 1.0, 0.25, 0.25),    # the edge: x - ea == y + eb
    (1.5, 0.25, 1.0, 0.5, 0.5),      # overlapping (the old rule said 0.25)
    (1.0, 0.125, 3.0, 0.5, 0.5),     # apart, y chosen
    (1.25, None, 1.0, 0.5, 0.5),
])
def test_fmax_bound_at_the_edge(x, ea, y, eb, want):
    assert _bound("fmax", x, ea, y, eb) == want


@pytest.mark.parametrize("fn, exact", [("fmin", np.minimum), ("fmax", np.maximum)])
def test_the_bound_covers_every_exact_pair_of_operands(fn, exact):
    rng = np.random.default_rng(51)
    n = 4000
    x = rng.uniform(-2, 2, n).astype(F32)
    y = (x + rng.uniform(-1, 1, n)).astype(F32)
    ea, eb = rng.uniform(0, 0.5, n), rng.uniform(0, 0.5, n)
    r, e = math2(fn, (x, ea), (y, eb), True)
    for sa in (-1.0, 0.0, 1.0):  # the corners and centres of the box of exact operands
        for sb in (-1.0, 0.0, 1.0):
            got = exact(x + sa * ea, y + sb * eb)
            assert np.all(np.abs(got - r) <= e * (1 + 1e-12)), fn  # (the corners: equal up to float64 rounding)


def test_a_kernels_fminf_of_overlapping_values_takes_the_larger_bound():
    # s sums 0.1f a hundred times (a bound of many roundings); c, exact, is the float just below s: fminf
    # chooses c, but s's exact value may lie below c, so the result's bound is s's (the old rule: 0)
    src = r"""
__global__ void k(const float* c, float* out) {
    float s = 0.0f;
    for (int j = 0; j < 100; ++j) s += 0.1f;
    out[0] = fminf(s, c[0]);
    out[1] = s;
    out[2] = fminf(s, c[1]);
}
"""
    s = F32(0)
    for _ in range(100):
        s = F32(s + F32(0.1))
    c = np.array([np.nextafter(s, F32(0)), s - F32(1)], F32)  # just below s; far below it
    r = run_kernel(src, "k", args=dict(c=c, out=np.zeros(3, F32)), grid=(1,), block=(1,))
    assert r.outputs["out"][0] == c[0] and r.outputs["out"][1] == s
    e = r.bounds["out"]
    assert e[1] > 1e-6 and e[0] == e[1]
    assert e[2] == 0  # apart: c[1]'s own (exact) bound
