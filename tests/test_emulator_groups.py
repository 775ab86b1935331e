"""Cooperative groups' thread block and static tiles in the emulator (issue 18: bitonic sort,
histogram256, simpleCudaGraphs): the block's rank, size and barrier; a tile's rank, meta-group
and width-limited shuffles, in the backend's own spellings.  Each with a look-alike that must
stay as it was or be refused at its line."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError

REDUCE = """
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ float tile_sum(cg::thread_block_tile<16> t, float v) {
    for (int i = t.size() / 2; i > 0; i /= 2) v += t.shfl_down(v, i);
    return v;
}
__global__ void k(const float* x, float* sums, int* ranks) {
    __shared__ float buf[64];
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cta);
    buf[cta.thread_rank()] = x[cta.thread_rank()];
    cg::sync(cta);
    float v = buf[cta.size() - 1 - cta.thread_rank()];
    v = tile_sum(tile, v);
    if (tile.thread_rank() == 0) sums[tile.meta_group_rank()] = v;
    ranks[cta.thread_rank()] = tile.thread_rank() + 100 * tile.meta_group_size();
}
"""


def _reduce(src=REDUCE, wave=32, block=(64, 1, 1)):
    x = np.arange(64, dtype=np.float32)
    args = {"x": x, "sums": np.zeros(4, np.float32), "ranks": np.zeros(64, np.int32)}
    return run_kernel(src, "k", args=args, grid=(1, 1, 1), block=block, wave=wave)


@pytest.mark.parametrize("wave", [32, 64])
def test_block_and_tile_of_16_reduce_each_tile(wave):
    r = _reduce(wave=wave)
    rev = np.arange(64)[::-1]
    assert r.outputs["sums"].tolist() == [float(rev[i * 16:(i + 1) * 16].sum()) for i in range(4)]
    assert r.outputs["ranks"].tolist() == [i % 16 + 400 for i in range(64)]


def test_a_2d_block_ranks_its_threads_row_by_row():
    r = _reduce(block=(16, 4, 1))
    assert r.outputs["ranks"].tolist() == [i % 16 + 400 for i in range(64)]


def test_using_namespace_and_a_member_sync():
    src = REDUCE.replace("namespace cg = cooperative_groups;", "using namespace cooperative_groups;") \
        .replace("cg::", "").replace("sync(cta);", "cta.sync();")
    assert _reduce(src).outputs["sums"].tolist() == _reduce().outputs["sums"].tolist()


def test_a_group_whose_shape_is_known_only_at_run_time_is_refused_at_its_line():
    src = REDUCE.replace("cg::thread_block_tile<16> t, float v", "cg::thread_group t, float v")
    # (a thread_group's rank, size and sync are modelled, its value saying which group: its shuffle is not)
    with pytest.raises(EmulatorError, match=r"<kernel>:5:\d+: cannot lower.*t.shfl_down"):
        _reduce(src)


def test_a_variable_named_like_a_group_method_is_left_alone():
    src = """
struct Tile { int n; };
__device__ int size(Tile t) { return t.n; }
__global__ void k(int* out) { Tile t; t.n = 7; out[threadIdx.x] = size(t); }
"""
    r = run_kernel(src, "k", args={"out": np.zeros(4, np.int32)}, grid=(1, 1, 1), block=(4, 1, 1))
    assert r.outputs["out"].tolist() == [7] * 4


CTORS = """
#include <metal_stdlib>
using namespace metal;
struct Token {};
kernel void k(device float4* x [[buffer(0)]], constant float& a [[buffer(1)]],
              uint3 tid [[thread_position_in_threadgroup]]) {
    Token t = Token();
    const float4 v = float4(a);
    x[tid.x] = float4(v.x + tid.x, v.y, 2.0f * v.z, float(tid.x));
}
"""


def test_metal_vector_constructors_and_value_initialisation():
    x = np.zeros(8, np.float32)
    r = run_kernel(CTORS, "k", args={"x": x, "a": 1.5}, grid=(1, 1, 1), block=(2, 1, 1), backend="metal")
    assert r.outputs["x"].tolist() == [1.5, 1.5, 3.0, 0.0, 2.5, 1.5, 3.0, 1.0]


def test_a_vector_constructor_with_the_wrong_count_is_refused():
    src = CTORS.replace("float4(a)", "float4(a, a)")
    with pytest.raises(EmulatorError):
        run_kernel(src, "k", args={"x": np.zeros(8, np.float32), "a": 1.5}, grid=(1, 1, 1), block=(2, 1, 1),
                   backend="metal")
