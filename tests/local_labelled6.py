"""tests/labelled6's checks that lint the project's files: not collected by the suite (the name does
not start with `test_`), since the files are not committed (tests/labelled6/README.md) and a skip
under CI would hide them.  Run `python scripts/labelled_sources.py tests/labelled6 && python -m
pytest tests/local_labelled6.py`: without the files every test here fails and names the command."""
from __future__ import annotations

from pathlib import Path

import pytest

from labelled_support import assert_traced, assert_well_formed, assert_written, measure_set

BASE = Path(__file__).resolve().parent / "labelled6"
# Reached after the changes made for this set (bench/lint_recall_labelled6_after.txt).
RECALL_FLOOR, PRECISION_FLOOR = 1.0, 1.0


@pytest.fixture(scope="module", autouse=True)
def written():
    assert_written(BASE)


@pytest.fixture(scope="module")
def measured():
    return measure_set(BASE)


def test_labels_sit_on_their_lines():
    assert_well_formed(BASE, min_hazards=15, min_projects=1)


def test_every_label_is_traced_to_its_commit():
    assert_traced(BASE)


def test_recall_and_precision_do_not_regress(measured):
    lint = measured["lint"]
    assert not measured["failures"] and not measured["internal_errors"], measured["failures"] + measured["internal_errors"]
    assert lint["recall"] >= RECALL_FLOOR, lint["misses"]
    assert lint["precision"] >= PRECISION_FLOOR and lint["flagged_lookalikes"] == [], lint["flagged_lookalikes"]


def test_the_misses_are_found_where_designed(measured):
    """The 32-bit mask held in a local is named at its declaration (WS007's related location), and the
    block split by `tid & 31` / `tid >> 5` keeps its 32s quiet."""
    codes = measured["lint"]["codes"]
    ce = "rwkv/3dcc367f88/cuda/rwkv7_l2wrap_ce_bf16_v2.cu"
    assert codes[f"{ce}:43"] == ["WS007 (related)"]  # `unsigned mask = 0xffffffffu;`
    assert f"{ce}:44" not in codes and f"{ce}:75" not in codes  # the ladder from 16, `lane = tid & 31`
    ln = "rwkv/3dcc367f88/cuda/rwkv7_tmix_lnx_rkvres_xg_bf16_v1.cu"
    assert f"{ln}:12" not in codes  # `kWarpSize = 32`, the width of its 32-lane rows
    assert "WS018" in codes[f"{ln}:76"]  # the broadcast from lane 0 across two rows of a wave
