"""The emulator's fused multiply-add rounds once, as CUDA's fma / fmaf / __fma_rn / __fmaf_rn and
nvcc's contraction of a*b + c do: against gcc's fma / fmaf (a C harness compiled here, random and
edge operands), with the look-alike that must stay two roundings (the product stored first)."""
from __future__ import annotations

import ctypes
import subprocess

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import in_ci, require_tool
from kernelport.emulator import run_kernel

NF, ND = 5, 3  # float and double results per thread

OPS = r"""
#include <math.h>
void ops(float a, float b, float c, double x, double y, double z, float* f, double* d)
{
    f[0] = fmaf(a, b, c);
    f[1] = FMAF_RN(a, b, c);
    f[2] = CONTRACT_F;
    f[3] = CONTRACT_FM;
    float t = a * b;
    f[4] = t + c;
    d[0] = fma(x, y, z);
    d[1] = FMA_RN(x, y, z);
    d[2] = CONTRACT_D;
}
"""

KERNEL = ("#define FMAF_RN __fmaf_rn\n#define FMA_RN __fma_rn\n#define CONTRACT_F a * b + c\n"
          "#define CONTRACT_FM a * b - c\n#define CONTRACT_D x * y + z\n" + OPS.replace("#include <math.h>\n", "") + r"""
__global__ void k(const float* a, const float* b, const float* c, const double* x, const double* y,
                  const double* z, float* f, double* d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) ops(a[i], b[i], c[i], x[i], y[i], z[i], f + i * 5, d + i * 3);
}
""")

# gcc with -ffp-contract=off: the contracted forms spelled as the fma nvcc makes of them
C_DRIVER = ("#define FMAF_RN fmaf\n#define FMA_RN fma\n#define CONTRACT_F fmaf(a, b, c)\n"
            "#define CONTRACT_FM fmaf(a, b, -c)\n#define CONTRACT_D fma(x, y, z)\n" + OPS + r"""
void run(int n, const float* a, const float* b, const float* c, const double* x, const double* y,
         const double* z, float* f, double* d)
{
    for (int i = 0; i < n; ++i) ops(a[i], b[i], c[i], x[i], y[i], z[i], f + i * 5, d + i * 3);
}
""")


