"""Votes that only one 32-lane CUDA warp's threads reach (kernelport/confined_votes.py): GPUPrefixSums'
decoupled look-back votes with a full mask in `LookbackWarp`, called under `threadIdx.x < LANE_COUNT`, in a
group whose shuffles are all width 32.  At wave 64 only that warp's lanes are active in the wave, so the
plain votes are the warp's: the group stays a logical 32-lane group (its `WARP_INDEX` macro, width-32
shuffles kept).  It was KP219 (the votes made the group native, then `WARP_INDEX` was refused).  And a scan
called through a function pointer (`(*ScanVariant)(...)`) is in its caller's group (pointer_calls)."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.model import build
from kernelport.source import SourceFile
from kernelport import warpwidth

from conftest import hip_compiles
from port_support import assert_port_at_64_is_original_at_32, ported, refusal

HEAD = """
#include <cstdint>
#define LANE_COUNT 32
#define LANE_MASK 31
#define LANE_LOG 5
#define WARP_INDEX (threadIdx.x >> LANE_LOG)
#define WARPS 8

__device__ __forceinline__ uint32_t InclusiveWarpScan(uint32_t val) {
    for (int i = 1; i <= 16; i <<= 1) {
        const uint32_t t = __shfl_up_sync(0xffffffff, val, i, LANE_COUNT);
        if ((threadIdx.x & LANE_MASK) >= i) val += t;
    }
    return val;
}

__device__ void ScanFull(uint32_t* scan, uint32_t* s_red, uint32_t offset) {
    uint32_t v = InclusiveWarpScan(scan[offset + (threadIdx.x & LANE_MASK)]);
    scan[offset + (threadIdx.x & LANE_MASK)] = v;
    if ((threadIdx.x & LANE_MASK) == LANE_MASK) s_red[WARP_INDEX] = v;
}

__device__ void LookbackWarp(uint32_t* s_red, uint32_t* flags) {
    const uint32_t v = threadIdx.x < WARPS ? s_red[threadIdx.x] : 0;
    const uint32_t big = __ballot_sync(0xffffffff, v > 320);
    if (__all_sync(0xffffffff, v < 345)) {
        if (threadIdx.x == 0) flags[blockIdx.x] = __popc(big) + 100 * __ffs(big) + 10000;
    } else if (threadIdx.x == 0) {
        flags[blockIdx.x] = __popc(big) + 100 * __ffs(big);
    }
}
"""

DIRECT = HEAD + """
__global__ void csdl(uint32_t* scan, uint32_t* flags) {
    __shared__ uint32_t s_red[WARPS];
    const uint32_t offset = blockIdx.x * WARPS * LANE_COUNT + WARP_INDEX * LANE_COUNT;
    ScanFull(scan, s_red, offset);
    __syncthreads();
    if (blockIdx.x < 64 && threadIdx.x < LANE_COUNT) {
        LookbackWarp(s_red, flags);
    }
}

void run(uint32_t* scan, uint32_t* flags, int n) { csdl<<<n / 256, 256>>>(scan, flags); }
"""

# the scan reached only through a function pointer, as CSDL's `(*ScanVariantFull)(...)`
POINTER = HEAD + """
__device__ void csdl_body(uint32_t* scan, uint32_t* flags, void (*ScanVariant)(uint32_t*, uint32_t*, uint32_t)) {
    __shared__ uint32_t s_red[WARPS];
    const uint32_t offset = blockIdx.x * WARPS * LANE_COUNT + WARP_INDEX * LANE_COUNT;
    (*ScanVariant)(scan, s_red, offset);
    __syncthreads();
    if (threadIdx.x < LANE_COUNT) {
        LookbackWarp(s_red, flags);
    }
}

__global__ void csdl(uint32_t* scan, uint32_t* flags) { csdl_body(scan, flags, ScanFull); }

