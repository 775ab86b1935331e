"""How far lint follows a row reduction's result before it calls a split block correct at 64
(kernelport/lint/rowsplits.py; tests/test_lint_row_splits.py has the basic forms).

ADEPT's block reduction (tests/labelled15) is the shape here: a helper whose ladder starts at a local
`int warpSize = 32;`, masks its shuffles with a ballot, and hands its result to a block reduction
that hands it on to kernels reading it under `thread_Id == 0`.  Each kernel was run with
`kernelport verify --wave-invariance` (the emulator, inputs inferred) when this file was written:
SUMS, AFTER_IF and LOOP_TURN give the same output at wave 32 and 64; the variants named as hazards
below differ (31744 elements of y each), and lint before this change called each of AFTER_IF's
and LOOP_TURN's hazard variants "correct at 64 as written".

Stop 46 checked each hazard variant against translate with the emulator (bench/halfvote_lane_shapes46.txt): SUMS's
every-lane variant is refused by translate (KP225), as lint flags it; AFTER_IF's and LOOP_TURN's every-lane variants
are ported wave-wide by `translate --to hip` and that port FAILS at wave 64 (lint is right, translate should refuse);
SUMS's built-in `warpSize` and `__popc(mask)` variants are right in translate's 32-lane port and wrong as written,
so their lane arithmetic stays a hazard of the code as written.  Stop 47: translate keeps AFTER_IF's and LOOP_TURN's
32-lane groups (both read their slots under a fixed count of 32-lane warps: kernelport/warpcounts.py), and those
ports, every-lane variants included, pass `verify --oracle original` at 32 and 64 (bench/block_reduce_ports47.txt)."""
from __future__ import annotations

from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.warpsplits import local32

SUMS = """\
__device__ float row_sum(float v) {
    int warpSize = 32;
    unsigned mask = __ballot_sync(0xffffffffu, threadIdx.x < 256);
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(mask, v, o);
    return v;
}
__device__ float block_sum(float v, float& first) {
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    __shared__ float part[32];
    v = row_sum(v);
    first = v;
    if (lane == 0) part[warp] = v;
    __syncthreads();
    v = threadIdx.x < (blockDim.x + 31) / 32 ? part[threadIdx.x] : 0.0f;
    if (warp == 0) v = row_sum(v);
    return v;
}
__global__ void sums(const float* x, float* out, float* rows) {
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    float first = 0.0f;
    float s = block_sum(x[blockIdx.x * 256 + threadIdx.x], first);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
    if (lane == 0) rows[blockIdx.x * 8 + warp] = first;
}
void launch(const float* x, float* out, float* rows, int n) { sums<<<n, 256>>>(x, out, rows); }
"""
# the local's 32, the helper's lane, warp and slots, the warp count, the kernel's lane
SUMS_SITES = {(2, "WS017"), (8, "WS002"), (9, "WS003"), (10, "WS011"), (15, "WS003"), (20, "WS002")}


def _sev(src: str) -> dict[tuple[int, str], str]:
    return {(f.line, f.code): f.severity for f in lint_text(src, "t.cu")}


def test_a_block_reduction_handing_its_result_to_leaders_of_its_callers_is_advice():
    found = _sev(SUMS)
    assert {k: found.get(k) for k in SUMS_SITES} == dict.fromkeys(SUMS_SITES, "info"), found
    assert found[(4, "WS007")] == "warning" and found[(3, "WS008")] == "error"  # the 32-bit mask stays a hazard
    assert (2, "WS016") not in found  # the local `warpSize` is a 32 of the code, not the built-in beside a 32


def test_a_handed_on_result_read_by_every_lane_of_the_caller_stays_a_hazard():
    every = SUMS.replace("if (lane == 0) rows[blockIdx.x * 8 + warp] = first;",
                         "rows[blockIdx.x * 256 + threadIdx.x] = first + warp;")  # lanes 16-31 fold the next row
    found = _sev(every)
    assert {found.get(k) for k in SUMS_SITES - {(20, "WS002")}} == {"error"}, found


def test_the_built_in_warp_size_in_the_helper_stays_a_hazard():
    found = _sev(SUMS.replace("    int warpSize = 32;\n", "    int unused = 32;\n"))  # the ladder from warpSize / 2
    assert found[(8, "WS002")] == "error" and found[(9, "WS003")] == "error", found


def test_a_ballot_read_as_data_as_well_as_a_mask_stays_a_hazard():
    found = _sev(SUMS.replace("    return v;\n}\n__device__ float block_sum", "    return v + __popc(mask);\n}\n"
                              "__device__ float block_sum"))  # its word holds the wave's 64 lanes
    assert found[(8, "WS002")] == "error" and found[(10, "WS011")] == "error", found


