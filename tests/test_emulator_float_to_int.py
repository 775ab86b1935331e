"""C's conversion of a floating-point value to an integer type, as nvcc's build computes it.  C leaves a
value outside the destination's range undefined; PTX's `cvt.rzi.{s,u}N.fM` truncates toward zero and
saturates ("for float-to-integer conversions, the result is clamped to the destination range by default"),
NaN -> 0 (1 << (N - 1) from a double or to 64 bits); nvcc converts a float or a double to 8 or 16 bits
through 32 (`cvt.rzi.s32.f32`, the store keeping the low bits).  The emulator used numpy's astype, which
wraps: rodinia hybridsort's histogram1024Kernel, `unsigned int data4 = ((d_Data[pos] - minimum) / (maximum -
minimum)) * BIN_COUNT` with d_Data below minimum, binned -3.7 as 4294967293 & 0x3FF where the H100 bins 0
(d_Result[0] 96 on the GPU, 7 in the emulator)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from kernelport.emulator import run_kernel

# (C type, bits, signed, numpy dtype)
TYPES = [("signed char", 8, True, np.int8), ("unsigned char", 8, False, np.uint8),
         ("short", 16, True, np.int16), ("unsigned short", 16, False, np.uint16),
         ("int", 32, True, np.int32), ("unsigned int", 32, False, np.uint32),
         ("long long", 64, True, np.int64), ("unsigned long long", 64, False, np.uint64)]

OUT_OF_RANGE = np.array([-3.7, -0.5, np.nan, 1e30, -1e30, np.inf, -np.inf, 200.0, -200.0, 300.0, 70000.0,
                         2.0 ** 31, 2.0 ** 32, 2.0 ** 63, 2.0 ** 64, -2.0 ** 31, -2.0 ** 63], np.float32)
IN_RANGE = np.array([0.0, 0.25, 1.0, 3.7, 7.9, 12.5, 100.99, 126.5, 127.0], np.float32)


def ptx(x: float, bits: int, signed: bool, double: bool = False) -> int:
    """PTX's cvt.rzi to `bits` (nvcc's: 8 and 16 bits through 32 from a float or a double), independently of
    the emulator: NaN -> 0 (1 << (N - 1) from a double or to 64), truncation, saturation, then the low bits."""
    n = max(bits, 32)
    if math.isnan(x):
        r = 1 << (n - 1) if double or n == 64 else 0
        r = -r if signed and r else r
    else:
        lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed else (0, (1 << n) - 1)
        r = hi if x >= hi else lo if x <= lo else math.trunc(x)
    r &= (1 << bits) - 1
    return r - (1 << bits) if signed and r >= 1 << (bits - 1) else r


def _kernel(ctype: str) -> str:
    return f"""
