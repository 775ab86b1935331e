"""`threadIdx.y` in a device helper takes its callers' geometry (kernelport/lint/rowtags.py _helper): a helper called
only from kernels whose every launch is in view is tagged as those kernels are.  Called from a kernel launched
`dim3(32, 4)` (rows of 32: two rows share a 64-lane wave) a full-mask warp operation under `threadIdx.y == 0` is
WS012 as in the kernel itself; called only from kernels of rows of 64 it is whole waves (quiet, as the same code in
the kernel was).  Where a caller is unknown the helper stays ROW (WS012): its address taken, a caller whose launch
is not in view, a caller launched both ways."""
from __future__ import annotations

import pytest

from kernelport.lint import lint_text

HELPER = """\
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
__device__ float row_head(const float* x) {
    float v = x[threadIdx.y * blockDim.x + threadIdx.x];
    if (threadIdx.y == 0) v = warp_sum(v);
    return v;
}
__global__ void rows(const float* x, float* out) {
    out[threadIdx.y * blockDim.x + threadIdx.x] = row_head(x);
}
"""


def _ws012(text: str) -> list[int]:
    return sorted(f.line for f in lint_text(text, "k.cu") if f.code == "WS012")


def test_a_helper_of_kernels_launched_in_rows_of_32_is_reported():
    assert _ws012(HELPER + "void run(const float* x, float* out) { rows<<<8, dim3(32, 4)>>>(x, out); }\n") == [7]


def test_a_helper_of_kernels_launched_in_rows_of_64_is_quiet():
    assert _ws012(HELPER + "void run(const float* x, float* out) { rows<<<8, dim3(64, 4)>>>(x, out); }\n") == []
    two = HELPER + HELPER.split("__global__")[1].replace("rows(", "rows2(").join(["__global__", ""]) + \
        "void run(const float* x, float* out) { rows<<<8, dim3(64, 4)>>>(x, out); rows2<<<8, dim3(128, 2)>>>(x, out); }\n"
    assert _ws012(two) == []  # two callers, each of whole waves (followed through the kernels)


@pytest.mark.parametrize("tail", [
    "",  # no launch in view
    "void run(const float* x, float* out) { rows<<<8, dim3(64, 4)>>>(x, out); rows<<<8, dim3(32, 4)>>>(x, out); }\n",
    "void run(const float* x, float* out) { rows<<<8, dim3(64, 4)>>>(x, out); }\n"
    "__device__ float (*pick)(const float*) = row_head;\n",  # its address taken: other callers
])
def test_a_helper_with_an_unknown_or_narrow_caller_stays_reported(tail):
    assert _ws012(HELPER + tail) == [7]


def test_a_helper_through_a_helper_follows_the_kernel():
    text = HELPER.replace("= row_head(x);", "= mid(x);").replace(
        "__global__", "__device__ float mid(const float* x) { return row_head(x); }\n__global__")
    assert _ws012(text + "void run(const float* x, float* out) { rows<<<8, dim3(64, 4)>>>(x, out); }\n") == []
    assert _ws012(text + "void run(const float* x, float* out) { rows<<<8, dim3(32, 4)>>>(x, out); }\n") == [7]


@pytest.mark.parametrize("macro, want", [
    ("#define HEAD(x) row_head(x)\n", [8]),  # the rows-of-32 kernel calls the helper through a header's macro
    ("#define HEAD(x) (x)[0]\n", []),        # a header macro that does not name it: the rows-of-64 caller alone
])
def test_a_helper_a_header_macro_calls_keeps_ws012(tmp_path, macro, want):
    from kernelport.lint import lint_paths
    (tmp_path / "m.h").write_text(macro)
    two = HELPER + "__global__ void rows32(const float* x, float* out) {\n    out[threadIdx.x] = HEAD(x);\n}\n" + \
        "void run(const float* x, float* out) { rows<<<8, dim3(64, 4)>>>(x, out); rows32<<<8, dim3(32, 4)>>>(x, out); }\n"
    (tmp_path / "k.cu").write_text('#include "m.h"\n' + two)
    got = sorted(f.line for r in lint_paths([tmp_path / "k.cu"], jobs=1) for f in r.findings if f.code == "WS012")
    assert got == want
