"""`typedef struct __align__(16) region_data_t { ... } region_data_t;` (hecbench egs-cuda: "cannot lower for the
emulator: before: reg_dat"): the attribute's argument goes with the dropped word, so the typedef is C and the
type is known.  Look-alikes: a helper whose name begins like the attribute (`__align_up(n)`) is still called,
and `__launch_bounds__(...)` still goes with its arguments."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

KERNEL = r"""
typedef unsigned short ushort;
typedef struct __align__(16) reg_t {
    ushort med;
    float rhof;
} reg_t;
__device__ int __align_up(int n) { return (n + 3) & ~3; }
__device__ float step(const reg_t* regions, int r) {
  reg_t reg_dat = regions[r];
  return reg_dat.rhof + reg_dat.med + __align_up(r);
}
__global__ void __launch_bounds__(64, 2) k(const reg_t* regions, float* y) { y[threadIdx.x] = step(regions, threadIdx.x); }
"""


def test_an_aligned_typedef_struct_runs():
    dt = np.dtype({"names": ["med", "rhof"], "formats": [np.uint16, np.float32], "offsets": [0, 4], "itemsize": 16})
    regions = np.zeros(8, dt)
    regions["med"], regions["rhof"] = np.arange(8), 0.5 * np.arange(8)
    y = run_kernel(KERNEL, "k", args={"regions": regions, "y": np.zeros(8, np.float32)}, grid=(1,), block=(8,))
    r = np.arange(8)
    np.testing.assert_array_equal(y.outputs["y"], (r + 0.5 * r + (r + 3) // 4 * 4).astype(np.float32))
