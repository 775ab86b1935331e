"""The fourth labelled set (tests/labelled4: gsplat, tilelang, hipCollections): its labels sit on
their lines and are traced to full commit hashes that its README names.  Lint's figure on it
before any change to the lint is bench/lint_recall_labelled4_before.txt."""
from __future__ import annotations

from pathlib import Path

from labelled_support import assert_traced, assert_well_formed

BASE = Path(__file__).resolve().parent / "labelled4"


def test_labels_sit_on_their_lines():
    assert_well_formed(BASE, min_hazards=24, min_projects=3)


def test_every_label_is_traced_to_its_commit():
    assert_traced(BASE)
