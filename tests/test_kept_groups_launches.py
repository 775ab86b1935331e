"""A host launch sized in CUDA warps (`dim3 block(warps * 32)`) is no kept hazard (KP225) only where every
kernel that block reaches is one translate keeps at 32-lane groups (kernelport/kept_hazards.py
`_kept_groups`): a kernel the file only declares (defined in another file, ported there, possibly to the
wave) says nothing of its groups, and a block handed to a launcher of the file (`go(x, block)`) is launched
there.  Review of stop 64's merge of h/heldout94 (413fd85f, bf917e0f): both were written without KP225, as
if the declared kernel kept 32-lane groups; the file's own kernel alone, launched directly or through its
launcher, is still written (its `warpSize` beside the 32-lane groups is 32 there, as the original's: lint's
WS015 on the original's launch) and runs at wave 64 as the original at 32."""
from __future__ import annotations

import numpy as np

from port_support import ported, refusal

KERNEL = """\
__global__ void rows_kernel(const float* x, float* out) {
    extern __shared__ float slots[];
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) slots[warp] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        float s = threadIdx.x < blockDim.x / 32 ? slots[threadIdx.x] : 0.0f;
        for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffff, s, o);
        if (threadIdx.x == 0) out[blockIdx.x] = s;
        if (threadIdx.x == 0) out[gridDim.x + blockIdx.x] = (float)warpSize;
    }
}
__global__ void other(const float* x, float* out);
"""
DIRECT = KERNEL + """\
void launch(const float* x, float* out, int warps, int blocks) {
    dim3 block(warps * 32);
    rows_kernel<<<blocks, block, warps * sizeof(float)>>>(x, out);
    SECOND
}
"""
THROUGH = KERNEL + """\
void go(const float* x, float* out, dim3 b, int blocks) { LAUNCHED<<<blocks, b, 64>>>(x, out); }
void launch(const float* x, float* out, int warps, int blocks) {
    dim3 block(warps * 32);
    rows_kernel<<<blocks, block, warps * sizeof(float)>>>(x, out);
    go(x, out, block, blocks);
}
"""


def _kp225(code: str) -> bool:
    return any(e.code == "KP225" and "WS015" in e.message for e in refusal(code, dedent=False))


def test_a_declared_kernel_launched_with_the_block_keeps_the_refusal():
    assert _kp225(DIRECT.replace("SECOND", "other<<<blocks, block>>>(x, out);"))


def test_a_declared_kernel_launched_by_a_launcher_given_the_block_keeps_the_refusal():
    assert _kp225(THROUGH.replace("LAUNCHED", "other"))


def test_the_files_own_kept_kernel_is_still_written():
    """The look-alikes: only the file's kernel (kept at 32-lane groups), directly or through its launcher."""
    x = np.random.default_rng(9).integers(-20, 20, 256).astype(np.float32)
    for code in (DIRECT.replace("SECOND", ""), THROUGH.replace("LAUNCHED", "rows_kernel")):
        port, text = ported(code, dedent=False)
        assert "dim3 block(warps * 32)" in port.body and "__shfl_down(s, o, 32)" in port.body, port.body
        want = {"x": x, "out": np.zeros(4, np.float32)}
        from kernelport.emulator import run_kernel
        for b in (128, 96):
            a = run_kernel(code, "rows_kernel", args={k: v.copy() for k, v in want.items()}, grid=(2, 1, 1),
                           block=(b, 1, 1), shared_bytes=64, wave=32).outputs["out"]
            p = run_kernel(text, "rows_kernel", args={k: v.copy() for k, v in want.items()}, grid=(2, 1, 1),
                           block=(b, 1, 1), shared_bytes=64, wave=64, backend="hip").outputs["out"]
            assert np.array_equal(a, p), (b, a, p)
