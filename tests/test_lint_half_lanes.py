"""Which lanes of a 32-lane down tree keep their result on a 64-lane wave (kernelport/lint/halflanes.py):
lane 0 of each half only.  Lanes 1-31 of the lower half fold lanes of the upper half, so a second
down tree over the first one's partial sums is wrong even at lane 0.  The tree's own folds (a loop, or statements unrolled 16, 8, 4, 2, 1)
are the only reads of the partial sums that stay right (tests/test_lint_row_splits.py: the rows)."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

HEAD = """\
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
"""
KERNEL = """\
__global__ void block_sum(const float* x, float* out) {
    const int tid = threadIdx.x;
    const int lane = tid & 31;
    const int warp = tid >> 5;
    __shared__ float part[8];
    float v = x[blockIdx.x * 256 + tid];
BODY
    if (lane == 0) part[warp] = v;
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = part[0] + part[1] + part[2] + part[3] + part[4] + part[5] + part[6] + part[7];
}
void launch(const float* x, float* out, int n) { block_sum<<<n, 256>>>(x, out); }
"""


def _rows(body: str, head: str = HEAD) -> set[str]:
    """The severities of the kernel's lane and warp split (WS002 at `tid & 31`, WS003 at `tid >> 5`)."""
    src = head + KERNEL.replace("BODY", body)
    lines = src.splitlines()
    lane = next(n for n, t in enumerate(lines, 1) if "tid & 31" in t)
    found = {(f.line, f.code): f.severity for f in lint_text(src, "t.cu")}
    return {found[(lane, "WS002")], found[(lane + 1, "WS003")]}


def test_one_tree_read_at_each_halfs_lane_0_is_advice():
    assert _rows("    v = warp_sum(v);") == {"info"}


def test_a_second_tree_over_the_first_ones_partial_sums_stays_a_hazard():
    # lane 0's second tree reads lanes 16, 8, 4, 2, 1, whose first sums took lanes 32-47 at 64
    assert _rows("    v = warp_sum(v);\n    v = warp_sum(v);") == {"error"}
    assert _rows("    v = warp_sum(warp_sum(v));") == {"error"}
    # a fresh value between the two trees: each tree starts from values of its own half
    assert _rows("    v = warp_sum(v);\n    v = x[tid];\n    v = warp_sum(v);") == {"info"}
    # (examples/warp_reduce.cu: the first warp's second tree over the leaders' slots, in a block)
    nested = "    v = warp_sum(v);\n    if (warp == 0) {\nFRESH        v = warp_sum(v);\n    }"
    assert _rows(nested.replace("FRESH", "        v = lane < 8 ? x[lane] : 0.0f;\n")) == {"info"}
    assert _rows(nested.replace("FRESH", "")) == {"error"}


def test_a_tree_in_a_loop_over_the_last_turns_result_stays_a_hazard():
    assert _rows("    for (int r = 0; r < 2; ++r) v = warp_sum(v + x[r]);") == {"error"}
    inline = "    for (int r = 0; r < 2; ++r) {\nR        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);\n    }"
    assert _rows(inline.replace("R", ""), head="") == {"error"}  # turn 2 folds turn 1's partial sums
    assert _rows(inline.replace("R", "        v = x[r * 256 + tid];\n"), head="") == {"info"}  # a new value each turn


UNROLLED = "\n".join(f"    v += __shfl_down_sync(0xffffffffu, v, {o});" for o in (16, 8, 4, 2, 1))


def test_an_unrolled_tree_read_at_lane_0_is_advice_and_one_past_31_is_not():
    assert _rows(UNROLLED, head="") == {"info"}  # 16 + 8 + 4 + 2 + 1 = 31
    past = UNROLLED + "\n    v += __shfl_down_sync(0xffffffffu, v, 16);"
    assert _rows(past, head="") == {"error"}  # lane 0 reads lane 16, whose sum took lanes 32-47


