"""A `cg::thread_group` the code passes around (cuda-samples' simpleCooperativeGroups: `__device__ int
sumReduction(thread_group g, int* x, int val)` called with the block and with a static tile of 16): the
group's value says which group it holds (0 the block, n a tile of n lanes), and `g.thread_rank()`,
`g.size()`, `g.sync()` are the block's or the tile's by it.  Before, the original could not be lowered
("before: g") and verify's oracle did not run it.  Look-alikes: a member the emulator does not model on a
thread_group, and a tile partitioned at run time of a width CUDA does not allow, are refused at their line."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError

SRC = """#include <cooperative_groups.h>
using namespace cooperative_groups;
__device__ int sum_in(thread_group g, int* x, int val) {
    int lane = g.thread_rank();
    for (int i = g.size() / 2; i > 0; i /= 2) {
        x[lane] = val;
        g.sync();
        if (lane < i) val += x[lane + i];
        g.sync();
    }
    return g.thread_rank() == 0 ? val : -1;
}
__global__ void k(const int* in, int* block_sum, int* tile_sum, int* part_sum) {
    __shared__ int ws[128];
    thread_block b = this_thread_block();
    int v = in[b.thread_rank()];
    int s = sum_in(b, ws, v);
    if (b.thread_rank() == 0) block_sum[0] = s;
    b.sync();
    thread_block_tile<16> t = tiled_partition<16>(b);
    int off = b.thread_rank() - t.thread_rank();
    s = sum_in(t, ws + off, v);
    if (t.thread_rank() == 0) tile_sum[b.thread_rank() / 16] = s;
    b.sync();
    thread_group p = tiled_partition(b, 8);
    s = sum_in(p, ws + b.thread_rank() - p.thread_rank(), v);
    if (p.thread_rank() == 0) part_sum[b.thread_rank() / 8] = s;
}
"""


def _run(src=SRC, wave=32):
    x = np.random.default_rng(5).integers(-100, 100, 128).astype(np.int32)
    res = run_kernel(src, "k", args={"in": x, "block_sum": np.zeros(1, np.int32), "tile_sum": np.zeros(8, np.int32),
                                     "part_sum": np.zeros(16, np.int32)}, grid=(1, 1, 1), block=(128, 1, 1), wave=wave)
    return x, res.outputs


@pytest.mark.parametrize("wave", [32, 64])
def test_a_thread_group_parameter_is_the_block_or_the_tile_it_is_passed(wave):
    x, out = _run(wave=wave)
    assert out["block_sum"][0] == x.sum()
    np.testing.assert_array_equal(out["tile_sum"], x.reshape(8, 16).sum(axis=1))
    np.testing.assert_array_equal(out["part_sum"], x.reshape(16, 8).sum(axis=1))


def test_a_member_not_modelled_on_a_thread_group_is_refused_at_its_line():
    with pytest.raises(EmulatorError) as e:
        _run(SRC.replace("int lane = g.thread_rank();", "int lane = g.thread_index().x;"))
    assert e.value.line == 4, e.value


def test_a_run_time_partition_of_a_width_cuda_does_not_allow_is_refused_at_its_line():
    with pytest.raises(EmulatorError) as e:
        _run(SRC.replace("tiled_partition(b, 8)", "tiled_partition(b, 48)"))
    assert e.value.line == 25, e.value
