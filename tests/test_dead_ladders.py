"""A shuffle ladder from 16 whose result nothing reads computes nothing: no WS004 (kernelport/lint/deadladders.py).

heldout95's fa-shrvan legacy helpers fold a copy of their argument and return the argument itself (4 WS004 judged
false on that set).  Each look-alike below reads the fold's value some other way and keeps its WS004."""
from __future__ import annotations

import pytest

from kernelport.lint import lint_text

LOOP = """\
__device__ float warp_max(float val) {
    float r = val;
    for (int o = 16; o > 0; o /= 2)
        r = max(r, __shfl_xor_sync(0xffffffff, r, o));
    RETURN
}
"""

UNROLLED = """\
__device__ float warp_sum(float val) {
    float r = val;
    r += __shfl_xor_sync(0xffffffff, r, 16);
    r += __shfl_xor_sync(0xffffffff, r, 8);
    r += __shfl_xor_sync(0xffffffff, r, 4);
    r += __shfl_xor_sync(0xffffffff, r, 2);
    r += __shfl_xor_sync(0xffffffff, r, 1);
    RETURN
}
"""


def _ws004(text: str) -> list[int]:
    return sorted(f.line for f in lint_text(text, "k.cu") if f.code == "WS004")


def test_a_loop_ladder_whose_result_is_discarded_is_silent():
    assert _ws004(LOOP.replace("RETURN", "return val;")) == []


def test_an_unrolled_ladder_whose_result_is_discarded_is_silent():
    assert _ws004(UNROLLED.replace("RETURN", "return val;")) == []


@pytest.mark.parametrize("tail", [
    "return r;",                                 # the fold returned
    "return val + r * 0.5f;",                   # read in an expression
    "float& a = r; return a;",                  # read through a reference
    "float s; memcpy(&s, &r, 4); return s;",    # through its address
    "return [&] { return r; }();",              # a lambda's capture
    "return r > 0.0f ? val : -val;",            # read by a test
])
def test_a_ladder_whose_result_is_read_keeps_its_ws004(tail):
    text = LOOP.replace("float val)", "float val, float* out = 0)").replace("RETURN", tail)
    assert _ws004(text) == [3], tail
    text = UNROLLED.replace("float val)", "float val, float* out = 0)").replace("RETURN", tail)
    assert _ws004(text) == [3], tail


def test_a_ladder_in_a_loop_whose_next_turn_reads_it_keeps_its_ws004():
    text = """\
__global__ void k(const float* x, float* out, int n) {
    float r = 0.0f;
    for (int i = 0; i < n; ++i) {
        out[i] = r;
        r = x[i * 32 + threadIdx.x];
        for (int o = 16; o > 0; o /= 2)
            r += __shfl_down_sync(0xffffffff, r, o);
    }
}
"""
    assert _ws004(text) == [6]


@pytest.mark.parametrize("body", [
    "out[threadIdx.x] = __shfl_xor_sync(0xffffffff, r, o);",  # an element written
    "atomicAdd(out, __shfl_xor_sync(0xffffffff, r, o));",      # a call for its effect
    "acc = max(acc, __shfl_xor_sync(0xffffffff, r, o));",      # a parameter (a reference) written
])
def test_a_ladder_whose_steps_write_outside_its_locals_keeps_its_ws004(body):
    text = f"""\
__device__ float f(float val, float* out, float& acc) {{
    float r = val;
    for (int o = 16; o > 0; o /= 2)
        {body}
    return val;
}}
"""
    assert _ws004(text) == [3], body


def test_a_macro_reading_the_fold_after_it_keeps_its_ws004():
    text = "#define KEEP(p) (*(p) = r)\n" + LOOP.replace("float val)", "float val, float* out)").replace(
        "RETURN", "KEEP(out); return val;")
    assert _ws004(text) == [4]
