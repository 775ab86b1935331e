"""<stdint.h>'s limits in kernels (heldout62 cuda-random-stream randomStream.cu: `(float)x / UINT32_MAX`;
before, "unknown name `UINT32_MAX`"), and <stdlib.h>'s RAND_MAX (heldout67 curva mutual_information.cu).  Each is glibc's value with its type's width (UINT32_MAX an unsigned
int: `UINT32_MAX + 1u` wraps to 0; INT64_MIN a long); a file's own definition of the name stays its own."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

KERNEL = r"""
__global__ void k(unsigned long long *u, long long *s, float *f) {
  u[0] = UINT32_MAX; u[1] = UINT32_MAX + 1u; u[2] = UINT64_MAX; u[3] = UINT16_MAX + UINT8_MAX + SIZE_MAX;
  s[0] = INT32_MIN; s[1] = INT64_MIN; s[2] = INT64_MAX; s[3] = (long long)INT32_MAX + INT16_MAX + INT8_MIN;
  f[0] = (float)2147483648u / UINT32_MAX; f[1] = RAND_MAX / (RAND_MAX + 1.0f);
}
"""


def _run(src):
    return run_kernel(src, "k", args={"u": np.zeros(4, np.uint64), "s": np.zeros(4, np.int64), "f": np.zeros(2, np.float32)},
                      grid=(1,), block=(1,)).outputs


def test_stdint_limits_are_glibc_values_of_their_widths():
    out = _run(KERNEL)
    m64 = np.iinfo(np.uint64).max
    np.testing.assert_array_equal(out["u"], np.array([2**32 - 1, 0, m64, 65535 + 255 - 1], np.uint64))
    i64 = np.iinfo(np.int64)
    np.testing.assert_array_equal(out["s"], np.array([-2**31, i64.min, i64.max, 2**31 - 1 + 32767 - 128], np.int64))
    assert out["f"][0] == np.float32(np.float32(2147483648.0) / np.float32(2**32 - 1))
    assert out["f"][1] == np.float32(np.float32(2**31 - 1) / (np.float32(2**31 - 1) + np.float32(1.0)))  # <stdlib.h>


def test_a_files_own_definition_stays_its_own():
    out = _run("#define UINT32_MAX 7u\n" + KERNEL)
    assert out["u"][0] == 7 and out["u"][1] == 8
