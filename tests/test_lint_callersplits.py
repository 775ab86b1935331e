"""Lint facts from the run's other files (issue 11, stop 42): a header helper's warp index parameter
and the down-tree result it returns judged at the calls the run shows (kernelport/lint/callersplits.py),
and a template's ladder start bounded by the instances the run shows (kernelport/lint/instances.py).
TransformerEngine's utils.cuh `reduce_max` (tests/labelled14) is the real case; each look-alike that
goes quiet has a near case that must still flag."""
from __future__ import annotations

from pathlib import Path

from kernelport.lint import engine

HELPER = """\
#pragma once
__device__ __forceinline__ float row_max(float v) {
    for (int o = 16; o > 0; o /= 2)
        v = fmaxf(v, __shfl_down_sync(0xffffffff, v, o));
    return v;
}

template <int num_warps>
__device__ __forceinline__ float block_max(const float m, const int warpid) {
    __shared__ float staging[num_warps];
    const float w = row_max(m);
    if (threadIdx.x % 32 == 0) {
        staging[warpid] = w;
    }
    __syncthreads();
    float result = 0;
    if (warpid == 0) {
        const float v = threadIdx.x < num_warps ? staging[threadIdx.x] : 0;
        result = row_max(v);
    }
    return result;
}
"""

CALLER = """\
#include "red.cuh"
#define ROW 32
__global__ void amax(const float *x, float *out) {
    const int warp_id = WARP_ID;
    const int lane = threadIdx.x % ROW;
    float m = fabsf(x[blockIdx.x * blockDim.x + threadIdx.x]);
    m = block_max<4>(m, warp_id);
    READ
}
"""
LEADER = "if (threadIdx.x == 0) {\n        out[blockIdx.x] = m;\n    }"


def _lint(tmp_path: Path, files: dict[str, str]) -> dict[tuple[str, int], set[tuple[str, str]]]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    out: dict = {}
    for r in engine.lint_paths([tmp_path / n for n in files], jobs=1):
        for f in r.findings:
            if f.code.startswith("WS"):
                out.setdefault((Path(f.path).name, f.line), set()).add((f.code, f.severity))
    return out


def _caller(warp="threadIdx.x / ROW", read=LEADER) -> str:
    return CALLER.replace("WARP_ID", warp).replace("READ", read)


def test_helper_rows_hold_where_every_call_passes_a_warp_index_of_32(tmp_path):
    got = _lint(tmp_path, {"red.cuh": HELPER, "k.cu": _caller()})
    assert got[("red.cuh", 3)] == {("WS004", "info")}  # the ladder from 16
    assert got[("red.cuh", 12)] == {("WS002", "info")}  # `threadIdx.x % 32 == 0`


def test_no_call_in_the_run_is_no_evidence(tmp_path):
    got = _lint(tmp_path, {"red.cuh": HELPER})
    assert ("WS004", "error") in got[("red.cuh", 3)] and ("WS002", "error") in got[("red.cuh", 12)]


def test_a_caller_whose_warp_index_is_not_of_32_keeps_the_findings(tmp_path):
    got = _lint(tmp_path, {"red.cuh": HELPER, "k.cu": _caller(warp="threadIdx.x / 64")})
    assert ("WS002", "error") in got[("red.cuh", 12)]
    got = _lint(tmp_path, {"red.cuh": HELPER, "k.cu": _caller(warp="threadIdx.x % 4")})
    assert ("WS002", "error") in got[("red.cuh", 12)]


def test_one_bad_caller_among_good_ones_keeps_the_findings(tmp_path):
    other = _caller(warp="blockIdx.x").replace("void amax(", "void amax2(")
    got = _lint(tmp_path, {"red.cuh": HELPER, "k.cu": _caller(), "k2.cu": other})
    assert ("WS002", "error") in got[("red.cuh", 12)]


def test_a_caller_reading_the_returned_tree_at_every_lane_keeps_the_findings(tmp_path):
    got = _lint(tmp_path, {"red.cuh": HELPER, "k.cu": _caller(read="out[threadIdx.x] = m;")})
    assert ("WS004", "error") in got[("red.cuh", 3)]


def test_another_file_reading_the_ladder_helper_at_every_lane_keeps_the_findings(tmp_path):
    direct = '#include "red.cuh"\n__global__ void each(float *x) {\n    x[threadIdx.x] = row_max(x[threadIdx.x]);\n}\n'
    got = _lint(tmp_path, {"red.cuh": HELPER, "k.cu": _caller(), "d.cu": direct})
    assert ("WS004", "error") in got[("red.cuh", 3)]


def test_an_address_taken_helper_has_callers_the_run_does_not_show(tmp_path):
    ptr = _caller() + "\nauto *p = &block_max<8>;\n"
    got = _lint(tmp_path, {"red.cuh": HELPER, "k.cu": ptr})
    assert ("WS002", "error") in got[("red.cuh", 12)]


TEMPLATED = HELPER.replace("__device__ __forceinline__ float row_max(float v) {\n    for (int o = 16;",
                           "template <int n>\n__device__ __forceinline__ float row_max(float v) {\n    for (int o = n / 2;") \
    .replace("row_max(m)", "row_max<WIDTH>(m)").replace("row_max(v)", "row_max<num_warps>(v)")


def test_a_ladder_start_bounded_by_every_instance_the_run_shows(tmp_path):
    got = _lint(tmp_path, {"red.cuh": TEMPLATED.replace("WIDTH", "32"), "k.cu": _caller()})
    assert not any(s != "info" for k, v in got.items() if k[0] == "red.cuh" for c, s in v if c != "WS007"), got


def test_an_instance_above_32_keeps_the_findings(tmp_path):
    got = _lint(tmp_path, {"red.cuh": TEMPLATED.replace("WIDTH", "32"), "k.cu": _caller().replace("block_max<4>", "block_max<64>")})
    assert ("WS002", "error") in got[("red.cuh", 13)]
    got = _lint(tmp_path, {"red.cuh": TEMPLATED.replace("WIDTH", "64"), "k.cu": _caller()})
    assert ("WS002", "error") in got[("red.cuh", 13)]


def test_an_explicit_instantiation_the_calls_do_not_show_keeps_the_findings(tmp_path):
    inst = _caller() + "\ntemplate __device__ float row_max<128>(float);\n"
    got = _lint(tmp_path, {"red.cuh": TEMPLATED.replace("WIDTH", "32"), "k.cu": inst})
    assert ("WS002", "error") in got[("red.cuh", 13)]


def test_a_warp_index_a_call_may_change_through_a_reference_keeps_the_findings(tmp_path):
    bump = "__device__ void bump(int &w) { w += 1; }\n"
    k = bump + _caller(warp="threadIdx.x / ROW").replace("const int warp_id = threadIdx.x / ROW;",
                                                         "int warp_id = threadIdx.x / ROW;\n    bump(warp_id);")
    got = _lint(tmp_path, {"red.cuh": HELPER, "k.cu": k})
    assert ("WS002", "error") in got[("red.cuh", 12)]
    const = bump.replace("int &w) { w += 1; }", "const int &w) { }") + _caller().replace(
        "m = block_max<4>(m, warp_id);", "bump(warp_id);\n    m = block_max<4>(m, warp_id);")
    got = _lint(tmp_path, {"red.cuh": HELPER, "k.cu": const})
    assert got[("red.cuh", 12)] == {("WS002", "info")}  # a const local: a call cannot change it
