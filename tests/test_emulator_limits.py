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


# <stdint.h>'s limits and <stdlib.h>'s RAND_MAX (heldout62 cuda-random-stream: `(double)buff / (double)UINT32_MAX`;
# heldout67 curva: `delta1[i] = RAND_MAX;`): glibc's values with their types' widths (UINT32_MAX + 1u wraps)
STDINT = r"""
__global__ void k(unsigned long long *u, long long *s, int *c) {
  u[0] = UINT32_MAX; u[1] = UINT32_MAX + 1u; u[2] = UINT64_MAX; u[3] = UINT16_MAX + UINT8_MAX + SIZE_MAX;
  s[0] = INT32_MIN; s[1] = INT64_MIN; s[2] = INT64_MAX; s[3] = (long long)INT32_MAX + INT16_MAX + INT8_MIN;
  c[0] = RAND_MAX; c[1] = INT8_MAX; c[2] = INT16_MIN; c[3] = (INT64_MIN < 0) + (UINT64_MAX > 0);
}
"""


def test_stdint_limits_and_rand_max_are_glibc_values_of_their_widths():
    out = _run(STDINT)
    m64, i64 = np.iinfo(np.uint64).max, np.iinfo(np.int64)
    np.testing.assert_array_equal(out["u"], np.array([2**32 - 1, 0, m64, 65535 + 255 - 1], np.uint64))
    np.testing.assert_array_equal(out["s"], np.array([-2**31, i64.min, i64.max, 2**31 - 1 + 32767 - 128], np.int64))
    np.testing.assert_array_equal(out["c"], [2**31 - 1, 127, -32768, 2])


def test_a_files_own_stdint_definition_stays_its_own():
    out = _run("#define UINT32_MAX 7u\n" + STDINT)
    assert out["u"][0] == 7 and out["u"][1] == 8
