"""Lint behaviours designed on tests/labelled12 (pytorch_sparse and mmcv before their ROCm-enablement
commits), each with a case it must handle and a look-alike it must not:

- a function-like macro that expands to one parenthesized group, used where C requires a
  parenthesized condition (mmcv's `if WITHIN_BOUNDS(i1, i2, iH, iW) {`): the grammar could not
  parse it (KP001, and findings near it lost or misread); the repair blanks the macro's name so the
  grammar reads `if (args)`, offsets unchanged.  A macro whose expansion is not one group
  (`(a) && (b)`) is no condition there for a compiler either: still a syntax error at its place.
- a block whose x dimension is a 32-lane row (mmcv's correlation: `dim3(WARP_SIZE, 4, 4)`, the
  kernel stepping `c += WARP_SIZE` from `threadIdx.x`, rows by `threadIdx.y`/`.z`, a `down`
  ladder from 16 read under `thread == 0`): two rows to a 64-lane wave compute the same, so its
  32s are advice (info), as for blocks split by `tid >> 5` (kernelport/lint/rowsplits.py); the
  32-bit mask stays a warning.  A one-dimensional block with the same loop (no other dimension
  indexes rows), one that reads `blockDim.x`, and one that broadcasts from a source lane stay
  hazards.

The set's own check that needs none of its projects' files is here too; tests/local_labelled12.py
lints them, run by hand after `python scripts/labelled_sources.py tests/labelled12`.  Lint's figure
before any change made for the set is bench/lint_recall_labelled12_before.txt."""
from __future__ import annotations

import textwrap
from pathlib import Path

from kernelport.lint import lint_text
from kernelport.source import SourceFile
from labelled_support import assert_sourced_without_code

CONDITION = """\
#define IN_RANGE(x, n) ((x) >= 0 && (x) < (n))
__global__ void k(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  if
    IN_RANGE(i, n) {
      s = a[i];
    }
  while IN_RANGE(i, 4) { i += 8; }
  out[i] = s;
}
"""

NOT_A_GROUP = """\
#define BOTH(a, b) (a) && (b)
__global__ void k(float* out, int i, int n) {
  if BOTH(i, n) {
    out[i] = 0.f;
  }
}
"""


def test_a_macro_standing_for_a_parenthesized_condition_parses():
    s = SourceFile.from_text(CONDITION, "m.cu")
    assert s.syntax_errors() == [], s.syntax_errors()
    assert {(m.name, m.reason) for m in s.masks} == {("IN_RANGE", "condition")}, s.masks
    assert not [f for f in lint_text(CONDITION, "m.cu") if f.code == "KP001"]


def test_a_macro_that_is_no_parenthesized_group_is_still_a_syntax_error():
    s = SourceFile.from_text(NOT_A_GROUP, "m.cu")
    errs = s.syntax_errors()
    assert errs and errs[0][0].line == 3, errs


# A correlation-style kernel (written for this test): 32-lane rows along x, rows along y and z.
X_ROWS = """\
#define ROW 32
#define FULL 0xffffffff
__global__ void corr(const float* a, const float* b, float* out, int C, int W) {
  const int h = blockIdx.y * blockDim.y + threadIdx.y;
  const int w = blockIdx.z * blockDim.z + threadIdx.z;
  const int t = threadIdx.x;
  float s = 0.f;
  for (int c = t; c < C; c += ROW) s += a[(h * W + w) * C + c] * b[c];
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(FULL, s, o);
  if (t == 0) out[h * W + w] = s;
}
"""


def _claims(code: str) -> dict[tuple[str, int], str]:
    return {(f.code, f.line): str(f.severity).lower() for f in lint_text(textwrap.dedent(code), "k.cu")
            if f.code.startswith("WS")}


def test_an_x_row_block_is_advice_and_its_mask_stays_a_warning():
    got = _claims(X_ROWS)
    assert got.get(("WS004", 9)) == "info", got
    assert got.get(("WS007", 9)) == "warning", got
    assert not [k for k, sev in got.items() if sev != "info" and k[0] != "WS007"], got


def test_a_one_dimensional_block_with_the_same_loop_stays_a_hazard():
    one_d = X_ROWS.replace("threadIdx.y", "0").replace("threadIdx.z", "0")
    assert _claims(one_d).get(("WS004", 9)) in ("warning", "error"), _claims(one_d)


def test_an_x_row_kernel_that_reads_blockdim_x_stays_a_hazard():
    wide = X_ROWS.replace("if (t == 0)", "if (t == 0 && blockDim.x > 1)")
    assert _claims(wide).get(("WS004", 9)) in ("warning", "error"), _claims(wide)


def test_an_x_row_kernel_broadcasting_from_a_source_lane_stays_a_hazard():
    bcast = X_ROWS.replace("  if (t == 0) out[h * W + w] = s;",
                           "  s = __shfl_sync(FULL, s, 0);\n  out[h * W + w + t] = s;")
    got = _claims(bcast)
    assert got.get(("WS004", 9)) in ("warning", "error"), got


def test_every_label_names_a_source_and_quotes_no_code():
    assert_sourced_without_code(Path(__file__).resolve().parent / "labelled12")
