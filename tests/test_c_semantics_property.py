"""Property-based: the emulator's C integer and float semantics against the same C compiled by gcc.

One helper computes ~50 results per (int, int, unsigned, unsigned, float, float) tuple: int32
wrap-around, unsigned arithmetic, shifts, truncating / and %, conversions between the integer
widths and to and from float, float32 rounding of + - * /, comparisons across signedness.  The
emulator runs it as a kernel (one thread per tuple); gcc compiles it (`-fwrapv`: the wrap-around
the GPU does is then defined C, `-ffp-contract=off`: no fused multiply-add on either side) and runs
it through ctypes.  Every result must agree bit for bit (NaN with NaN).

Only defined behaviour is generated: no division by zero or INT_MIN / -1, shift counts below 32,
float-to-int conversions of values in range.
"""
from __future__ import annotations

import ctypes
import subprocess

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import in_ci, require_tool
from kernelport.emulator import run_kernel

NI, NU, NF = 24, 16, 12  # results per thread: int, unsigned, float

OPS = r"""
#define NI 24
#define NU 16
#define NF 12
void ops(int x, int y, unsigned ux, unsigned uy, float f, float g, int* io, unsigned* uo, float* fo)
{
    int s = y & 31;
    int dy = (y == 0 || (x == (-2147483647 - 1) && y == -1)) ? 1 : y;
    unsigned duy = uy == 0u ? 1u : uy;
    float h = (f > -2147483520.0f && f < 2147483520.0f) ? f : 0.0f;
    float hu = (f > -1.0f && f < 4294967040.0f) ? f : 0.0f;
    io[0] = x + y;
    io[1] = x - y;
    io[2] = x * y;
    io[3] = x / dy;
    io[4] = x % dy;
    io[5] = x >> s;
    io[6] = (int)((unsigned)x << s);
    io[7] = -x;
    io[8] = ~x ^ (y | 12345);
    io[9] = (short)x;
    io[10] = (unsigned short)x;
    io[11] = (signed char)x;
    io[12] = (unsigned char)x * (unsigned char)y;
    io[13] = x < ux;
    io[14] = (int)ux;
    io[15] = (int)h;
    io[16] = x / 7 + x % -5;
    io[17] = (x >> 3) == (x / 8);
    io[18] = f < g;
    io[19] = f == g;
    io[20] = (long long)x * y > 0;
    io[21] = (int)(((long long)x * (long long)y) >> 32);
    io[22] = (x & 0xff) + (x >> 24);
    io[23] = x > 0 ? x : y;
    uo[0] = ux + uy;
    uo[1] = ux - uy;
    uo[2] = ux * uy;
    uo[3] = ux / duy;
    uo[4] = ux % duy;
    uo[5] = ux >> s;
    uo[6] = ux << s;
    uo[7] = -ux;
    uo[8] = x + ux;
    uo[9] = (unsigned)x / duy;
    uo[10] = (unsigned)hu;
    uo[11] = (unsigned short)(ux + uy) + 0u;
    uo[12] = ux > (unsigned)y;
    uo[13] = (unsigned)(x >> 31);
    uo[14] = ~ux & (uy | 0xf0f0f0f0u);
    uo[15] = (ux >> 16) * (uy & 0xffffu);
    fo[0] = f + g;
    fo[1] = f - g;
    fo[2] = f * g;
    fo[3] = f / g;
    fo[4] = (float)x;
    fo[5] = (float)ux;
    fo[6] = (float)((double)f * (double)g);
    fo[7] = -f;
    fo[8] = f * 0.1f;
    fo[9] = (float)x * f;
    fo[10] = f + 1.0f - g;
    fo[11] = (float)(x / dy) / 3.0f;
}
"""

KERNEL = OPS + r"""
__global__ void k(const int* a, const int* b, const unsigned* ua, const unsigned* ub, const float* fa,
                  const float* fb, int* io, unsigned* uo, float* fo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) ops(a[i], b[i], ua[i], ub[i], fa[i], fb[i], io + i * NI, uo + i * NU, fo + i * NF);
}
"""

C_DRIVER = OPS + r"""
void run(int n, const int* a, const int* b, const unsigned* ua, const unsigned* ub, const float* fa,
         const float* fb, int* io, unsigned* uo, float* fo)
{
    for (int i = 0; i < n; ++i) ops(a[i], b[i], ua[i], ub[i], fa[i], fb[i], io + i * NI, uo + i * NU, fo + i * NF);
}
"""


@pytest.fixture(scope="module")
def c_run(tmp_path_factory):
    cc = require_tool("cc")
    d = tmp_path_factory.mktemp("csem")
    (d / "ops.c").write_text(C_DRIVER)
    lib = d / "ops.so"
    r = subprocess.run([cc, "-O1", "-std=gnu11", "-fwrapv", "-ffp-contract=off", "-fno-fast-math", "-fPIC",
                        "-shared", "-o", str(lib), str(d / "ops.c")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    so = ctypes.CDLL(str(lib))

    def run(cols):
        n = len(cols[0])
        outs = [np.zeros(n * NI, np.int32), np.zeros(n * NU, np.uint32), np.zeros(n * NF, np.float32)]
        ptr = lambda a: a.ctypes.data_as(ctypes.c_void_p)  # noqa: E731
        so.run(ctypes.c_int(n), *(ptr(c) for c in cols), *(ptr(o) for o in outs))
        return outs
    return run


i32 = st.integers(-2 ** 31, 2 ** 31 - 1)
u32 = st.integers(0, 2 ** 32 - 1)
f32 = st.floats(width=32, allow_nan=True, allow_infinity=True)
EDGE = dict(rows=[(-2 ** 31, -1, 2 ** 32 - 1, 0, float("inf"), float("-inf")),
                  (2 ** 31 - 1, 1, 2 ** 31, 31, -0.0, 0.0),
                  (-7, 2, 5, 3, 1.5e-45, 3.4028235e38),
                  (-2 ** 31, 31, 1, 2 ** 32 - 1, float("nan"), 2.0),
                  (123456789, -98765, 4000000000, 7, 16777217.0, 0.1)])
PROFILE = dict(max_examples=40, deadline=None, derandomize=in_ci(), database=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@settings(**PROFILE)
@given(rows=st.lists(st.tuples(i32, i32, u32, u32, f32, f32), min_size=1, max_size=40))
@example(**EDGE)
def test_emulator_c_semantics_match_gcc(c_run, rows):
    cols = [np.array([r[k] for r in rows], dt) for k, dt in
            enumerate((np.int32, np.int32, np.uint32, np.uint32, np.float32, np.float32))]
    want_i, want_u, want_f = c_run(cols)
    n = len(rows)
    args = dict(a=cols[0], b=cols[1], ua=cols[2], ub=cols[3], fa=cols[4], fb=cols[5],
                io=np.zeros(n * NI, np.int32), uo=np.zeros(n * NU, np.uint32), fo=np.zeros(n * NF, np.float32), n=n)
    r = run_kernel(KERNEL, "k", args=args, grid=(1,), block=(64,), error_bound=False, check_races=False)
    for name, got, want, per in (("io", r.outputs["io"], want_i, NI), ("uo", r.outputs["uo"], want_u, NU),
                                 ("fo", r.outputs["fo"], want_f, NF)):
        if name == "fo":
            same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
        else:
            same = got == want
        bad = np.flatnonzero(~same)
        assert bad.size == 0, (f"{name}[{bad[0] % per}] of row {rows[bad[0] // per]}: emulator {got[bad[0]]!r}, "
                               f"gcc {want[bad[0]]!r} ({bad.size} differ)")