SUM_XOR = """\
__device__ float warp_all(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
"""
SOFTMAX = """\
#include "common.h"
__device__ float warp_max(float v) {
    for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, o));
    return v;
}
__global__ void softmax(float* out, const float* x, int C) {
    __shared__ float maxes[32];
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    float m = warp_max(x[blockIdx.x * C + threadIdx.x]);
    if (lane == 0) maxes[warp] = m;
    __syncthreads();
    float s = warp_all(expf(x[blockIdx.x * C + threadIdx.x] - maxes[0]));
    out[blockIdx.x * C + threadIdx.x] = s;
}
OTHER
"""


def _file(tmp_path, text: str, header: str = SUM_XOR) -> dict[tuple[int, str], str]:
    from kernelport.lint import engine, config as configmod
    (tmp_path / "common.h").write_text(header)
    k = tmp_path / "k.cu"
    k.write_text(text)
    res = engine.lint_paths([k], configmod.Overrides(include_dirs=(str(tmp_path),)), jobs=1)
    return {(f.line, f.code): f.severity for r in res for f in r.findings}


def test_a_header_helper_whose_xor_tree_keeps_each_half_is_read_at_every_lane(tmp_path):
    # llm.c's softmax_forward_kernel4: warpReduceSum (common.h) is a xor tree from 16: every lane keeps it at 64
    found = _file(tmp_path, SOFTMAX.replace("OTHER", ""))
    assert {found[(8, "WS003")], found[(9, "WS002")], found[(3, "WS004")]} == {"info"}, found
    down = SUM_XOR.replace("__shfl_xor_sync", "__shfl_down_sync")
    found = _file(tmp_path, SOFTMAX.replace("OTHER", ""), header=down)  # every lane reads a down tree
    assert {found[(8, "WS003")], found[(9, "WS002")]} == {"error"}, found
    bcast = SUM_XOR.replace("return v;", "return __shfl_sync(0xffffffffu, v, 0);")
    found = _file(tmp_path, SOFTMAX.replace("OTHER", ""), header=bcast)  # lanes 32-63 read lane 0
    assert {found[(8, "WS003")], found[(9, "WS002")]} == {"error"}, found
    wide = SUM_XOR.replace("o = 16", "o = 32")
    found = _file(tmp_path, SOFTMAX.replace("OTHER", ""), header=wide)  # a xor by 32 crosses halves
    assert {found[(8, "WS003")], found[(9, "WS002")]} == {"error"}, found


def test_a_kernel_whose_rows_hold_is_advice_beside_one_of_its_group_that_does_not(tmp_path):
    other = """\
__global__ void every_lane(float* out, const float* x) {
    __shared__ float part[32];
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    float m = warp_max(x[threadIdx.x]);
    if (lane == 0) part[warp] = m;
    out[threadIdx.x] = m;
}"""
    found = _file(tmp_path, SOFTMAX.replace("OTHER", other))
    assert {found[(8, "WS003")], found[(9, "WS002")]} == {"info"}, found  # softmax's own rows hold
    assert {found[(18, "WS003")], found[(19, "WS002")]} == {"error"}, found  # every_lane reads a down tree
    assert found[(3, "WS004")] == "error", found  # warp_max's ladder: every_lane reads it at lanes 1-31


def test_both_branches_of_an_if_giving_a_new_value_end_the_result():
    # ADEPT's blockShuffleReduce: `if (tid < n) v = s[tid]; else v = 0;` before the second tree
    fresh = "    v = warp_sum(v);\n    if (lane < 8) {\n        v = x[lane];\n    } else {\n        v = 0.0f;\n    }\n    v = warp_sum(v);"
    assert _rows(fresh) == {"info"}
    assert _rows(fresh.replace("        v = 0.0f;\n", "")) == {"error"}  # no new value on the else branch
    assert _rows(fresh.replace("        v = 0.0f;\n", "        float v = 0.0f;\n")) == {"error"}  # another `v`
