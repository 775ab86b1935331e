"""tests/labelled10's checks that lint the projects' files: not collected by the suite (the name does
not start with `test_`), since the files are not committed (tests/labelled10/README.md) and a skip
under CI would hide them.  Run `python scripts/labelled_sources.py tests/labelled10 && python -m
pytest tests/local_labelled10.py`: without the files every test here fails and names the command."""
from __future__ import annotations

from pathlib import Path

from labelled_support import local_set_checks

BASE = Path(__file__).resolve().parent / "labelled10"
# Before any change for this set: 0.412 (14/34) at 1.000 (bench/lint_recall_labelled10_before.txt); reached
# with the behaviours of tests/test_lint_labelled10_forms.py (bench/lint_recall_labelled10_after.txt).
RECALL_FLOOR, PRECISION_FLOOR = 34 / 34, 1.0


(written, measured, test_labels_sit_on_their_lines, test_every_label_is_traced_to_its_commit,
 test_recall_and_precision_do_not_regress) = local_set_checks(BASE, 34, 3, RECALL_FLOOR, PRECISION_FLOOR)


def test_the_misses_are_found_where_designed(measured):
    """qiskit-aer's reductions: WS026 at each warpSize that steps a width-32 ladder and at each block
    test beside it, WS027 at each slot count that rounds by the wave and divides by 32; deepmd-kit's
    warp-index broadcasts: WS028."""
    codes = measured["lint"]["codes"]
    q = "qiskit-aer/d656553c57/src/simulators/statevector/chunk/cuda_kernels.hpp"
    for nw, gt, cnt, nw2 in ((71, 76, 83, 89), (125, 130, 138, 144), (170, 175, 182, 188),
                             (219, 226, 233, 239), (268, 275, 282, 288)):
        for line in (nw, gt, nw2):
            assert "WS026" in codes[f"{q}:{line}"], line
        assert "WS027" in codes[f"{q}:{cnt}"], cnt
    assert "WS027" in codes[f"{q}:328"]
    for line in (316, 321, 334):  # dev_reduce_sum_uint shuffles at width warpSize: its ladder is right
        assert not any(c.startswith("WS026") for c in codes.get(f"{q}:{line}", [])), line
    d = "deepmd-kit/0f07afa60d/source/lib/src/cuda/tabulate.cu"
    for line in (201, 409, 557):  # the 32-lane group's index broadcast from lane 0 of the warp
        assert "WS028" in codes[f"{d}:{line}"], line
    assert measured["lint"]["flagged_lookalikes"] == []
