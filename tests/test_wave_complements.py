"""`~m` in a bit count of a ballot word the port widens keeps to the wave's lanes
(kernelport/wide_ballot_holders.wave_complements).

    __popc(~m), __ffs(~m)   ->   __popcll((~m & (~0ull >> (64 - warpSize)))), __ffsll(...)

Main wrote `__popcll(~m)`: the complement of the 64-bit word sets bits 32-63, which no lane of gfx1030's
32-lane waves holds: 32 non-voters more, and `__ffs(~m)` of a warp that all voted was 33 (CUDA's 0); the
emulator at wave 32 differed from the original at every lane.  Look-alikes: `~` outside a bit count, and a
count with no `~`, keep their port; Metal's words are 32 lanes as written."""
from __future__ import annotations

import numpy as np

from conftest import hip_compiles
from port_support import assert_port_at_32_is_original_at_32, ported

CODE = """__global__ void k(const int* in, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = __ballot_sync(0xffffffffu, in[i] > 0);
    unsigned bit = 1u << (threadIdx.x & 31);
    out[i] = __popc(~m) + 100 * __ffs(~m) + 10000 * __popc(m & ~bit) + 1000000 * ((m & ~bit) != 0) + __popc(m);
}
"""
KEPT = "(~0ull >> (64 - warpSize))"


def test_a_complement_in_a_count_keeps_to_the_waves_lanes(tmp_path):
    port, text = ported(CODE, dedent=False)
    assert f"__popcll((~m & {KEPT})) + 100 * __ffsll((~m & {KEPT}))" in port.body, port.body
    assert "1000000 * ((m & ~bit) != 0) + __popcll(m);" in port.body  # (`~` outside a count: as main ported it)
    x = np.random.default_rng(4).integers(-3, 4, 256).astype(np.int32)
    x[32:64], x[96:128] = 2, -1  # (a warp all voting, one none)
    args = {"in": x, "out": np.zeros(256, np.int32)}
    assert_port_at_32_is_original_at_32(CODE, text, args)
    hip_compiles(tmp_path, text, "complements.hip")


def test_metal_keeps_its_complements():
    port, _ = ported(CODE, to="metal", dedent=False, allow_unported=True)
    assert "~0ull" not in port.body, port.body
