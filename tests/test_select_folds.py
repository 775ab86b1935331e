"""A shuffle ladder from 16 whose fold is a SELECT (an argmax: `ov = __shfl_down_sync(m, best, o); oi = ...;
if (ov > best) { best = ov; idx = oi; }`, or its ternary form) is a first-level fold like `v += shfl(v, o)`
(kernelport/fold_levels.py, `_Flow._partner`): a leader's store of `idx` stores warp 0's argmax in CUDA, so the
HIP port keeps CUDA's 32-lane groups.  On main the port was wave-wide and lane 0 folded 64 lanes at wave 64:
another index (heldout42's find; the emulator, x[40] the maximum: CUDA 0, the port 40).  A full xor butterfly
whose per-warp results the block combines through shared memory is right at either width: left wave-wide."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import hip_compiles
from port_support import ported
from kernelport.emulator import run_kernel

HEAD = """\
__global__ void top1(const float* x, int* out, int n) {
    float best = -1e30f; int idx = -1;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        if (x[i] > best) { best = x[i]; idx = i; }
"""
SELECT = HEAD + """\
    for (int offset = 16; offset > 0; offset /= 2) {
        float ov = __shfl_down_sync(0xFFFFFFFF, best, offset);
        int oi = __shfl_down_sync(0xFFFFFFFF, idx, offset);
        if (ov > best) { best = ov; idx = oi; }
    }
    if (threadIdx.x == 0) out[blockIdx.x] = idx;
}
"""
TERNARY = HEAD + """\
    for (int offset = 16; offset > 0; offset >>= 1) {
        float ov = __shfl_down_sync(0xFFFFFFFF, best, offset);
        int oi = __shfl_down_sync(0xFFFFFFFF, idx, offset);
        bool take = ov > best;
        best = take ? ov : best;
        idx = take ? oi : idx;
    }
    if (threadIdx.x == 0) out[blockIdx.x] = idx;
}
"""
BUTTERFLY = HEAD + """\
    __shared__ float pv[32]; __shared__ int pi[32];
    for (int offset = 16; offset > 0; offset /= 2) {
        float ov = __shfl_xor_sync(0xFFFFFFFF, best, offset);
        int oi = __shfl_xor_sync(0xFFFFFFFF, idx, offset);
        if (ov > best || (ov == best && oi < idx)) { best = ov; idx = oi; }
    }
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    if (lane == 0) { pv[warp] = best; pi[warp] = idx; }
    __syncthreads();
    if (threadIdx.x == 0) {
        int nw = (blockDim.x + warpSize - 1) / warpSize;
        float b = -1e30f; int bi = -1;
        for (int w = 0; w < nw; ++w)
            if (pv[w] > b || (pv[w] == b && pi[w] < bi)) { b = pv[w]; bi = pi[w]; }
        out[blockIdx.x] = bi;
    }
}
"""


def _port(text: str):
    port, out = ported(text, dedent=False)
    return port.body, out


def _same(original: str, port: str) -> None:
    """The port at wave 32 and 64 against the original at 32; x[40] the maximum: in lane 40, which a 64-lane
    fold reaches and CUDA's warp 0 does not."""
    x = -np.arange(1024, dtype=np.float32)
    x[40] = 1e4
    args = {"x": x, "out": np.zeros(4, np.int32), "n": 1024}
    want = run_kernel(original, "top1", args=args, grid=(4, 1, 1), block=(256, 1, 1), wave=32).outputs
    for wave in (32, 64):
        got = run_kernel(port, "top1", args=args, grid=(4, 1, 1), block=(256, 1, 1), wave=wave, backend="hip")
        assert not got.races, got.races
        assert np.array_equal(got.outputs["out"], want["out"]), (wave, got.outputs["out"], want["out"])


@pytest.mark.parametrize("text", [SELECT, TERNARY], ids=["if_select", "ternary"])
def test_a_select_fold_a_leader_stores_keeps_32_lane_groups(text):
    body, out = _port(text)
    assert "_sync" not in body and body.count(", 32)") == body.count("__shfl_") == 2, body
    _same(text, out)


def test_a_full_butterfly_combined_through_shared_memory_stays_wave_wide():
    body, out = _port(BUTTERFLY)
    assert ", 32)" not in body, body
    _same(BUTTERFLY, out)


def test_the_kept_select_port_compiles_for_gfx90a_and_gfx1030(tmp_path):
    hip_compiles(tmp_path, _port(SELECT)[1])
