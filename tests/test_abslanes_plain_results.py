"""A broadcast of a shuffle's result the port does not widen keeps CUDA's 32-lane warp (kernelport/abslanes.py).

`v += __shfl_xor_sync(m, v, 1)` (one step, no ladder) joins a shuffle's result into v; abslanes read every such
value as "a warp operation's result the port widens" and left `__shfl_sync(FULL, v, 0)` at the wave's width:
`__shfl(v, 0)` at wave 64 gives threads 32-63 thread 0's v where CUDA gives thread 32's, and verify --oracle
original failed numerically for HIP and portable at wave 64 (out[32] = 85 against 13).  Lint63's lane broadcasts
made a group-mask form of it portable (KP203 before), which is how the review met it.  The look-alike, a
broadcast after a ladder the port widens (`o = warpSize / 2`), keeps the wave: lane 0 holds the wave's sum."""
from __future__ import annotations

import pytest

from test_abslanes import SPELLED, _numeric_passes, _ports

HEAD = """\
// @kp kernel     k
// @kp grid       2
// @kp block      128
// @kp arg        in   in     int[256]   integers(0, 100)
// @kp arg        out  out    int[256]
// @kp scalar     n = 50
"""

PLAIN = {
    "a step under a broadcast's condition": """\
__global__ void k(const int* in, int* out, int n) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int b = __shfl_sync(0xffffffff, v, 0);
    if (b > n) v += __shfl_xor_sync(0xffffffff, v, 1);
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
""",
    "a 16-wide step beside the broadcast": """\
__global__ void k(const int* in, int* out, int n) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int b = __shfl_sync(0xffffffff, v, 0);
    v += __shfl_xor_sync(0xffffffff, v, 1, 16);
    out[blockIdx.x * blockDim.x + threadIdx.x] = v + b + n;
}
""",
    "a group's mask under the broadcast's condition": """\
__global__ void k(const int* in, int* out, int n) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int lane = threadIdx.x & 31;
    unsigned gmask = 0xffffu << (lane & 16);
    int b = __shfl_sync(0xffffffff, v, 0);
    if (b > n) v += __shfl_xor_sync(gmask, v, 1, 16);
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
""",
}

WIDENED = """\
__global__ void k(const int* in, int* out, int n) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int s = v;
    for (int o = warpSize / 2; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
    int t = __shfl_sync(0xffffffff, s, 0);
    out[blockIdx.x * blockDim.x + threadIdx.x] = v + t + n;
}
"""


@pytest.mark.parametrize("src", PLAIN.values(), ids=PLAIN.keys())
def test_broadcast_of_an_unwidened_shuffle_result_keeps_32(tmp_path, src):
    ports = _ports(tmp_path, HEAD + src)
    for backend, spelled in SPELLED.items():
        assert spelled.replace("ARGS", "v, 0, 32") in ports[backend], ports[backend]
    _numeric_passes(tmp_path)


def test_broadcast_after_a_widened_ladder_keeps_the_wave(tmp_path):
    """(Its output is the wave's sum at wave 64 by the native port's design, as on main: no numeric check.)"""
    ports = _ports(tmp_path, HEAD + WIDENED)
    for backend, spelled in SPELLED.items():
        assert spelled.replace("ARGS", "s, 0") in ports[backend], ports[backend]
