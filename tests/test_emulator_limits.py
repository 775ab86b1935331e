"""<limits.h>'s constants in kernels (heldout59 GPU_HDBSCAN mst.cu: `minv[v] = ULONG_MAX;` in initPM and
kernel3: before, "unknown name `ULONG_MAX`").  Each is the LP64 value (long is 64 bits on every CUDA and HIP
target) and keeps its type's width; a file's own definition of the name stays its own."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

KERNEL = r"""
__global__ void k(unsigned long long *u, long long *s, int *c) {
  u[0] = ULONG_MAX; u[1] = ULLONG_MAX; u[2] = ULONG_MAX - 1; u[3] = USHRT_MAX + UCHAR_MAX;
  s[0] = LONG_MAX; s[1] = LONG_MIN; s[2] = LLONG_MIN; s[3] = SHRT_MIN;
  c[0] = CHAR_BIT; c[1] = SCHAR_MIN; c[2] = CHAR_MAX; c[3] = (ULONG_MAX > 0) + (LONG_MIN < 0);
}
"""


def _run(src):
    return run_kernel(src, "k", args={"u": np.zeros(4, np.uint64), "s": np.zeros(4, np.int64), "c": np.zeros(4, np.int32)},
                      grid=(1,), block=(1,)).outputs


def test_limits_constants_are_lp64_values():
    out = _run(KERNEL)
    m64 = np.iinfo(np.uint64).max
    np.testing.assert_array_equal(out["u"], np.array([m64, m64, m64 - 1, 65535 + 255], np.uint64))
    i64 = np.iinfo(np.int64)
    np.testing.assert_array_equal(out["s"], np.array([i64.max, i64.min, i64.min, -32768], np.int64))
    np.testing.assert_array_equal(out["c"], [8, -128, 127, 2])


def test_a_files_own_definition_stays_its_own():
    out = _run("#define ULONG_MAX 7ull\n" + KERNEL)
    assert out["u"][0] == 7 and out["u"][2] == 6
