"""tests/labelled6's checks that lint the project's files: not collected by the suite (the name does
not start with `test_`), since the files are not committed (tests/labelled6/README.md) and a skip
under CI would hide them.  Run `python scripts/labelled_sources.py tests/labelled6 && python -m
pytest tests/local_labelled6.py`: without the files every test here fails and names the command."""
from __future__ import annotations

from pathlib import Path

from labelled_support import local_set_checks

BASE = Path(__file__).resolve().parent / "labelled6"
# Reached once a block split into 32-lane rows that computes the same at 64 became advice (info, not
# a hazard claim: kernelport/lint/rowsplits.py; bench/lint_recall_rows_after.txt).
RECALL_FLOOR, PRECISION_FLOOR = 1.0, 1.0


(written, measured, test_labels_sit_on_their_lines, test_every_label_is_traced_to_its_commit,
 test_recall_and_precision_do_not_regress) = local_set_checks(BASE, 15, 1, RECALL_FLOOR, PRECISION_FLOOR)


def test_the_misses_are_found_where_designed(measured):
    """The 32-bit mask held in a local is named at its declaration (WS007's related location), and a
    warp-size constant of logical rows is quiet."""
    codes = measured["lint"]["codes"]
    ce = "rwkv/3dcc367f88/cuda/rwkv7_l2wrap_ce_bf16_v2.cu"
    assert codes[f"{ce}:43"] == ["WS007 (related)"]  # `unsigned mask = 0xffffffffu;`
    ln = "rwkv/3dcc367f88/cuda/rwkv7_tmix_lnx_rkvres_xg_bf16_v1.cu"
    assert f"{ln}:12" not in codes and f"{ln}:17" not in codes  # `kWarpSize = 32`, its rows' width
    assert "WS018" in codes[f"{ln}:76"]  # the broadcast from lane 0 across two rows of a wave


def test_the_split_block_reductions_are_advice(measured):
    """The cross-entropy kernels' rows (`tid & 31`, `tid >> 5`, ladders from 16 read at each row's lane
    0) are the 12 look-alikes lint reports as info; their masks stay hazards (WS007, found above)."""
    assert measured["lint"]["advised"] == {"hazard": 0, "lookalike": 12, "consistent": 0}
    assert measured["lint"]["false_positives"] == 0
