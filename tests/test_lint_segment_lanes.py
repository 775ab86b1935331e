"""WS021's second form (kernelport/lint/segmentlanes.py): a function that works in segments of 32 lanes
(its shuffles at the width 32) and tests the wave's lane, PTX `%laneid` or `threadIdx.x % warpSize`
(GPUPrefixSums' Utils.cuh scans, heldout60).  Lanes 32-63 of a 64-lane wave are lanes 0-31 of the second
segment, but the test sees 32-63."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text

LANEID = """\
#include <stdint.h>
#define LANE_COUNT 32
__device__ __forceinline__ uint32_t getLaneId() {
    uint32_t laneId;
    asm("mov.u32 %0, %%laneid;" : "=r"(laneId));
    return laneId;
}
"""
SCAN = LANEID + """\
__device__ uint32_t scan(uint32_t val) {
    for (int i = 1; i <= 16; i <<= 1) {
        const uint32_t t = __shfl_up_sync(0xffffffff, val, i, @WIDTH@);
        if (@LANE@ >= i) val += t;
    }
    return val;
}
__global__ void k(uint32_t* x) { x[threadIdx.x] = scan(x[threadIdx.x]); }
"""
TEST_LINE = 11  # `if (@LANE@ >= i)`
ASM_LINE = 5  # the helper's `%laneid` read: where the finding is (what a port rewrites), the test related


def _ws021(src: str) -> list[int]:
    return [f.line for f in lint_text(src, "k.cu") if f.code == "WS021"]


def _related(src: str) -> list[list[int]]:
    return [[r.line for r in f.related] for f in lint_text(src, "k.cu") if f.code == "WS021"]


@pytest.mark.parametrize("lane,width,at", [
    ("getLaneId()", "LANE_COUNT", ASM_LINE),  # PTX %laneid through a helper, the width a macro of 32
    ("getLaneId()", "32", ASM_LINE),
    ("(threadIdx.x % warpSize)", "32", TEST_LINE),  # the wave's lane written in the test
    ("getLaneId()", "16", ASM_LINE),  # segments of 16: lanes 16-31 are past the segment's end too
])
def test_a_test_of_the_wave_lane_in_32_lane_segments_is_flagged(lane, width, at):
    src = SCAN.replace("@LANE@", lane).replace("@WIDTH@", width)
    assert _ws021(src) == [at], src
    assert _related(src) == [[TEST_LINE]], src


def test_a_local_set_from_the_wave_lane_is_the_wave_lane():
    src = SCAN.replace("@WIDTH@", "32").replace("    for (int i", "    const int lane = getLaneId();\n    for (int i", 1)
    src = src.replace("@LANE@ >= i", "lane >= i")
    assert _ws021(src) == [ASM_LINE] and _related(src) == [[TEST_LINE + 1]], src


@pytest.mark.parametrize("lane,width,launch", [
    ("(getLaneId() & 31)", "32", ""),  # the segment's own lane
    ("(threadIdx.x & 31)", "32", ""),
    ("getLaneId()", "warpSize", ""),  # the shuffles span the wave: its lane is the right one
    ("getLaneId()", "width", ""),  # a variable width: not known to be 32
    ("getLaneId()", "32", "void launch(uint32_t* x, int n) { k<<<n, 32>>>(x); }\n"),  # one segment a block
])
def test_the_segment_lane_a_wave_width_or_blocks_of_32_stay_silent(lane, width, launch):
    src = SCAN.replace("@LANE@", lane).replace("@WIDTH@", width).replace("uint32_t val)", "uint32_t val, int width = 32)")
    assert _ws021(src + launch) == [], src + launch


def test_a_block_of_more_than_32_keeps_the_finding():
    src = SCAN.replace("@LANE@", "getLaneId()").replace("@WIDTH@", "32")
    assert _ws021(src + "void launch(uint32_t* x, int n) { k<<<n, 256>>>(x); }\n") == [ASM_LINE]


def test_a_source_lane_and_a_test_against_the_wave_width_stay_silent():
    body = LANEID + """\
__device__ uint32_t rotate(uint32_t val) {
    val = __shfl_sync(0xffffffff, val, getLaneId() + 1, 32);
    if (getLaneId() < warpSize) val += 1;
    return val;
}
__global__ void k(uint32_t* x) { x[threadIdx.x] = rotate(x[threadIdx.x]); }
"""
    assert _ws021(body) == []


def test_a_bool_helper_is_no_lane():
    """`is_leader()` tests the lane itself: its value is no lane to compare (the helper's own test is in a
    function with no shuffle)."""
    body = LANEID + """\
__device__ bool is_leader() { return getLaneId() == 0; }
__device__ uint32_t sum(uint32_t v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o, 32);
    if (is_leader() == true) v += 1;
    return v;
}
__global__ void k(uint32_t* x) { x[threadIdx.x] = sum(x[threadIdx.x]); }
"""
    assert _ws021(body) == []


def test_the_port_takes_the_segment_lane_so_translate_writes_it():
    """translate ports `%laneid` in a 32-lane group as `(__lane_id() & 31)`: the finding is at that read,
    which the port rewrites, so the HIP port is written (no KP225); the finding stays in the original."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    src = SCAN.replace("@LANE@", "getLaneId()").replace("@WIDTH@", "32")
    port, _ = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok, [d.code for d in port.diagnostics]
    assert "(__lane_id() & 31)" in port.body
