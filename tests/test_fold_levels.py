"""Every lane reading a ladder fold whose value depends on the width keeps CUDA's 32-lane groups in the
port (kernelport/fold_levels.py); a second level's full fold (an xor butterfly over per-warp slots, a down
ladder's lane 0 broadcast, every slot read in turn, a total broadcast through slot 0) stays wave-wide.

Stop 47 (bench/block_reduce_ports47.txt) left `float v = warp_sum(x[i]); y[i] = x[i] / v;` (a down ladder
from 16 in a helper) and the two-level sums whose every lane reads a first-level fold written wave-wide:
`kernelport verify --oracle original` failed them at 64 (bench/block_reduce_ports48.txt).  Each port kept
here is run on the emulator at wave 64 against the original at wave 32; each wave-wide one too."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate
from test_warp_counts import BLOCK_SUM

PLAIN = """\
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
__global__ void block_sum(const float* x, float* y, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = warp_sum(x[i]);
    y[i] = x[i] / v;
}
"""
SECOND = "v = lane < blockDim.x / 32 ? part[lane] : 0.0f; v = warp_sum(v);"  # every warp folds the slots
XOR = ("__shfl_down_sync(0xffffffffu, v, o)", "__shfl_xor_sync(0xffffffffu, v, o)")
KEPT = {  # every lane reads a width-dependent value: 32-lane groups
    "plain": PLAIN,
    "second_down_every_lane": BLOCK_SUM.replace("READ", SECOND),  # lanes 1-31 hold partial folds of the slots
    "slot_per_lane": BLOCK_SUM.replace("READ", "v = lane < blockDim.x / 32 ? part[lane] : 0.0f;"),  # warp k's
}
WAVE = {  # every lane reads the block's fold: the same at either width, the port stays the wave's
    "second_xor": BLOCK_SUM.replace("READ", SECOND).replace(*XOR),
    "second_down_broadcast": BLOCK_SUM.replace("READ", SECOND + " v = __shfl_sync(0xffffffffu, v, 0);"),
    "every_slot_in_turn": BLOCK_SUM.replace("READ", "v = 0.0f; for (int w = 0; w < blockDim.x / 32; ++w) v += part[w];"),
    "slot0_broadcast": BLOCK_SUM.replace("READ", "if (tid == 0) { float t = 0.0f; for (int w = 0; w < blockDim.x / 32; "
                                         "++w) t += part[w]; part[0] = t; } __syncthreads(); v = part[0];"),
}


def _port(text: str):
    port, out = translate(SourceFile.from_text(text, "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    return port.body, out


def _same_at_64(original: str, port: str) -> None:
    rng = np.random.default_rng(11)
    args = {"x": rng.integers(1, 4, 1024).astype(np.float32), "y": np.zeros(1024, np.float32),
            "out": np.zeros(4, np.float32)}
    want = run_kernel(original, "block_sum", args=args, grid=(4, 1, 1), block=(256, 1, 1), wave=32).outputs
    got = run_kernel(port, "block_sum", args=args, grid=(4, 1, 1), block=(256, 1, 1), wave=64, backend="hip")
    assert not got.races, got.races
    for k in ("y", "out"):
        assert np.array_equal(got.outputs[k], want[k]), k  # integer-valued inputs: exact sums


@pytest.mark.parametrize("name", sorted(KEPT))
def test_every_lane_reading_a_width_dependent_fold_keeps_32_lanes(name):
    body, text = _port(KEPT[name])
    assert "__shfl_down(v, o, 32)" in body and "warpSize" not in body, body
    _same_at_64(KEPT[name], text)


@pytest.mark.parametrize("name", sorted(WAVE))
def test_every_lane_reading_the_blocks_fold_stays_wave_wide(name):
    body, text = _port(WAVE[name])
    assert "warpSize / 2" in body and ", 32)" not in body, body
    _same_at_64(WAVE[name], text)


def test_a_leader_storing_a_helpers_fold_stays_wave_wide():
    """`if (lane == 0) part[warp] = v;` alone reads the first level: the slots are recombined (AFTER_IF)."""
    code = BLOCK_SUM.replace("READ", SECOND).replace("a * v;", "a;")
    body, _ = _port(code)
    assert "warpSize / 2" in body, body
