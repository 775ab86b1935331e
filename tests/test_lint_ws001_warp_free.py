"""WS001 on a warp-size name in a source file that never uses the hardware warp (kernelport/lint/warpfree.py;
ampere-ubench in heldout58: `#define WARP_SIZE 32` as a shared-memory bandwidth kernel's loop stride and the
host's byte count, no shuffle, vote or lane register anywhere).  Every thread stores the same addresses at 64
lanes.  Look-alikes that keep the finding: the same file with a shuffle, with a vote in PTX (`%laneid`), with a
warp-synchronous tail (`if (tid < WARP_SIZE)`), with a lane or warp index (`tid % WARP_SIZE`, through a local),
and the definition in a header."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_paths, lint_text

BENCH = """\
#include <cstdint>
#define SMEM_SIZE 1024
#define BLK_SIZE 256
#define WARP_SIZE 32
__global__ void bw(uint32_t* start, float* out) {
    __shared__ float smem[SMEM_SIZE];
    int tid = threadIdx.x;
    EXTRA
    for (int i = 0; i < SMEM_SIZE; i += WARP_SIZE) smem[(tid + i) % SMEM_SIZE] = (float) i;
    __syncthreads();
    out[tid] = smem[tid];
}
int main() {
    float* out;
    uint32_t* start;
    bw<<<1, BLK_SIZE>>>(start, out);
    unsigned bytes = SMEM_SIZE * sizeof(float) * (BLK_SIZE / WARP_SIZE);
    return bytes == 0;
}
"""


def _ws001(extra: str = "", path: str = "bench.cu") -> list[int]:
    return [f.line for f in lint_text(BENCH.replace("EXTRA", extra), path) if f.code == "WS001"]


def test_stride_and_byte_count_in_a_file_with_no_warp_code_is_quiet():
    assert _ws001() == []


@pytest.mark.parametrize("extra", [
    "out[0] = __shfl_down_sync(0xffffffff, out[0], 1);",
    'unsigned lane; asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane)); out[1] = lane;',
    "if (tid < WARP_SIZE) smem[tid] += smem[tid + 16];",
    "int lane = tid % WARP_SIZE; out[2] = lane;",
    "int w = threadIdx.x; int slot = w / WARP_SIZE; out[slot] = 1.f;",
], ids=["shuffle", "ptx-laneid", "warp-synchronous-tail", "lane-index", "warp-slot-through-local"])
def test_warp_code_or_a_thread_index_keeps_the_finding(extra):
    assert _ws001(extra) == [4]


def test_a_header_keeps_the_finding():
    """A header's uses are in its includers (lint/headeruses.py judges those in a tree run)."""
    assert _ws001(path="bench.cuh") == [4]


def test_project_run_too(tmp_path):
    (tmp_path / "bench.cu").write_text(BENCH.replace("EXTRA", ""))
    (tmp_path / "lane.cu").write_text(BENCH.replace("EXTRA", "int lane = tid % WARP_SIZE; out[2] = lane;"))
    found = sorted((r.path.rsplit("/", 1)[-1], f.line) for r in lint_paths([tmp_path], jobs=1) for f in r.findings
                   if f.code == "WS001")
    assert found == [("lane.cu", 4)]