void run(uint32_t* scan, uint32_t* flags, int n) { csdl<<<n / 256, 256>>>(scan, flags); }
"""


def _errors(src: str, name: str = "csdl.cuh") -> set[str]:
    return {d.code for d in refusal(src, name, dedent=False)}


def test_votes_only_one_warp_reaches_keep_the_group_logical_and_the_port_right_at_64(tmp_path):
    # a header, as GPUPrefixSums' ChainedScanDecoupledLookback.cuh (halfvotes leaves a header's group alone)
    p, text = ported(DIRECT, name="csdl.cuh")
    assert "const uint32_t big = __ballot(v > 320);" in text and "if (__all(v < 345)) {" in text, text
    assert "__shfl_up(val, i, LANE_COUNT)" in text and "#define WARP_INDEX (threadIdx.x >> LANE_LOG)" in text, text
    scan = np.random.default_rng(3).integers(0, 21, 4 * 256).astype(np.uint32)
    args = {"scan": scan, "flags": np.zeros(4, np.uint32)}
    from kernelport.emulator import run_kernel
    want = run_kernel(DIRECT, "csdl", args=args, grid=(4,), block=(256,), wave=32).outputs["flags"]
    assert len({int(x) % 10000 for x in want}) > 1 and 0 < max(int(x) % 100 for x in want) < 8, want
    assert_port_at_64_is_original_at_32(DIRECT, text, "csdl", args, (4,), (256,), outputs=("flags", "scan"))
    hip_compiles(tmp_path, text)


def test_a_warp_index_local_guard_is_followed():
    src = DIRECT.replace("    if (blockIdx.x < 64 && threadIdx.x < LANE_COUNT) {",
                         "    const unsigned warp = threadIdx.x / 32;\n    if (!warp) {")
    assert src != DIRECT
    ported(src, name="csdl.cuh")


def test_in_a_cu_file_the_votes_stay_the_plain_wave_votes():
    # (main spelled each over its caller's warp, halfvotes' `__ballot(p) >> (__lane_id() & 32)`: right, longer)
    text = ported(DIRECT)[1]
    assert "const uint32_t big = __ballot(v > 320);" in text and "__lane_id() & 32" not in text, text


def test_a_function_called_through_a_pointer_is_in_its_callers_group(tmp_path):
    module = build(SourceFile.from_text(POINTER, "t.cu"))
    w = warpwidth.decide(module)
    assert w.by_function["ScanFull"] is w.by_function["csdl_body"], w.by_function
    assert w.by_function["csdl_body"].width == warpwidth.LOGICAL, w.by_function["csdl_body"].why
    _, text = ported(POINTER, name="csdl.cuh")
    assert "(*ScanVariant)(scan, s_red, offset)" in text and "__shfl_up(val, i, LANE_COUNT)" in text, text
    hip_compiles(tmp_path, text)


def test_a_pointer_no_address_matches_calls_nothing():
    # ScanFull's address is never taken: the pointer's target is unknown, no function joins the group
    src = POINTER.replace("csdl_body(scan, flags, ScanFull);", "csdl_body(scan, flags, nullptr);")
    w = warpwidth.decide(build(SourceFile.from_text(src, "t.cu")))
    assert w.by_function["ScanFull"] is not w.by_function["csdl_body"]


@pytest.mark.parametrize("old,new", [
    ("threadIdx.x < LANE_COUNT) {", "threadIdx.x < 64) {"),           # threads 0..63: two CUDA warps vote
    ("threadIdx.x < LANE_COUNT) {", "threadIdx.x < 48) {"),           # one warp and half of the next
    ("threadIdx.x < LANE_COUNT) {", "(threadIdx.x >> 5) == 1) {"),    # warp 1: its ballot bits are 32-63 at 64
    ("__ballot_sync(0xffffffff,", "__ballot_sync(0xffff,"),           # a partial mask
    ("if (blockIdx.x < 64 && threadIdx.x < LANE_COUNT) {", "if (blockIdx.x < 64) {"),  # no guard at all
    ("csdl<<<n / 256, 256>>>", "csdl<<<n / 256, dim3(32, 8)>>>"),  # rows of 32: `threadIdx.x < 32` is every thread
])
def test_look_alikes_stay_refused(old, new):
    src = DIRECT.replace(old, new)
    assert src != DIRECT
    assert "KP219" in _errors(src), src


def test_an_unguarded_second_call_of_the_voting_function_is_not_confined():
    src = DIRECT.replace("    __syncthreads();\n    if (blockIdx.x", "    LookbackWarp(s_red, flags);\n    __syncthreads();\n    if (blockIdx.x")
    assert src != DIRECT and "KP219" in _errors(src)
