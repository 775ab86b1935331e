"""A shuffle that reads a lane which does not run (a block of 32 threads on a 64-lane wave, a lane a
branch left out) gives on the GPU whatever that lane's register held (AMD's ds_bpermute reads it, CUDA
calls it undefined).  Stop 65's review: the emulator warned and went on with the value it keeps there (0
in lockstep), so a port whose ladder starts at `warpSize / 2` = 32 for a block of 32 threads matched the
original (`verify --oracle original` passed what real hardware need not compute).  Now the lanes that read
one are marked as values never written (emulator.undefined): an output stored from one is a mismatch
where the original's element is a value.  Look-alike: a ladder within the active lanes stays a value."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

FOLD = """
__global__ void fold(const float* x, float* out) {
    float v = x[threadIdx.x];
    for (int o = START; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    out[threadIdx.x] = v;
}
"""


def _run(start: int, wave: int):
    x = np.arange(32, dtype=np.float32)
    return run_kernel(FOLD.replace("START", str(start)), "fold", args=dict(x=x, out=np.zeros(32, np.float32)),
                      grid=(1, 1, 1), block=(32, 1, 1), wave=wave)


def test_a_read_of_a_lane_that_does_not_run_is_no_value():
    r = _run(32, 64)  # lanes 32-63 of the wave run no thread of this block of 32
    assert "out" in r.undefined and r.undefined["out"].all(), r.undefined
    assert any("not active" in d.message for d in r.diagnostics), r.diagnostics


def test_a_ladder_within_the_active_lanes_stays_a_value():
    for start, wave in ((16, 64), (16, 32)):
        r = _run(start, wave)
        assert not r.undefined.get("out", np.zeros(1, bool)).any(), (start, wave, r.undefined)
        assert np.allclose(r.outputs["out"], np.full(32, np.arange(32).sum())), r.outputs["out"]
