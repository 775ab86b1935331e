"""Lint behaviours designed on tests/labelled13 (Eigen, causal-conv1d and AMReX before their HIP
commits), each with a case it must handle and look-alikes it must not:

- a 32-bit full mask in a function-like macro's replacement list (Eigen's contraction kernel:
  `#define shuffleInc(i, j, mask) res(i, j) += __shfl_xor_sync(0xFFFFFFFF, res(i, j), mask)`,
  expanded through two more macros): the dataflow reads code, not a replacement list, and a use is
  a call to the macro, so WS007 missed the line the port changes.  The list is now parsed on its
  own (kernelport/lint/macromasks.py).  Silent: the same macro under a CUDA-only branch, a mask-less
  shuffle, a mask the macro takes as a parameter, a 64-bit mask, the project's HIP build dropping
  the mask, and a 32-bit all-ones constant no `_sync` intrinsic receives.
- a lane bit walked through the lanes by `<<=` (AMReX's decoupled look-back: `unsigned int
  bit_mask = 0x1u;` then `bit_mask <<= 1` on each lane of a loop, tested against the wave's 64-bit
  ballot): past lane 31 the 32-bit bit shifts out, lanes 32-63 are never tested.  It is now a lane
  bit as `1u << lane` is (kernelport/masksources.py: compound_assign): WS008 at the 32-bit type,
  WS010 at the `1`.  Silent: a 64-bit bit, a 32-bit bit walked over a data word (a bitset), and a
  `<<=` outside any loop.
- a header lint did not read at all (AMReX_Scan.H): its parse fails early and the parse repair's
  cheapest reading was its include guard as not taken, so the whole header, kernels and includes,
  was blank and lint said "All checks passed".  KP008 now reports device code a conditional's
  reading hid with no other branch kept (kernelport/lint/rules/tool.py).  Silent: the same header
  when it parses, a branch hidden while its `#else` is kept, `#if 0`.  (Stop 54: an include guard
  is now read as taken, tests/test_guarded_split_heads.py; the rule's example, and so this fixture,
  hides under `#ifdef USE_GPU`, as AMReX_Scan.H does linted without its build's -D.)

The set's own check that needs none of its projects' files is here too; tests/local_labelled13.py
lints them, run by hand after `python scripts/labelled_sources.py tests/labelled13`.  Lint's figure
before any change made for the set is bench/lint_recall_labelled13_before.txt."""
from __future__ import annotations

import re
from pathlib import Path

from kernelport.lint import lint_text
from kernelport.lint.rules.tool import CodeHiddenToParse
from labelled_support import assert_sourced_without_code

MACRO_MASK = """\
#define shuffleInc(i, j, mask) res[i][j] += __shfl_xor_sync(0xFFFFFFFF, res[i][j], mask)
#define reduceRow(i, mask) shuffleInc(i, 0, mask); shuffleInc(i, 1, mask);
__global__ void k(float* out) {
  float res[2][2] = {{out[0], out[1]}, {out[2], out[3]}};
  reduceRow(0, 1);
  reduceRow(1, 2);
  out[threadIdx.x] = res[0][0] + res[1][1];
}
"""

MACRO_QUIET = """\
#if defined(EIGEN_CUDACC_VER) && !defined(__HIP_PLATFORM_AMD__)
#define shuffleA(v, m) v += __shfl_xor_sync(0xFFFFFFFF, v, m)
#endif
#define shuffleB(v, m) v += __shfl_xor(v, m)
#define shuffleC(full, v, m) v += __shfl_xor_sync(full, v, m)
#define shuffleD(v, m) v += __shfl_xor_sync(0xFFFFFFFFFFFFFFFFull, v, m)
#define LOW_WORD(x) ((x) & 0xffffffff)
__global__ void k(float* out, unsigned long long* w) {
  float v = out[threadIdx.x];
  shuffleB(v, 1);
  shuffleC(__activemask(), v, 2);
  shuffleD(v, 4);
  w[threadIdx.x] = LOW_WORD(w[threadIdx.x]);
  out[threadIdx.x] = v;
}
"""

DROPPED_ON_AMD = """\
#if defined(USE_ROCM)
#define __shfl_xor_sync(mask, var, lane) __shfl_xor(var, lane)
#endif
#define STEP(v, m) v += __shfl_xor_sync(0xffffffff, v, m)
__global__ void k(float* out) {
  float v = out[threadIdx.x];
  STEP(v, 1);
  out[threadIdx.x] = v;
}
"""

