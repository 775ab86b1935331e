"""Lint behaviours designed on tests/labelled12 (pytorch_sparse and mmcv before their ROCm-enablement
commits), each with a case it must handle and a look-alike it must not:

- a function-like macro that expands to one parenthesized group, used where C requires a
  parenthesized condition (mmcv's `if WITHIN_BOUNDS(i1, i2, iH, iW) {`): the grammar could not
  parse it (KP001, and findings near it lost or misread); the repair blanks the macro's name so the
  grammar reads `if (args)`, offsets unchanged.  A macro whose expansion is not one group
  (`(a) && (b)`) is no condition there for a compiler either: still a syntax error at its place.

The set's own check that needs none of its projects' files is here too; tests/local_labelled12.py
lints them, run by hand after `python scripts/labelled_sources.py tests/labelled12`.  Lint's figure
before any change made for the set is bench/lint_recall_labelled12_before.txt."""
from __future__ import annotations

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


def test_every_label_names_a_source_and_quotes_no_code():
    assert_sourced_without_code(Path(__file__).resolve().parent / "labelled12")
