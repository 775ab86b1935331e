"""The tenth labelled set (tests/labelled10: qiskit-aer, deepmd-kit, xla and TCLB, 4
commits): its labels are traced to their commits and quote no code.  Lint's figure before any change
made for this set is bench/lint_recall_labelled10_before.txt.

The projects' files are not committed (README.md): this test needs none of them and runs
everywhere.  The tests that lint them are in tests/local_labelled10.py, run by hand:
`python scripts/labelled_sources.py tests/labelled10 && python -m pytest tests/local_labelled10.py`."""
from __future__ import annotations

from pathlib import Path

from labelled_support import assert_sourced_without_code

BASE = Path(__file__).resolve().parent / "labelled10"


def test_every_label_names_a_source_and_quotes_no_code():
    assert_sourced_without_code(BASE)
