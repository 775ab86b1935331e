"""Two more leader-fold forms (kernelport/lint/leaderfolds.py; stop 63 left "unrolled leader ladders, `if (tid >= 32)
return;` guards"): the first 32 threads fold with an unrolled ladder 16, 8, 4, 2, 1 (down or xor) under
`if (tid < 32)`, or with a loop or unrolled ladder after `if (tid >= 32) return;`, and lane 0's result alone is used:
correct at wave 64, no WS004 and no WS012.  Look-alikes that keep both: every lane storing its result, a return at
64, a return nested in other control, a ladder that starts at 16 after a step of its own at 32-lane rows' width, a
second return before."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text

UNROLLED = "\n".join(f"        sum += {{shfl}}(0xffffffff, sum, {o});" for o in (16, 8, 4, 2, 1))
LOOP = "        for (int o = 16; o > 0; o >>= 1) sum += {shfl}(0xffffffff, sum, o);"

IF_GUARD = """\
__global__ void red(const float* x, float* out) {{
    const int tid = threadIdx.x;
    float sum = x[blockIdx.x * blockDim.x + tid];
    if (tid < 32) {{
{ladder}
        {after}
    }}
}}
"""
RETURN_GUARD = """\
__global__ void red(const float* x, float* out) {{
    const int tid = threadIdx.x;
    float sum = x[blockIdx.x * blockDim.x + tid];
    {before}if ({ret}) return;
{ladder}
        {after}
}}
"""
LEADER = "if (tid == 0) out[blockIdx.x] = sum;"


def _codes(text: str) -> set[str]:
    return {f.code for f in lint_text(text, "k.cu") if f.code in ("WS004", "WS012")}


@pytest.mark.parametrize("shfl", ["__shfl_down_sync", "__shfl_xor_sync"])
def test_unrolled_leader_fold_is_quiet(shfl):
    assert _codes(IF_GUARD.format(ladder=UNROLLED.format(shfl=shfl), after=LEADER)) == set()


@pytest.mark.parametrize("ladder", [UNROLLED, LOOP], ids=["unrolled", "loop"])
@pytest.mark.parametrize("ret", ["tid >= 32", "tid > 31", "32 <= tid"])
def test_return_guard_leader_fold_is_quiet(ladder, ret):
    text = RETURN_GUARD.format(before="", ret=ret, ladder=ladder.format(shfl="__shfl_down_sync"), after=LEADER)
    assert _codes(text) == set()


@pytest.mark.parametrize("form, case", [
    ("if", dict(after="out[tid] = sum;")),
    ("return", dict(ret="tid >= 64")),
    ("return", dict(after="out[tid] = sum;")),
    ("return", dict(before="if (tid == 40) return;\n    ")),
    ("return", dict(before="if (blockIdx.x > 0) { ", ret="tid >= 32) return; } if (false")),
], ids=["if-every-lane-stores", "return-at-64", "return-every-lane-stores", "second-return", "nested-return"])
@pytest.mark.parametrize("ladder", [UNROLLED, LOOP], ids=["unrolled", "loop"])
def test_look_alikes_keep_the_findings(form, case, ladder):
    base = dict(ladder=ladder.format(shfl="__shfl_down_sync"), after=LEADER)
    if form == "if":
        text = IF_GUARD.format(**{**base, **case})
    else:
        text = RETURN_GUARD.format(**{**dict(before="", ret="tid >= 32"), **base, **case})
    assert "WS004" in _codes(text)