def test_only_a_local_that_is_the_constant_32_throughout_is_not_the_built_in():
    def names(body: str) -> frozenset[str]:
        src = SourceFile.from_text("__device__ int f(int n) {\n" + body + "\n}\n", "t.cu")
        fn = src.root.named_children[0]
        return local32(src, fn.child_by_field_name("body"))
    assert names("int warpSize = 32; return n % warpSize;") == {"warpSize"}
    assert names("constexpr int warp_size = 32; return n / warp_size;") == {"warp_size"}
    assert names("int warpSize = 64; return n % warpSize;") == frozenset()  # another value
    assert names("int warpSize = 32; warpSize = n; return n % warpSize;") == frozenset()  # assigned
    assert names("int warpSize = 32; int* p = &warpSize; return *p;") == frozenset()  # its address taken
    assert names("int warpSize = 32; g(warpSize); return n % warpSize;") == frozenset()  # `g(int&)` may set it
    assert names("int a = n % warpSize; int warpSize = 32; return a + warpSize;") == frozenset()  # the built-in first
    assert names("if (n) { int warpSize = 32; return n % warpSize; } return n % warpSize;") == frozenset()  # a block's


AFTER_IF = """\
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
__global__ void block_sum(const float* x, float* y, float* out) {
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    __shared__ float part[8];
    float a = x[blockIdx.x * 256 + tid];
    float v = warp_sum(a);
    if (lane == 0) part[warp] = v;
    __syncthreads();
    v = lane < 256 / 32 ? part[lane] : 0.0f;
    if (warp < 8) {
        v = warp_sum(v);
    }
    if (tid == 0) out[blockIdx.x] = v;
    y[blockIdx.x * 256 + tid] = a;
}
void launch(const float* x, float* y, float* out, int n) { block_sum<<<n, 256>>>(x, y, out); }
"""
ROW_SITES = {(2, "WS004"), (7, "WS002"), (8, "WS003")}  # the ladder from 16, the lane, the warp


def test_a_result_read_after_the_block_it_is_made_in_is_followed_there():
    assert {_sev(AFTER_IF)[k] for k in ROW_SITES} == {"info"}  # read at `tid == 0` after the `if`
    every = _sev(AFTER_IF.replace("y[blockIdx.x * 256 + tid] = a;", "y[blockIdx.x * 256 + tid] = a * v;"))
    assert {every[k] for k in ROW_SITES} == {"error"}, every  # every lane reads it after the `if`


LOOP_TURN = """\
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
__global__ void block_sum(const float* x, float* y, float* out) {
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    __shared__ float part[8];
    float v = 0.0f;
    for (int r = 0; r < 2; ++r) {
        y[blockIdx.x * 256 + tid] = 1.0f;
        v = warp_sum(x[(blockIdx.x * 2 + r) * 128 + tid / 2]);
        if (lane == 0) part[warp] = v;
        __syncthreads();
        if (tid == 0) out[blockIdx.x * 2 + r] = part[0] + part[1] + part[2] + part[3] + part[4] + part[5] + part[6] + part[7];
        __syncthreads();
    }
}
void launch(const float* x, float* y, float* out, int n) { block_sum<<<n, 256>>>(x, y, out); }
"""


def test_a_result_read_by_the_next_turn_of_a_loop_is_followed_there():
    assert {_sev(LOOP_TURN)[k] for k in ROW_SITES} == {"info"}
    every = _sev(LOOP_TURN.replace("y[blockIdx.x * 256 + tid] = 1.0f;", "y[blockIdx.x * 256 + tid] = v;"))
    assert {every[k] for k in ROW_SITES} == {"error"}, every  # the previous turn's sum, on every lane


def test_a_later_local_of_the_same_name_is_another_variable():
    found = _sev(AFTER_IF.replace("    if (warp < 8) {\n        v = warp_sum(v);\n    }\n",
                                  "    if (warp < 8) {\n        float w = warp_sum(v);\n"
                                  "        if (lane == 0) part[warp] = w;\n    }\n    float w = a;\n"))
    assert {found[k] for k in ROW_SITES} == {"info"}, found  # the block's `w` ends with it; `float w = a` is new


def test_a_comparison_or_a_modulus_of_the_thread_index_is_no_lane_or_warp_of_32():
    from kernelport.model import build
    from kernelport.warpsplits import find
    src = SourceFile.from_text("__global__ void k(float* x, int n) {\n    __shared__ float s[8];\n"
                               "    const int warp = threadIdx.x / 32;\n"
                               "    if (threadIdx.x < n) s[warp] = x[threadIdx.x % n];\n}\n", "t.cu")
    assert find(build(src))[0] == {}  # `threadIdx.x < n` is no lane: a warp index alone splits nothing


def test_a_lane_masked_by_a_constant_expression_of_a_32_is_the_rows_lane():
    from kernelport.model import build
    from kernelport.warpsplits import find
    src = SourceFile.from_text("#define WARP_SIZE 32\n__global__ void k(float* x) {\n    __shared__ float s[8];\n"
                               "    const int lane = threadIdx.x & (WARP_SIZE - 1);\n"
                               "    const int warp = threadIdx.x >> 5;\n    if (lane == 0) s[warp] = x[threadIdx.x];\n}\n",
                               "t.cu")
    split = find(build(src), frozenset({"WARP_SIZE"}))[0]["k"]  # hecbench radixsort's `idx & (WARP_SIZE - 1)` with `idx >> 5`
    assert "lane" in split.lanes and split.warp.text.decode() == "threadIdx.x >> 5"
