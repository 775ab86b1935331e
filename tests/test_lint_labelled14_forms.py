"""Lint behaviours designed on tests/labelled14 (TransformerEngine and ds4 before their HIP
commits), each with a case it must handle and look-alikes it must not:

- a lane mask held in a local declared 32-bit whatever its value (ds4's 8- and 16-lane group
  reductions: `const uint32_t mask = 0xffu << (threadIdx.x & 24u);` then
  `__shfl_down_sync(mask, dot, off, 8)`): WS007 reported a 32-bit full mask, and a 32-bit parameter
  passed on as the mask whatever its value, but not a 32-bit local holding a group's mask, which
  HIP's 64-bit-mask `_sync` intrinsics reject as they reject the parameter (and 32 bits cannot name
  lanes 32-63).  It is now reported at each use, with the declaration as the related location
  (kernelport/lint/rules/ws_fullmask.py).  Silent: the same mask in a 64-bit local, a 32-bit local
  given to a mask-less shuffle, a mask from `__activemask()` in a 64-bit local (a 32-bit one is reported at
  its uses since tests/test_lint_labelled15_forms.py), and the same code under a
  branch only the CUDA build takes.

The set's own check that needs none of its projects' files is here too; tests/local_labelled14.py
lints them, run by hand after `python scripts/labelled_sources.py tests/labelled14`.  Lint's figure
before any change made for the set is bench/lint_recall_labelled14_before.txt."""
from __future__ import annotations

from pathlib import Path

from kernelport.lint import lint_text
from labelled_support import assert_sourced_without_code

GROUP_MASK_32 = """\
__device__ static float quarter_warp_sum(float v) {
    uint32_t mask = 0xffu << (threadIdx.x & 24u);
    for (int offset = 4; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(mask, v, offset, 8);
    }
    return v;
}
"""

GROUP_MASK_QUIET = """\
__device__ static float wide(float v) {
    unsigned long long mask = 0xffull << (threadIdx.x & 56u);
    for (int offset = 4; offset > 0; offset >>= 1) v += __shfl_down_sync(mask, v, offset, 8);
    return v;
}
__device__ static float maskless(float v) {
    uint32_t mask = 0xffu << (threadIdx.x & 24u);
    for (int offset = 4; offset > 0; offset >>= 1) v += __shfl_down(v, offset, 8);
    return v + (float)mask;
}
__device__ static int leader(int v) {
    unsigned long long m = __activemask();
    return __shfl_sync(m, v, __ffs(m) - 1);
}
#ifndef __HIP_PLATFORM_AMD__
__device__ static float cuda_only(float v) {
    uint32_t mask = 0xffu << (threadIdx.x & 24u);
    for (int offset = 4; offset > 0; offset >>= 1) v += __shfl_down_sync(mask, v, offset, 8);
    return v;
}
#endif
"""


def _ws007(text: str) -> list:
    return [f for f in lint_text(text, "t.cu") if f.code == "WS007"]


def test_a_group_mask_in_a_32_bit_local_is_reported_at_its_use():
    found = _ws007(GROUP_MASK_32)
    assert [(f.line, f.column) for f in found] == [(4, GROUP_MASK_32.split("\n")[3].index("mask, v") + 1)], found
    assert "32-bit local" in found[0].message


def test_a_64_bit_local_a_maskless_shuffle_a_vote_and_a_cuda_only_branch_stay_quiet():
    assert _ws007(GROUP_MASK_QUIET) == [], _ws007(GROUP_MASK_QUIET)


def test_the_set_commits_no_project_code():
    assert_sourced_without_code(Path(__file__).resolve().parent / "labelled14")
