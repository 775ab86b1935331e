"""A shuffle distance given as a template argument, and shuffles through an included header's
wrapper (tests/labelled's faiss miss, MergeNetworkWarp.cuh:167: `warpBitonicMergeLE16<K, V, 16, Dir,
Comp, true>(k[0], v[0])`, whose ladder `for (int stride = L; ...) shfl_xor(k, stride)` calls
faiss's own `shfl_xor` from WarpShuffles.cuh), each with a case it must flag and a look-alike it must
not:

- a function template's value parameters are bound by the call's template arguments as its
  parameters are by the call's arguments (kernelport.templateargs);
- a header function that forwards its parameters to a shuffle is read as that shuffle
  (kernelport.shufflewrappers), its width left to the caller unless it fixes one itself."""
from __future__ import annotations

from pathlib import Path

from kernelport.lint.engine import lint_paths, lint_text

TEMPLATE = """\
template <int L> __device__ float merge(float v) {
    for (int stride = L; stride > 0; stride /= 2) v += __shfl_xor(v, stride);
    return v;
}
__device__ float f(float v) { return merge<16>(v); }
"""


def _lines(text: str, code: str) -> list[int]:
    return [f.line for f in lint_text(text, "t.cu") if f.code == code]


def test_a_template_argument_that_starts_a_ladder_is_flagged_where_it_is_given():
    assert _lines(TEMPLATE, "WS017") == [5]


def test_template_arguments_that_reach_no_shuffle_are_quiet():
    count = """\
template <typename T, int N> __device__ T total(const T* x) {
    T s = 0;
    for (int i = 0; i < N; ++i) s += x[i];
    return s + __shfl_xor(s, 1);
}
__device__ float f(const float* x) { return total<float, 16>(x); }
"""
    assert [f for f in lint_text(count, "t.cu") if f.code.startswith("WS") and f.line == 6] == []
    assert _lines(TEMPLATE.replace("merge<16>", "merge<warpSize / 2>"), "WS017") == []


WRAPPER = """\
template <typename T>
inline __device__ T shfl_xor(const T val, int laneMask, int width = warpSize) {
    return __shfl_xor_sync(0xffffffff, val, laneMask, width);
}
"""
CALLER = """\
#include "shuffles.cuh"
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += shfl_xor(v, o);
    return v;
}
"""


def _project(tmp_path: Path, header: str, caller: str) -> list[tuple[str, int]]:
    (tmp_path / "shuffles.cuh").write_text(header)
    (tmp_path / "sum.cu").write_text(caller)
    return [(f.code, f.line) for r in lint_paths([tmp_path / "sum.cu"], jobs=1) for f in r.findings
            if Path(r.path).name == "sum.cu" and f.code in ("WS004", "WS017")]


def test_a_ladder_through_a_headers_shuffle_wrapper_is_flagged(tmp_path: Path):
    assert _project(tmp_path, WRAPPER, CALLER) == [("WS004", 3)]


def test_a_wrapper_given_or_fixing_a_logical_width_is_quiet(tmp_path: Path):
    assert _project(tmp_path, WRAPPER, CALLER.replace("shfl_xor(v, o)", "shfl_xor(v, o, 32)")) == []
    fixed = WRAPPER.replace("laneMask, width);", "laneMask, 32);")
    assert _project(tmp_path, fixed, CALLER) == []
