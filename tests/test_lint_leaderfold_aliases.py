"""A leader fold's partial results read through another name (kernelport/lint/leaderfolds.py, review64d).  The fold
is quiet (no WS004, no WS012) only where lane 0 alone reads what the ladder wrote: at wave 64 the other lanes'
partials differ from CUDA's (lanes 16-31 read lanes 32-47, outside the 32-lane warp on NVIDIA, a returned or
branched-off lane at 64).  A reference bound to the folded local (`float& r = sum;`), its address (`&sum`) or a
lambda naming it, all taken before the ladder and read by every lane after it, read those partials under a name the
ladder did not write: flagged.  A reference or pointer to another local, read by every lane, and the leader's own
`&sum` after the ladder (under `tid == 0`) stay quiet."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text

FOLD = """\
__global__ void red(const float* x, float* out) {{
    const int tid = threadIdx.x;
    float sum = x[blockIdx.x * blockDim.x + tid];
    float other = 2.0f * sum;
    {alias}
    if (tid < 32) {{
        {ladder}
    }}
    if (tid == 0) out[blockIdx.x] = sum;
    {read}
}}
"""
LOOP = "for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffff, sum, o);"
UNROLLED = " ".join(f"sum += __shfl_xor_sync(0xffffffff, sum, {o});" for o in (16, 8, 4, 2, 1))


def _codes(alias: str, read: str, ladder: str) -> set[str]:
    text = FOLD.format(alias=alias, read=read, ladder=ladder)
    return {f.code for f in lint_text(text, "k.cu") if f.code in ("WS004", "WS012")}


@pytest.mark.parametrize("ladder", [LOOP, UNROLLED], ids=["loop", "unrolled"])
@pytest.mark.parametrize("alias, read", [
    ("float& r = sum;", "out[gridDim.x + tid] = r;"),
    ("auto& r = (sum);", "out[gridDim.x + tid] = r;"),
    ("float* p = &sum;", "out[gridDim.x + tid] = *p;"),
    ("auto get = [&] { return sum; };", "out[gridDim.x + tid] = get();"),
], ids=["reference", "auto-reference", "address", "lambda"])
def test_partials_read_through_an_alias_are_flagged(ladder, alias, read):
    assert "WS004" in _codes(alias, read, ladder)


@pytest.mark.parametrize("ladder", [LOOP, UNROLLED], ids=["loop", "unrolled"])
@pytest.mark.parametrize("alias, read", [
    ("", ""),
    ("float& r = other;", "out[gridDim.x + tid] = r;"),
    ("float* p = &other;", "out[gridDim.x + tid] = *p;"),
    ("", "if (tid == 0) memcpy(out + 1, &sum, sizeof sum);"),
], ids=["none", "reference-to-another", "address-of-another", "leaders-own-address"])
def test_an_alias_of_another_local_leaves_the_fold_quiet(ladder, alias, read):
    assert _codes(alias, read, ladder) == set()