__device__ {ctype} through(float v) {{ return v; }}
__device__ {ctype} take({ctype} v) {{ return v; }}
__global__ void k(const float* x, const double* d, {ctype}* cast, {ctype}* implicit, {ctype}* ret, {ctype}* arg,
                  {ctype}* compound, {ctype}* from_double, int n) {{
    int i = threadIdx.x;
    if (i < n) {{
        cast[i] = ({ctype})x[i];
        {ctype} v = x[i] * 1.0f;
        implicit[i] = v;
        ret[i] = through(x[i]);
        arg[i] = take(x[i]);
        {ctype} c = 0;
        c += x[i];
        compound[i] = c;
        from_double[i] = d[i];
    }}
}}
"""


def _run(ctype, dt, x, wave):
    n = len(x)
    names = ("cast", "implicit", "ret", "arg", "compound", "from_double")
    args = {"x": x, "d": x.astype(np.float64), **{k: np.full(n, 7, dt) for k in names}, "n": np.int32(n)}
    r = run_kernel(_kernel(ctype), "k", args=args, grid=(1,), block=(32,), wave=wave)
    return {k: r.outputs[k].tolist() for k in names}


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("ctype,bits,signed,dt", TYPES)
def test_out_of_range_and_nan_convert_as_ptx_cvt(ctype, bits, signed, dt, wave):
    got = _run(ctype, dt, OUT_OF_RANGE, wave)
    want = [ptx(float(v), bits, signed) for v in OUT_OF_RANGE]
    for k in ("cast", "implicit", "ret", "arg", "compound"):
        assert got[k] == want, (k, list(zip(OUT_OF_RANGE.tolist(), got[k], want)))
    assert got["from_double"] == [ptx(float(v), bits, signed, double=True) for v in OUT_OF_RANGE]


def test_the_rules_spot_values():
    # what the H100 gives (bench/device run of stop 60) and the PTX text says, spelled out
    assert ptx(-3.7, 32, False) == 0 and ptx(float("nan"), 32, True) == 0
    assert ptx(float("nan"), 32, True, double=True) == -2 ** 31 and ptx(float("nan"), 64, False) == 2 ** 63
    assert ptx(200.0, 8, True) == -56 and ptx(1e30, 8, True) == -1 and ptx(-1e30, 16, False) == 0
    got = _run("unsigned int", np.uint32, np.array([-3.7, np.nan, 5e9, -0.9], np.float32), 32)
    assert got["cast"] == [0, 0, 4294967295, 0]
    got = _run("signed char", np.int8, np.array([200.0, 1e30, -129.5], np.float32), 32)
    assert got["cast"] == [-56, -1, 127]  # through 32 bits: 200, INT_MAX, -129 -> their low bytes


@pytest.mark.parametrize("ctype,bits,signed,dt", TYPES)
def test_in_range_values_truncate_toward_zero_unchanged(ctype, bits, signed, dt):
    x = IN_RANGE if not signed else np.concatenate([IN_RANGE, -IN_RANGE])
    got = _run(ctype, dt, x, 32)
    want = np.trunc(x.astype(np.float64)).astype(np.int64).tolist()
    for k, v in got.items():
        assert v == want, k


def test_a_float_that_is_no_conversion_stays_a_float():
    # look-alike: the same arithmetic stored to a float is not truncated or clamped
    src = """__global__ void k(const float* x, float* y) { int i = threadIdx.x; float v = x[i] * 1.0f; y[i] = v; }"""
    x = np.array([-3.7, 1e30, np.inf, 200.5], np.float32)
    r = run_kernel(src, "k", args={"x": x, "y": np.zeros(4, np.float32)}, grid=(1,), block=(4,))
    np.testing.assert_array_equal(r.outputs["y"], x)


def test_int_to_int_conversions_still_wrap():
    # look-alike: an integer out of the destination's range is converted modulo 2^N (C's rule), not clamped
    src = """__global__ void k(const int* a, unsigned char* b, unsigned int* c) {
        int i = threadIdx.x; b[i] = a[i]; c[i] = a[i]; }"""
    a = np.array([-3, 300, -200, 70000], np.int32)
    r = run_kernel(src, "k", args={"a": a, "b": np.zeros(4, np.uint8), "c": np.zeros(4, np.uint32)},
                   grid=(1,), block=(4,))
    assert r.outputs["b"].tolist() == [253, 44, 56, 112]
    assert r.outputs["c"].tolist() == [4294967293, 300, 4294967096, 70000]


def test_rounding_intrinsics_saturate_at_64_bits_and_take_a_float():
    src = """__global__ void k(const float* x, long long* a, int* b, unsigned int* c, long long* d) {
        int i = threadIdx.x;
        a[i] = __float2ll_rz(x[i]); b[i] = __float2int_rn(x[i]); c[i] = __float2uint_rd(x[i]);
        d[i] = llrintf(x[i]); }"""
    x = np.array([1e30, -1e30, np.nan, -3.5, 2.5, 0.49999997], np.float32)
    n = len(x)
    r = run_kernel(src, "k", args={"x": x, "a": np.zeros(n, np.int64), "b": np.zeros(n, np.int32),
                                   "c": np.zeros(n, np.uint32), "d": np.zeros(n, np.int64)}, grid=(1,), block=(n,))
    big, small = 2 ** 63 - 1, -2 ** 63
    assert r.outputs["a"].tolist() == [big, small, small, -3, 2, 0]  # NaN to 64 bits: 1 << 63
    assert r.outputs["b"].tolist() == [2 ** 31 - 1, -2 ** 31, 0, -4, 2, 0]
    assert r.outputs["c"].tolist() == [2 ** 32 - 1, 0, 0, 0, 2, 0]
    assert r.outputs["d"].tolist() == [big, small, small, -4, 2, 0]
