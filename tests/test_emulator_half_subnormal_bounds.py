"""A half rounding into the subnormal range is bounded by half the smallest subnormal (review66d, emulator/ufp.py).

u ufp(r) (stop 66) is half an ulp of a normal r; below half's smallest normal (2^-14) the spacing stays 2^-24,
so a product of two exact halves near 2^-13 rounded to 2^-26's neighbour (0, or a subnormal) carried a bound of
0 (or 2^-11 of a subnormal), less than its own rounding: the exact value was outside it.  Now at least 2^-25.
Look-alikes: a normal result keeps u ufp(r), an exact result of exact operands stays 0 (emulator/exact_ops.py)."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

SRC = """
#include <cuda_fp16.h>
__global__ void k(const __half* a, const __half* b, __half* o) {
    o[threadIdx.x] = __hmul(a[threadIdx.x], b[threadIdx.x]);
}
"""


def _run(a, b):
    a, b = np.array(a, np.float16), np.array(b, np.float16)
    r = run_kernel(SRC, "k", grid=(1, 1, 1), block=(len(a), 1, 1),
                   args={"a": a, "b": b, "o": np.zeros(len(a), np.float16)})
    exact = a.astype(np.float64) * b.astype(np.float64)
    return r.outputs["o"].astype(np.float64), r.bounds["o"].astype(np.float64), exact


def test_a_product_rounded_into_the_subnormal_range_is_within_its_bound():
    t = 2.0 ** -13
    o, e, exact = _run([t * 1.25, t * 1.5, t * 3.0], [t * 1.25, t * 1.75, t * 0.75])
    assert (np.abs(o - exact) > 0).all()  # (each rounded)
    assert (e >= np.abs(o - exact)).all() and (e >= 2.0 ** -25).all(), (o, e, exact)


def test_a_normal_product_keeps_half_an_ulp_and_an_exact_one_none():
    o, e, exact = _run([0.1, 0.5], [0.3, 0.25])
    assert e[0] == 2.0 ** -11 * 2.0 ** np.floor(np.log2(abs(o[0]))) and e[1] == 0, e
