"""SY003: every thread of a block read-modify-writes one `__shared__` slot without an atomic (heldout103's gamdow
min/max kernels, stop 66: `per_block = fminf(per_block, i[idx])` between two barriers).  Look-alikes stay silent:
one thread stores, a thread-dependent test around the store, an atomic, a per-thread slot, a value every thread
computes the same, a store that does not read the slot."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text

RACE = """\
__device__ int pixel(int w) { return (blockIdx.y * blockDim.y + threadIdx.y) * w + blockIdx.x * blockDim.x + threadIdx.x; }
__global__ void block_min(float4* o, const float4* in, int w) {
    __shared__ float4 per_block;
    if (threadIdx.x == 0 && threadIdx.y == 0) per_block = in[pixel(w)];
    __syncthreads();
    per_block = fminf(per_block, in[pixel(w)]);
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0) o[gridDim.x * blockIdx.y + blockIdx.x] = per_block;
}
"""
FIELD = RACE.replace("per_block = fminf(per_block, in[pixel(w)]);", "per_block.x += in[pixel(w)].x;")
LOOP = RACE.replace("    per_block = fminf(per_block, in[pixel(w)]);",
                    "    for (int k = 0; k < w; ++k) per_block = fminf(per_block, in[pixel(w) + k]);")
ONE_THREAD = RACE.replace("    per_block = fminf(", "    if (threadIdx.x == 0) per_block = fminf(")
TESTED = RACE.replace("    per_block = fminf(per_block, in[pixel(w)]);",
                      "    if (in[pixel(w)].x < per_block.x) per_block = in[pixel(w)];")
OWN_SLOT = """\
__global__ void k(float* o, const float* x) {
    __shared__ float s[256];
    s[threadIdx.x] = 0.f;
    __syncthreads();
    s[threadIdx.x] = fmaxf(s[threadIdx.x], x[threadIdx.x]);
    __syncthreads();
    o[threadIdx.x] = s[threadIdx.x];
}
"""
ATOMIC = """\
__global__ void k(int* o, const int* x) {
    __shared__ int m;
    if (threadIdx.x == 0) m = 0;
    __syncthreads();
    atomicMax(&m, x[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) *o = m;
}
"""
SAME_VALUE = RACE.replace("per_block = fminf(per_block, in[pixel(w)]);", "per_block = fminf(per_block, in[w]);")
NO_READ = RACE.replace("per_block = fminf(per_block, in[pixel(w)]);", "per_block = in[pixel(w)];")


def _sy003(src: str) -> list[int]:
    return [f.line for f in lint_text(src, "t.cu") if f.code == "SY003"]


@pytest.mark.parametrize("src,line", [(RACE, 6), (FIELD, 6), (LOOP, 6)])
def test_every_thread_read_modify_writes_one_slot(src, line):
    assert _sy003(src) == [line]


@pytest.mark.parametrize("src", [ONE_THREAD, TESTED, OWN_SLOT, ATOMIC, SAME_VALUE])
def test_look_alikes_stay_silent(src):
    assert _sy003(src) == []


def test_a_plain_store_of_a_thread_value_is_not_this_rule():
    assert _sy003(NO_READ) == []  # a last-writer-wins store: no read of the slot, not reported here


def test_a_slot_or_a_test_through_a_call_is_not_known_uniform():
    """cuda-samples simpleCudaGraphs: `tmp[cta.thread_rank()] = temp_sum = temp_sum + tmp[...]` under
    `if (cta.thread_rank() < 256)`: per-thread slots the analysis cannot see through the group's member call."""
    src = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(double* o, const double* x) {
    __shared__ double tmp[512];
    cg::thread_block cta = cg::this_thread_block();
    double s = x[blockIdx.x * blockDim.x + threadIdx.x];
    tmp[cta.thread_rank()] = s;
    cg::sync(cta);
    tmp[cta.thread_rank()] = s = s + tmp[cta.thread_rank() + 256];
    if (cta.thread_rank() < 128) tmp[0] = s = s + tmp[0];
    cg::sync(cta);
    if (cta.thread_rank() == 0) o[blockIdx.x] = tmp[0];
}
"""
    assert _sy003(src) == []


EARLY = """\
__global__ void total(float* o, const float* x, int n) {
    __shared__ float s;
    if (threadIdx.x == 0) s = 0.f;
    __syncthreads();
    if (GUARD) return;
    s += x[blockIdx.x * blockDim.x + threadIdx.x];
    if (threadIdx.x == 0) o[blockIdx.x] = s;
}
"""
TURNS = """\
__global__ void turns(float* o, const float* x) {
    __shared__ float s;
    if (threadIdx.x == 0) s = 0.f;
    __syncthreads();
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 2; ++j) if (threadIdx.x == j) break;
        if (GUARD) continue;
        s += x[blockIdx.x * blockDim.x + threadIdx.x];
    }
    if (threadIdx.x == 0) o[blockIdx.x] = s;
}
"""


def test_a_store_after_a_thread_dependent_early_exit_is_one_threads():
    """review66f: `if (threadIdx.x != 0) return;` before the store (or `if (threadIdx.x != i) continue;` in the loop
    around it) leaves one thread to store: SY003 said every thread races.  Look-alikes keep the finding: a uniform
    early exit (`blockIdx.x >= n`), a break that leaves only an inner loop."""
    assert _sy003(EARLY.replace("GUARD", "threadIdx.x != 0")) == []
    assert _sy003(TURNS.replace("GUARD", "threadIdx.x != i")) == []
    assert _sy003(EARLY.replace("GUARD", "blockIdx.x >= n")) == [6]
    assert _sy003(TURNS.replace("GUARD", "blockIdx.x >= 4")) == [8]
