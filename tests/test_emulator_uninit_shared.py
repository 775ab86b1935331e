"""A read of shared memory that no thread of the block wrote is reported (an UninitRead among the run's
races, so verify's races row fails): the emulator's shared memory starts at zero, a GPU's holds whatever
was there.  Found on translate's wave-wide port of a block sum (tests/test_lint_row_splits_reach.py's
AFTER_IF; bench/halfvote_lane_shapes46.txt): at wave 64 its 4 waves write part[0..3], lanes 0..7 read
part[0..7], and the emulator summed zeros where a GPU sums stale values: the port passed."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import UninitRead

SOURCE = """
__global__ void block_sum(const float* x, float* out) {
    const int tid = threadIdx.x;
    const int lane = tid % warpSize;
    const int warp = tid / warpSize;
    __shared__ float part[8];
    float v = x[blockIdx.x * 256 + tid];
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) part[warp] = v;
    __syncthreads();
    v = lane < 8 ? part[lane] : 0.0f;
    if (tid == 0) { float s = 0.0f; for (int i = 0; i < 8; ++i) s += part[i]; out[blockIdx.x] = s; }
}
"""


def _run(text, wave):
    return run_kernel(text, "block_sum", args={"x": np.ones(256, np.float32), "out": np.zeros(1, np.float32)},
                      grid=(1,), block=(256,), wave=wave)


def test_slots_a_wider_wave_leaves_unwritten_are_reported_where_they_are_read():
    wide = _run(SOURCE, 64)
    unread = [r for r in wide.races if isinstance(r, UninitRead)]
    assert unread and unread[0].buffer == "part" and unread[0].index >= 4, wide.races
    assert unread[0].line == 11  # `v = lane < 8 ? part[lane] : 0.0f;`
    assert "no thread wrote" in str(unread[0])


def test_every_slot_written_before_it_is_read_reports_nothing():
    assert not [r for r in _run(SOURCE, 32).races if isinstance(r, UninitRead)]  # 8 warps write part[0..7]
    zeroed = SOURCE.replace("    if (lane == 0) part[warp] = v;", "    if (tid < 8) part[tid] = 0.0f;\n"
                            "    __syncthreads();\n    if (lane == 0) part[warp] = v;")
    assert not [r for r in _run(zeroed, 64).races if isinstance(r, UninitRead)]
