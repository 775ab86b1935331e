"""A host launcher takes the width translate keeps its kernels at (review66f): a kernel whose shuffles name the width
32 and whose ballot lies in a 256-thread block is an undecided group that translate keeps at 32 lanes, each vote over
its own CUDA warp (kernelport/halfvotes.py).  The host function launching it inherited the group's `undecided`
(launchgroups) and stayed so, so the file-scope `#define WARP_SIZE 32` was decided by it: made the wave, while the
kernel's shuffles and ballot stayed 32-lane.  At wave 64 `lane = threadIdx.x % WARP_SIZE` then named one writer per
64 lanes and `warp = threadIdx.x / WARP_SIZE` 4 warps of 8: half the warps' sums were lost (verify: out[1] 8.80 where
CUDA gives -3.03).  Now a host group that inherited its width from kernels kept at 32 lanes is kept with them.
Look-alike: unsized shuffles with the ballot in the same blocks are the wave's, and the macro becomes the wave."""
from __future__ import annotations

import numpy as np
from conftest import hip_compiles
from port_support import assert_port_at_64_is_original_at_32, ported

KERNEL = """#define WARP_SIZE 32
__global__ void k(const int *a, int *out, int *cnt, int n) {
  int lane = threadIdx.x % WARP_SIZE;
  int warp = threadIdx.x / WARP_SIZE;
  int v = a[threadIdx.x + blockIdx.x * blockDim.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o, 32);
  unsigned b = __ballot_sync(0xffffffff, v > 0);
  if (lane == 0) { out[blockIdx.x * 8 + warp] = v; cnt[blockIdx.x * 8 + warp] = __popc(b); }
}
void run(const int *a, int *o, int *c, int n) { k<<<n / 256, 256>>>(a, o, c, n); }
"""


def test_the_launchers_macro_stays_the_kernels_32_and_the_port_computes_cudas_sums(tmp_path):
    port, text = ported(KERNEL, dedent=False)
    assert "#define WARP_SIZE 32" in text and "KP_WAVE_SIZE" not in text.split("__global__")[1], text
    rng = np.random.default_rng(5)
    args = {"a": rng.integers(-9, 10, 512).astype(np.int32), "out": np.zeros(16, np.int32),
            "cnt": np.zeros(16, np.int32), "n": 512}
    assert_port_at_64_is_original_at_32(KERNEL, text, "k", args, (2, 1, 1), (256, 1, 1), outputs=("out", "cnt"))
    hip_compiles(tmp_path, text)


def test_look_alike_unsized_shuffles_are_the_waves():
    wave = KERNEL.replace("__shfl_down_sync(0xffffffff, v, o, 32)", "__shfl_down_sync(0xffffffff, v, o)")
    _, text = ported(wave, dedent=False)
    assert "#define WARP_SIZE KP_WAVE_SIZE" in text, text
