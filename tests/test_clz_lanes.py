"""`__clz` of a ballot word the port widens counts the wave's lanes (kernelport/wide_ballot_holders.clz_lanes).

    unsigned m = __ballot_sync(FULL, p);  int above = __clz(m);    // the lanes above the highest voter
    ->  (__clzll(m) - (64 - warpSize))

Main wrote `__clzll(m)`, which counts from bit 63: on gfx1030's 32-lane waves, where the wave is CUDA's warp,
32 more than the original (the emulator at wave 32 differed at every lane; `__clz(m) == 0`, lane 31 voted, was
always false).  `__brev(m)` is the wave's width too, `(__brevll(m) >> (64 - warpSize))` (lane 0 at bit
`warpSize - 1`, as CUDA's at 31), so that `__clz(__brev(m))` is the lowest voter, `warpSize` for none.  Look-alikes: `31 - __clz(m)` keeps `63 - __clzll(m)` (the highest
voter, right on both waves), `__clz` of a value that is no lane mask stays `__clz`, Metal's 32-lane words too."""
from __future__ import annotations

import numpy as np

from conftest import hip_compiles
from port_support import assert_port_at_32_is_original_at_32, ported

CODE = """__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = __ballot_sync(0xffffffffu, in[i] > 0);
    out[i] = __clz(m) + 100 * (__clz(m) == 0) + 1000 * __clz(__brev(m)) + 100000 * (31 - __clz(m))
             + 10000000 * __clz(in[i] + 1);
}
"""


def test_clz_of_a_widened_ballot_is_the_originals_on_32_lane_waves(tmp_path):
    port, text = ported(CODE, dedent=False)
    assert "out[i] = (__clzll(m) - (64 - warpSize)) + 100 * ((__clzll(m) - (64 - warpSize)) == 0) + 1000 * " \
           "(__clzll((__brevll(m) >> (64 - warpSize))) - (64 - warpSize)) + 100000 * (63 - __clzll(m))" in port.body, port.body
    assert "__clz(in[i] + 1)" in port.body
    x = np.random.default_rng(2).integers(-3, 4, 256).astype(np.int32)
    x[32:64], x[96:128], x[95] = -1, 2, 1  # (a warp none voting, one all, one whose lane 31 alone votes)
    args = {"in": x, "out": np.zeros(256, np.int32)}
    assert_port_at_32_is_original_at_32(CODE, text, args)
    hip_compiles(tmp_path, text, "clz.hip")


def test_metal_keeps_its_clz():
    port, _ = ported(CODE, to="metal", dedent=False, allow_unported=True)
    assert "warpSize" not in port.body and "- (64 -" not in port.body and "min(" not in port.body, port.body