@pytest.fixture(scope="module")
def c_fma(tmp_path_factory):
    cc = require_tool("cc")
    d = tmp_path_factory.mktemp("fma")
    (d / "fma.c").write_text(C_DRIVER)
    lib = d / "fma.so"
    r = subprocess.run([cc, "-O1", "-std=gnu11", "-ffp-contract=off", "-fno-fast-math", "-fPIC", "-shared",
                        "-o", str(lib), str(d / "fma.c"), "-lm"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    so = ctypes.CDLL(str(lib))

    def run(cols):
        n = len(cols[0])
        outs = [np.zeros(n * NF, np.float32), np.zeros(n * ND, np.float64)]
        ptr = lambda a: a.ctypes.data_as(ctypes.c_void_p)  # noqa: E731
        so.run(ctypes.c_int(n), *(ptr(c) for c in cols), *(ptr(o) for o in outs))
        return outs
    return run


def _emulated(cols):
    n = len(cols[0])
    args = dict(a=cols[0], b=cols[1], c=cols[2], x=cols[3], y=cols[4], z=cols[5],
                f=np.zeros(n * NF, np.float32), d=np.zeros(n * ND, np.float64), n=n)
    r = run_kernel(KERNEL, "k", args=args, grid=(1,), block=(64,), error_bound=False, check_races=False)
    return r.outputs["f"], r.outputs["d"]


def _compare(rows, c_fma):
    cols = [np.array([r[k] for r in rows], dt) for k, dt in enumerate([np.float32] * 3 + [np.float64] * 3)]
    for name, got, want, per, it in zip(("f", "d"), _emulated(cols), c_fma(cols), (NF, ND), (np.uint32, np.uint64)):
        same = (got.view(it) == want.view(it)) | (np.isnan(got) & np.isnan(want))
        bad = np.flatnonzero(~same)
        assert bad.size == 0, (f"{name}[{bad[0] % per}] of row {rows[bad[0] // per]}: emulator {got[bad[0]]!r}, "
                               f"gcc {want[bad[0]]!r} ({bad.size} differ)")


F32MAX, F64MAX = float(np.finfo(np.float32).max), float(np.finfo(np.float64).max)
# rows (a, b, c, x, y, z) where one rounding differs from two
HARD = [
    # float: a*b + c = 2^30 + 64 + 2^-30 lands, in double, on a float midpoint (2^30 + 64): rounded
    # twice it ties to 2^30, once it is 2^30 + 128.  double: 1 - 2^-60 - 1 is -2^-60 fused, 0 unfused
    (8 * (1 + 2 ** -18), -8 * (1 - 2 ** -18), 2.0 ** 30 + 128, 1 + 2 ** -30, 1 - 2 ** -30, -1.0),
    # max*max + -inf: the finite product is exact in an fma, -inf is the result (NaN rounded twice)
    (F32MAX, F32MAX, float("-inf"), F64MAX, F64MAX, float("-inf")),
    # max*2 - max is max, finite, where the rounded product overflowed
    (F32MAX, 2.0, -F32MAX, F64MAX, 2.0, -F64MAX),
    # signed zeros and a product below the smallest subnormal
    (-0.0, 1.0, -0.0, -1e-200, 1e-200, 0.0),
    (1e-30, -1e-30, 0.0, 5e-324, 0.5, -0.0),
    (float("nan"), 0.0, float("inf"), 0.0, float("inf"), 1.0),
]


def test_fma_rounds_once_where_two_roundings_differ(c_fma):
    """The hard rows: each result as gcc's fma; the look-alike (`float t = a * b; t + c`) keeps two
    roundings (on main the double fma was a*b + c in double: 0 for -2^-60, NaN for max*max - inf)."""
    _compare(HARD, c_fma)
    cols = [np.array([r[k] for r in HARD[:2]], dt) for k, dt in enumerate([np.float32] * 3 + [np.float64] * 3)]
    f, d = _emulated(cols)
    assert f[0] == 2.0 ** 30 + 128 and f[4] == 2.0 ** 30  # fused; the look-alike rounded twice
    assert d[0] == -2.0 ** -60 and d[1] == -2.0 ** -60 and d[2] == -2.0 ** -60
    assert d[3] == -np.inf and f[NF] == -np.inf and np.isnan(f[NF + 4])


f32 = st.floats(width=32, allow_nan=True, allow_infinity=True)
f64 = st.floats(allow_nan=True, allow_infinity=True)
near1 = st.floats(0.5, 2.0, width=32)  # products whose cancellation against c keeps low bits


@settings(max_examples=40, deadline=None, derandomize=in_ci(), database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.one_of(st.tuples(f32, f32, f32, f64, f64, f64),
                               st.tuples(near1, near1, st.floats(-4.0, 4.0, width=32), st.floats(0.5, 2.0),
                                         st.floats(0.5, 2.0), st.floats(-4.0, 4.0))), min_size=1, max_size=40))
@example(rows=HARD)
def test_fma_matches_gcc(c_fma, rows):
    _compare(rows, c_fma)


def test_contracted_bound_covers_the_unfused_result():
    """`a * b - c` is fused by nvcc's default and not by --fmad=false or the -ffp-contract=off reference:
    the emulator computes it fused (the exact residual here) and its bound must reach the unfused
    result (0) too; the explicit fmaf, fused on every compiler, keeps its tight bound (on main both
    bounds were u|r|, below the residual: a --fmad=false GPU result would fail verify's comparison)."""
    src = r"""
    __global__ void k(const float* a, const float* b, const float* c, float* d, float* e, float* s) {
        int i = threadIdx.x;
        d[i] = a[i] * b[i] - c[i];
        e[i] = fmaf(a[i], b[i], -c[i]);
        s[i] = c[i];
        s[i] -= a[i] * b[i];
    }"""
    rng = np.random.default_rng(57)
    a = rng.uniform(1, 2, 64).astype(np.float32)
    b = rng.uniform(1, 2, 64).astype(np.float32)
    c = a * b  # the product rounded: a*b - c is its rounding error
    residual = a.astype(np.float64) * b - c
    assert np.count_nonzero(residual) > 32
    z = lambda: np.zeros(64, np.float32)  # noqa: E731
    r = run_kernel(src, "k", args=dict(a=a, b=b, c=c, d=z(), e=z(), s=z()), grid=(1,), block=(64,))
    assert np.array_equal(r.outputs["d"], residual.astype(np.float32))  # fused: exact
    assert np.array_equal(r.outputs["e"], residual.astype(np.float32))
    assert np.all(r.bounds["d"] >= np.abs(residual))  # reaches the unfused 0
    assert np.array_equal(r.outputs["s"], -residual.astype(np.float32))
    assert np.all(r.bounds["s"] >= np.abs(residual))  # `x -= a*b`: the same
    assert np.all(r.bounds["e"] < np.abs(residual)[residual != 0].min())  # look-alike: explicit fma, tight


def test_an_integer_factor_is_converted_before_the_fused_product():
    """`i * f - c`: C converts i to float first (2^24 + 3 rounds to 2^24 + 4), then fuses; on main the
    product took i unrounded (-1 where C gives 0).  The look-alike: a float i exact in float, unchanged."""
    src = r"""
    __global__ void k(const int* i, const float* f, const float* c, float* d) {
        int t = threadIdx.x;
        d[t] = i[t] * f[t] - c[t];
    }"""
    i = np.array([2 ** 24 + 3, 2 ** 20 + 3], np.int32)
    f = np.ones(2, np.float32)
    c = np.array([2 ** 24 + 4, 2 ** 20 + 4], np.float32)
    r = run_kernel(src, "k", args=dict(i=i, f=f, c=c, d=np.zeros(2, np.float32)), grid=(1,), block=(2,))
    assert list(r.outputs["d"]) == [0.0, -1.0]


def _tie_rows(rng, n, tie=True):
    """Double triples whose c + RN(x*y) is a tie (c = +-2^m, RN(x*y) = +-2^(m-53)) with x*y's rounding
    error on either side: the fast double-double sum th + RN(tl + ul) lands on a midpoint there, and
    emulator.fused redoes those elements rounded to odd.  tie=False: c = +-2^(m+1), no tie."""
    x0 = rng.uniform(1, 2, n)
    m, s = rng.integers(-100, 100, n), rng.choice([-1.0, 1.0], n)
    z = np.ldexp(1.0, m if tie else m + 1) * s
    return [(1.0, 1.0, 1.0, float(x), float(y), float(c))
            for x, y, c in zip(np.ldexp(x0, m - 53) * s, 1 / x0, z)]


@pytest.mark.parametrize("tie", [True, False])
def test_double_fma_where_the_fast_sum_lands_on_a_midpoint(c_fma, tie):
    """The double fma's screen (fused._screened): rows where RN(th + RN(tl + ul)) is two roundings and
    wrong (checked here: at least 10 of 64), each as gcc's fma; the look-alike (no tie) as well."""
    from kernelport.emulator import fused
    rows = _tie_rows(np.random.default_rng(58), 64, tie)
    x, y, z = (np.array([r[k] for r in rows]) for k in (3, 4, 5))
    uh, ul = fused._two_product(x, y)
    th, tl = fused._two_sum(z, uh)
    want = c_fma([np.ones(64, np.float32)] * 3 + [x, y, z])[1][2::3]
    wrong = np.count_nonzero(th + (tl + ul) != want)
    assert (wrong >= 10) if tie else (wrong == 0)
    _compare(rows, c_fma)
