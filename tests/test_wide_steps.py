"""A shuffle step of 32 or more, which CUDA's 32-lane warp makes the lane's own value, keeps CUDA's 32-lane
groups in the HIP port (kernelport/wide_steps.py): every shuffle gets width 32.

heldout42's beamsearch (select_top_k in kernels/prune.cu) folds a block's argmax with a ladder from
`blockDim.x / 2`, launched with 256 threads: in CUDA the steps 128, 64 and 32 do nothing and lane 0 ends
with warp 0's argmax; the port kept the ladder with the wave's width, so at wave 64 the step of 32 was a real
one and lane 0 folded 64 lanes: another token (the emulator, `kernelport verify --seed 4` on a reduction of
the same shape: FAIL at wave 64).  Each port here runs on the emulator at wave 64 against the original at 32."""
from __future__ import annotations

import numpy as np
import pytest

from port_support import assert_port_at_64_is_original_at_32, ported


ARGMAX = """\
__global__ void top1(const float* x, int* out, int n) {
    float best = -1e30f; int idx = -1;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        if (x[i] > best) { best = x[i]; idx = i; }
    for (int offset = START; offset > 0; offset /= 2) {
        float ov = __shfl_down_sync(0xFFFFFFFF, best, offset);
        int oi = __shfl_down_sync(0xFFFFFFFF, idx, offset);
        if (ov > best) { best = ov; idx = oi; }
    }
    if (threadIdx.x == 0) out[blockIdx.x] = idx;
}
"""
SCAN = """\
__global__ void top1(const float* x, int* out, int n) {
    int v = (int)x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int i = 1; i < blockDim.x; i *= 2) {
        int t = __shfl_up_sync(0xFFFFFFFF, v, i);
        if ((threadIdx.x & 31) >= i) v += t;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
"""
KEPT = {  # a step that reaches 32: CUDA's 32-lane warp
    "from_block_half": ARGMAX.replace("START", "blockDim.x / 2"),
    "from_block_shift": ARGMAX.replace("START", "blockDim.x >> 1"),
    "scan_bounded_by_block": SCAN,
}
WAVE = {  # the code's own account of the width, or a step that stays below 32: left to the wave
    "from_warpsize_half": ARGMAX.replace("START", "warpSize / 2"),
    "scan_bounded_by_16": SCAN.replace("i < blockDim.x", "i < 16").replace("out[blockIdx.x * blockDim.x + threadIdx.x] = v;",
                                                                          "if (threadIdx.x == 0) out[blockIdx.x] = v;"),
}


def _port(text: str):
    port, out = ported(text, dedent=False)
    return port.body, out


def _same_at_64(original: str, port: str, n_out: int) -> None:
    x = -np.arange(1024, dtype=np.float32)
    x[40] = 1e4  # in lane 40: a 64-lane fold finds it, CUDA's 32-lane warp 0 does not
    args = {"x": x, "out": np.zeros(n_out, np.int32), "n": 1024}
    assert_port_at_64_is_original_at_32(original, port, "top1", args, (4, 1, 1), (256, 1, 1))


@pytest.mark.parametrize("name", sorted(KEPT))
def test_a_step_of_32_or_more_keeps_32_lane_groups(name):
    body, text = _port(KEPT[name])
    assert "_sync" not in body and body.count(", 32)") == body.count("__shfl_"), body
    _same_at_64(KEPT[name], text, 1024 if "scan" in name else 4)


LITERAL_32 = ARGMAX.replace("START", "16").replace(
    "for (int offset", "best = fmaxf(best, __shfl_xor_sync(0xFFFFFFFF, best, 32));\n    for (int offset")


def test_a_literal_step_of_32_is_not_read_here_but_the_select_fold_a_leader_stores_keeps_32_lanes():
    """Re-pinned (stop 50, h/argmax50): this case sat in WAVE (a literal 32 step is wavebranches', not read
    here) and pinned a wave-wide port, which at wave 64 stored a 64-lane argmax (40, CUDA 0).  wide_steps still
    does not read the literal 32; fold_levels now reads the select ladder from 16 whose idx lane 0 stores as a
    first-level fold and keeps 32-lane groups: the port equals CUDA at 64 (HIP's xor 32 at width 32 is a no-op)."""
    body, text = _port(LITERAL_32)
    assert body.count(", 32)") == body.count("__shfl_"), body
    _same_at_64(LITERAL_32, text, 4)


@pytest.mark.parametrize("name", sorted(WAVE))
def test_a_step_the_wave_bounds_stays_wave_wide(name):
    body, _ = _port(WAVE[name])
    assert "offset, 32)" not in body and "i, 32)" not in body, body


def test_the_wave_port_of_a_block_half_ladder_would_fold_64_lanes():
    """The failure the mechanism removes, shown on the emulator: the same port with the wave's width (no width
    argument) gives lane 0 a 64-lane argmax at wave 64, another index than CUDA's 32-lane one."""
    _, text = _port(KEPT["from_block_half"])
    with pytest.raises(AssertionError):
        _same_at_64(KEPT["from_block_half"], text.replace(", offset, 32)", ", offset)"), 4)
