"""`__syncwarp(__activemask())`: the active lanes handed to a warp barrier as its mask are no vote of a
32-lane group (kernelport/warpwidth.py `_barrier_mask`): the port's barrier takes no mask and no code reads
the value, so it cannot see another group's lanes of a 64-lane wave.

Held-out set 94 (a flash-attention kernel with wmma): `__syncwarp(__activemask())` between tiles made the
group's 32-lane warps (wmma's fragments) "votes that may see two 32-lane groups" and refused it KP219 (the
file also needs <cuda_pipeline.h>, another helper's).  The kept port runs on the emulator at 64 against the
original at 32."""
from __future__ import annotations

import numpy as np

from port_support import assert_port_at_64_is_original_at_32, ported, refusal

KERNEL = """\
__global__ void rowsum(const float* x, float* out) {
    int lane = threadIdx.x % 32;
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o, 32);
    MASKED
    if (lane == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}
void launch(const float* x, float* out, int blocks) {
    rowsum<<<blocks, 256>>>(x, out);
}
"""


def test_an_active_mask_given_to_a_warp_barrier_is_no_vote():
    code = KERNEL.replace("MASKED", "__syncwarp(__activemask());")
    port, text = ported(code, dedent=False)
    assert "__shfl_xor(v, o, 32)" in port.body and "__activemask" not in port.body, port.body
    x = np.random.default_rng(2).integers(-9, 9, 512).astype(np.float32)
    assert_port_at_64_is_original_at_32(code, text, "rowsum", {"x": x, "out": np.zeros(16, np.float32)},
                                        (2, 1, 1), (256, 1, 1), ("out",))


def test_an_active_mask_the_code_reads_is_still_a_vote():
    """The look-alike: the kernel tests the active mask's value: at 64 it would see the other group's lanes."""
    errors = refusal(KERNEL.replace("MASKED", "if (__activemask() != 0xffffffff) return;"), dedent=False)
    assert any(e.code == "KP219" for e in errors), errors
