"""A file-scope `__shared__` variable in the emulator (review66a of heldout103's sized extern __shared__).

heldout103 made `extern __shared__ T s[N]` nvcc's static definition; at file scope (`extern __shared__ float fs[64];`,
and a plain `__shared__ float fs[64];` before it) the emulator's compiler held the variable as one grid-wide global,
so every block read what the last block wrote: block 0 of a two-block reversal gave 127, 126, ... where CUDA gives
63, 62, ..., with no error, for the original and the HIP port alike, while the Metal port (which declares it in the
kernel) computed CUDA's values: verify failed a right port.  A file-scope dynamic one (`extern __shared__ float
fd[];`) was a one-element global ("out-of-bounds write").  Each is now the block's shared memory, in the kernel and
in the helpers that name it."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel

KERNEL = """DECL
extern __shared__ float fd[];
__device__ float mirror(int t) { return fs[63 - t]; }
__global__ void k(float *o) {
    fs[threadIdx.x] = o[blockIdx.x * 64 + threadIdx.x];
    fd[threadIdx.x] = blockIdx.x;
    __syncthreads();
    o[blockIdx.x * 64 + threadIdx.x] = mirror(threadIdx.x) + fd[63 - threadIdx.x] * 1000;
}
"""


@pytest.mark.parametrize("decl", ["extern __shared__ float fs[64];", "__shared__ float fs[64];",
                                  "static __shared__ float fs[64];"])
def test_each_block_has_its_own_file_scope_shared_memory(decl):
    o = np.arange(128, dtype=np.float32)
    got = run_kernel(KERNEL.replace("DECL", decl), "k", args={"o": o.copy()}, grid=(2,), block=(64,),
                     shared_bytes=256, backend="cuda").outputs["o"]
    want = np.concatenate([63 - np.arange(64), 127 - np.arange(64) + 1000]).astype(np.float32)
    np.testing.assert_array_equal(got, want)
