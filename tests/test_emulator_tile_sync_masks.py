"""A tile's sync() is the warp's sync over the tile's own lanes (CUDA: `__syncwarp` of the tile's mask), for a
static `thread_block_tile<16>` and for a `cg::thread_group` holding a tile: a kernel whose 16-lane tiles
sync apart (one tile of a warp takes a branch, the other does not) is correct CUDA.  Before (review65e) the
emulator lowered it to `__syncwarp(0xffffffff)`, and the original faulted ("lane mask 0xffffffff names
inactive lanes 16-31"): verify's oracle was skipped as a defect of the original.  Look-alike: a tile whose
own lanes split at its sync still faults (that is the CUDA error)."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError

SRC = """
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ float tsum(GROUP g, float* sh, float v) {
    int r = g.thread_rank();
    sh[threadIdx.x] = v;
    g.sync();
    float s = 0.0f;
    for (int k = 0; k < g.size(); ++k) s += sh[threadIdx.x - r + k];
    return s;
}
__global__ void k(const float* x, float* out) {
    __shared__ float sh[64];
    cg::thread_block b = cg::this_thread_block();
    TILE;
    float v = -1.0f;
    if (COND) v = tsum(t, sh, x[threadIdx.x]);
    out[threadIdx.x] = v;
}
"""
FORMS = [("cg::thread_block_tile<16>", "cg::thread_block_tile<16> t = cg::tiled_partition<16>(b)"),
         ("cg::thread_group", "cg::thread_group t = cg::tiled_partition(b, 16)")]


def _run(group, tile, cond, wave):
    src = SRC.replace("GROUP", group).replace("TILE", tile).replace("COND", cond)
    x = np.arange(64, dtype=np.float32)
    return x, run_kernel(src, "k", args={"x": x, "out": np.zeros(64, np.float32)}, grid=(1, 1, 1), block=(64, 1, 1),
                         wave=wave).outputs["out"]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("group, tile", FORMS)
def test_tiles_of_a_warp_that_sync_apart_each_sync_their_own_lanes(group, tile, wave):
    x, out = _run(group, tile, "(threadIdx.x / 16) % 2 == 0", wave)
    sums = x.reshape(4, 16).sum(1).repeat(16)
    np.testing.assert_array_equal(out, np.where((np.arange(64) // 16) % 2 == 0, sums, -1.0))


@pytest.mark.parametrize("group, tile", FORMS)
def test_a_tile_whose_own_lanes_split_at_its_sync_still_faults(group, tile):
    with pytest.raises(EmulatorError, match="inactive lanes"):
        _run(group, tile, "threadIdx.x % 16 < 8", 32)
