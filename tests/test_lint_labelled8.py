"""The eighth labelled set (tests/labelled8: HOOMD-blue, GROMACS, PIConGPU, Kokkos and Cycles, 8 commits): its
labels are traced to their commits and quote no code.  Lint's figure before any change made for
this set is bench/lint_recall_labelled8_before.txt.

The project's files are not committed (README.md): this test needs none of them and runs
everywhere.  The tests that lint them are in tests/local_labelled8.py, run by hand:
`python scripts/labelled_sources.py tests/labelled8 && python -m pytest tests/local_labelled8.py`."""
from __future__ import annotations

from pathlib import Path

from labelled_support import assert_sourced_without_code

BASE = Path(__file__).resolve().parent / "labelled8"


def test_every_label_names_a_source_and_quotes_no_code():
    assert_sourced_without_code(BASE)
