"""WS012 and the divergence pass on a 64-lane wave (kernelport/lint/tags.py, rowtags.py; issue 11, heldout86's six WS012
on `warp_id = threadIdx.y`).  `threadIdx.y` is one value per 32-lane warp only where blockDim.x is a multiple of 32
and per 64-lane wave only where it is a multiple of 64: rows of 64 launched in view are quiet, rows of 32 or rows no
launch decides are reported as a wave's hazard (not as undefined on NVIDIA), rows of 16 as undefined everywhere, a
1-D launch makes `threadIdx.y` uniform.  `threadIdx.x / 32` is a 32-lane warp's index: a full-mask operation under
`warp == 0` is reported once, at the 32 (WS003), as the `/ warpSize` look-alike is not at all."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text

HELPER = """\
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
"""
ROWS = HELPER + """\
__global__ void rows(const float* x, float* out) {
    int warp_id = threadIdx.y;
    float v = x[threadIdx.y * blockDim.x + threadIdx.x];
    if (warp_id == 0) v = warp_sum(v);
    out[threadIdx.y * blockDim.x + threadIdx.x] = v;
}
"""
CALL_LINE = 8


def _ws012(text: str) -> list[str]:
    return [f.message for f in lint_text(text, "k.cu") if f.code == "WS012" and f.line == CALL_LINE]


def test_rows_no_launch_decides_are_the_waves_hazard():
    (msg,) = _ws012(ROWS)
    assert "threadIdx.y" in msg and "multiple of 64" in msg and "undefined on NVIDIA" not in msg


@pytest.mark.parametrize("block, found", [
    ("dim3(64, 4)", None), ("dim3(128, 2)", None), ("128", None),
    ("dim3(32, 4)", "multiple of 64"), ("dim3(16, 8)", "undefined on NVIDIA"),
], ids=["rows-64", "rows-128", "one-d", "rows-32", "rows-16"])
def test_rows_by_the_launch(block, found):
    got = _ws012(ROWS + f"void run(const float* x, float* o) {{ rows<<<8, {block}>>>(x, o); }}\n")
    assert (got == []) if found is None else (len(got) == 1 and found in got[0])


def test_a_launch_of_another_width_keeps_it():
    got = _ws012(ROWS + "void run(const float* x, float* o) { rows<<<8, dim3(64, 4)>>>(x, o); "
                        "rows<<<8, dim3(32, 8)>>>(x, o); }\n")
    assert len(got) == 1 and "multiple of 64" in got[0]


@pytest.mark.parametrize("warp, codes", [
    ("threadIdx.x / 32", {"WS003"}), ("threadIdx.x >> 5", {"WS003"}), ("threadIdx.x / warpSize", set()),
], ids=["div-32", "shift-5", "div-warpSize"])
def test_a_32_lane_warp_index_is_reported_at_its_32(warp, codes):
    text = HELPER + f"""\
__global__ void k(const float* x, float* out) {{
    int warp = {warp};
    float v = x[threadIdx.x];
    if (warp == 0) v = warp_sum(v);
    out[threadIdx.x] = v;
}}
"""
    assert {f.code for f in lint_text(text, "k.cu") if f.code in ("WS003", "WS012")} == codes


def test_inner_row_loop_under_an_exiting_loop_is_reported():
    """heldout86 streamlz: `while (left > 0)` with `left` read at a `threadIdx.y`-derived index, inside a `for` whose
    body returns under a row-dependent test (a loop-exit frame outside): reported as the wave's hazard."""
    text = HELPER + """\
__global__ void groups(const int* sizes, const float* x, float* out, int n, int per) {
    const int g = blockIdx.x * 4 + threadIdx.y;
    for (int c = 0; c < per; c++) {
        int idx = g * per + c;
        if (idx >= n) return;
        int left = sizes[idx];
        while (left > 0) {
            float v = warp_sum(x[idx * 32 + threadIdx.x]);
            if (threadIdx.x == 0) out[idx] += v;
            left -= 32;
        }
    }
}
"""
    msgs = [f.message for f in lint_text(text, "k.cu") if f.code == "WS012"]
    assert len(msgs) == 1 and "threadIdx.y" in msgs[0]


@pytest.mark.parametrize("host, found", [
    ("dim3 b(64, 4); dim3& r = b; r.x = 32; rows<<<8, b>>>(x, o);", True),
    ("dim3 b(64, 4); auto&& r = b; r.x = 32; rows<<<8, b>>>(x, o);", True),
    ("dim3 b(64, 4); const dim3& r = b; (void)r.x; rows<<<8, b>>>(x, o);", False),
    ("dim3 b(64, 4); dim3 c(64, 1); dim3& r = c; r.x = 32; rows<<<8, b>>>(x, o);", False),
], ids=["reference-store", "forwarding-reference-store", "const-reference", "reference-to-another"])
def test_a_store_through_a_reference_to_the_block_keeps_it(host, found):
    """review64d: `dim3& r = b; r.x = 32;` makes rows of 32 at the launch `<<<8, b>>>` that blockdims reads as 64
    (kernelport/lint/launchblocks.py): reported; a const reference, or a reference to another dim3, is no store."""
    got = _ws012(ROWS + f"void run(const float* x, float* o) {{ {host} }}\n")
    assert (len(got) == 1 and "multiple of 64" in got[0]) if found else got == []
