"""A thread index held through a value-keeping integer cast (`int tid = (int)threadIdx.x;`,
`static_cast<unsigned>(threadIdx.x)`) is the thread index: a block split into 32-lane rows from it
is lint's advice, as from `int tid = threadIdx.x;` (kernelport/warpsplits.thread_text).  A
narrowing cast (`(unsigned char)threadIdx.x`: 256 threads wrap) is not, and a split whose rows
do not hold (a broadcast from lane 0 reads the first row at 64) stays a hazard whatever the cast."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text
from kernelport.warpsplits import thread_text

SPLIT = """\
__global__ void k(const float* x, float* out) {
    int tid = THREAD;
    int bsize = (int)blockDim.x;
    float partial = x[blockIdx.x * bsize + tid];
    __shared__ float smem[32];
    for (int offset = 16; offset > 0; offset >>= 1) partial += __shfl_xor_sync(0xffffffff, partial, offset);
    int lane = tid & 31;
    int warp = tid >> 5;
    if (lane == 0) smem[warp] = partial;
    __syncthreads();
    if (warp == 0) {
        float v = (lane < ((bsize + 31) >> 5)) ? smem[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffff, v, offset);
        if (lane == 0) out[blockIdx.x] = v;
    }
}
"""
ROW_SITES = {(5, "WS011"), (6, "WS004"), (7, "WS002"), (8, "WS003"), (13, "WS004")}


def _sev(src: str) -> dict[tuple[int, str], str]:
    return {(f.line, f.code): f.severity for f in lint_text(src, "t.cu")}


@pytest.mark.parametrize("thread", ["threadIdx.x", "(int)threadIdx.x", "(unsigned int)(threadIdx.x)",
                                    "static_cast<int>(threadIdx.x)", "(int32_t)threadIdx.x"])
def test_a_split_from_a_cast_thread_index_is_advice(thread):
    found = _sev(SPLIT.replace("THREAD", thread))
    assert {k: found.get(k) for k in ROW_SITES} == dict.fromkeys(ROW_SITES, "info"), found
    assert found[(6, "WS007")] == "warning"  # the 32-bit mask stays a porting note


@pytest.mark.parametrize("thread", ["(unsigned char)threadIdx.x", "(int)threadIdx.y", "(float)threadIdx.x"])
def test_a_narrowing_cast_or_another_index_is_not_the_thread_index(thread):
    found = _sev(SPLIT.replace("THREAD", thread))
    assert found.get((6, "WS004")) == "error", found


def test_a_broadcast_from_lane_0_stays_a_hazard_through_the_cast():
    src = SPLIT.replace("THREAD", "(int)threadIdx.x").replace(
        "if (lane == 0) smem[warp] = partial;", "partial = __shfl_sync(0xffffffff, partial, 0);\n    if (lane == 0) smem[warp] = partial;")
    found = _sev(src)
    assert found.get((6, "WS004")) == "error", found


def test_thread_text_strips_only_value_keeping_integer_casts():
    assert thread_text("( (int) threadIdx.x )") == "threadIdx.x"
    assert thread_text("static_cast<unsigned>(threadIdx.x)") == "threadIdx.x"
    assert thread_text("(int)threadIdx.x + 1") == "(int)threadIdx.x + 1"  # a sum is not the index
    assert thread_text("(int)(a) * (b)") == "(int)(a) * (b)"
    assert thread_text("(char)threadIdx.x") == "(char)threadIdx.x"