WALKED_BIT = """\
__global__ void lookback(const char* status, int* out) {
  int lane = threadIdx.x % warpSize;
  unsigned long long status_bf = __ballot(status[threadIdx.x] == 'p');
  int x = out[threadIdx.x];
  unsigned int bit_mask = 0x1u;
  for (int i = 1; i < warpSize; ++i) {
    bit_mask <<= 1;
    if (i == lane) x = 0;
    if (status_bf & bit_mask) break;
  }
  out[threadIdx.x] = x;
}
"""

WALKED_QUIET = """\
__global__ void lookback(const char* status, const unsigned* words, int* out) {
  int lane = threadIdx.x % warpSize;
  unsigned long long status_bf = __ballot(status[threadIdx.x] == 'p');
  int x = out[threadIdx.x];
  unsigned long long bit_mask = 0x1ull;
  for (int i = 1; i < warpSize; ++i) {
    bit_mask <<= 1;
    if (i == lane) x = 0;
    if (status_bf & bit_mask) break;
  }
  unsigned word = words[blockIdx.x], bit = 1u;
  for (int j = 0; j < 32; ++j) {
    if (word & bit) x += j;
    bit <<= 1;
  }
  unsigned once = 1u;
  once <<= 3;
  out[threadIdx.x] = x + (int)(status_bf & once);
}
"""


# The KP008 rule's documented example (AMReX_Scan.H's shape), read from the rule, not copied.
HIDDEN_HEADER = CodeHiddenToParse.flags[0].clean + "\n"

READ_HEADER = re.sub(r"#if(?:def| defined\()\s*\(?USE_SYCL\)?\n.*?\n#else\n(.*?\n)#endif\n", r"\1",
                     HIDDEN_HEADER.replace("    DEV_FN DEV_INLINE\n", ""), flags=re.S)  # one signature each
OTHER_BRANCHES = """\
#if defined(__HIP_PLATFORM_AMD__)
__global__ void k(float* x) { x[threadIdx.x] = __shfl_xor(x[threadIdx.x], 1); }
#else
__global__ void k(float* x) { x[threadIdx.x] = __shfl_xor_sync(0xffffffff, x[threadIdx.x], 1); }
#endif
#if 0
__global__ void old(float* x) { x[threadIdx.x] = __shfl_xor_sync(0xffffffff, x[threadIdx.x], 1) +; }
#endif
"""


def _codes(text: str) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for f in lint_text(text, "t.cu"):
        if f.code.startswith("WS"):
            out.setdefault(f.line, set()).add(f.code)
    return out


def test_a_32_bit_full_mask_in_a_macro_s_replacement_list_is_reported_in_the_define():
    found = [f for f in lint_text(MACRO_MASK, "t.cu") if f.code == "WS007"]
    assert [(f.line, f.column) for f in found] == [(1, MACRO_MASK.index("0xFFFFFFFF") + 1)], found
    assert "shuffleInc" in found[0].message


def test_macros_without_a_32_bit_mask_the_amd_build_compiles_stay_quiet():
    assert "WS007" not in {c for cs in _codes(MACRO_QUIET).values() for c in cs}, _codes(MACRO_QUIET)
    assert "WS007" not in {c for cs in _codes(DROPPED_ON_AMD).values() for c in cs}, _codes(DROPPED_ON_AMD)


def test_a_lane_bit_walked_through_the_lanes_in_32_bits_is_reported_at_its_declaration():
    assert _codes(WALKED_BIT) == {5: {"WS008", "WS010"}}, _codes(WALKED_BIT)


def test_a_64_bit_walked_bit_a_bitset_walk_and_a_shift_outside_a_loop_stay_quiet():
    assert _codes(WALKED_QUIET) == {}, _codes(WALKED_QUIET)


def test_the_set_commits_no_project_code():
    assert_sourced_without_code(Path(__file__).resolve().parent / "labelled13")


def test_device_code_a_conditional_reading_hides_is_reported_not_passed_as_checked():
    found = [f for f in lint_text(HIDDEN_HEADER, "t.h") if f.code == "KP008"]
    assert [(f.line, f.severity) for f in found] == [(2, "warning")], found
    assert "__shfl_xor_sync" in found[0].message and "not linted" in found[0].message


def test_a_header_that_parses_a_kept_else_and_if_0_are_no_kp008():
    for text in (READ_HEADER, OTHER_BRANCHES):
        assert not [f for f in lint_text(text, "t.h") if f.code == "KP008"], text
    assert [f.code for f in lint_text(READ_HEADER, "t.h")] == ["WS007"]  # read, so linted
