"""A host launch sized in CUDA warps (`dim3 block(warps * 32)`) is right for a port that keeps the kernel's
32-lane groups: the original's WS015 there is no kept hazard (KP225) where the port's own lint passes the
launch (kernelport/kept_hazards.py GEOMETRY), and lint reads a port's per-warp ballot (`__ballot(p) >>
(__lane_id() & 32)`) as its group's own vote (warpwidth: `spelled_votes`).

Held-out set 94 (a flash-attention kernel on CUDA cores): `warp_index = threadIdx.x / 32`, `within_warp =
threadIdx.x % 32`, a `__ballot_sync` mask, max/sum ladders and a lane-0 broadcast, launched with
`dim3 block(number_of_warps_per_block * 32)`.  The port keeps width 32 everywhere and the ballot per warp,
and was refused KP225 for the launch it makes right.  Each port below runs on the emulator at 64 against the
original at 32."""
from __future__ import annotations

import numpy as np

from port_support import assert_port_at_64_is_original_at_32, ported, refusal

KERNEL = """\
__global__ void rows_kernel(const float* x, float* out) {
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    VOTE
    for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_down_sync(0xffffffff, v, o));
    v = __shfl_sync(0xffffffff, v, 0);
    out[blockIdx.x * blockDim.x + warp * 32 + lane] = v + EXTRA;
}
void launch(const float* x, float* out, int warps, int blocks) {
    dim3 block(warps * 32);
    rows_kernel<<<blocks, block>>>(x, out);
}
"""
PLAIN = KERNEL.replace("VOTE", "").replace("EXTRA", "0.0f")
BALLOT = KERNEL.replace("VOTE", "unsigned m = __ballot_sync(0xffffffff, v > 0.0f);").replace("EXTRA", "__popc(m)")


def _same_at_64(code: str, text: str) -> None:
    x = np.random.default_rng(9).integers(-20, 20, 256).astype(np.float32)
    assert_port_at_64_is_original_at_32(code, text, "rows_kernel", {"x": x, "out": np.zeros(256, np.float32)},
                                        (2, 1, 1), (128, 1, 1), ("out",))


def test_a_launch_in_warps_of_32_is_right_for_the_ports_32_lane_groups():
    port, text = ported(PLAIN, dedent=False)
    assert "__shfl(v, 0, 32)" in port.body and "dim3 block(warps * 32)" in port.body, port.body
    _same_at_64(PLAIN, text)


def test_a_ballot_spelled_per_warp_keeps_the_group_logical():
    port, text = ported(BALLOT, dedent=False)
    assert "__lane_id() & 32" in port.body and "dim3 block(warps * 32)" in port.body, port.body
    _same_at_64(BALLOT, text)


def test_a_kernel_the_port_makes_the_waves_keeps_the_refusal():
    """The look-alike: the kernel's warps are `warpSize`'s (the port makes them the wave's), so a block of
    `warps * 32` threads is not whole warps of the port at 64: still refused (the port's lint reports it too)."""
    code = PLAIN.replace("threadIdx.x / 32", "threadIdx.x / warpSize").replace("threadIdx.x % 32", "threadIdx.x % warpSize") \
        .replace("warp * 32 + lane", "warp * warpSize + lane").replace("o = 16", "o = warpSize / 2")
    errors = refusal(code, dedent=False)
    assert any(e.code in ("KP225", "KP233") for e in errors), errors
