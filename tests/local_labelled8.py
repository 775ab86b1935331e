"""tests/labelled8's checks that lint the projects' files: not collected by the suite (the name does
not start with `test_`), since the files are not committed (tests/labelled8/README.md) and a skip
under CI would hide them.  Run `python scripts/labelled_sources.py tests/labelled8 && python -m
pytest tests/local_labelled8.py`: without the files every test here fails and names the command."""
from __future__ import annotations

from pathlib import Path

from labelled_support import local_set_checks

BASE = Path(__file__).resolve().parent / "labelled8"
# Before any change for this set: 0.294 (10/34) at 1.000 (bench/lint_recall_labelled8_before.txt); reached
# with the behaviours of tests/test_lint_labelled8_forms.py (bench/lint_recall_labelled8_after.txt).
# Since h/lintmiss stop 31 (tests/test_lint_pooled_misses.py, bench/lint_recall_lintmiss31_after.txt):
RECALL_FLOOR, PRECISION_FLOOR = 27 / 34, 1.0


(written, measured, test_labels_sit_on_their_lines, test_every_label_is_traced_to_its_commit,
 test_recall_and_precision_do_not_regress) = local_set_checks(BASE, 34, 5, RECALL_FLOOR, PRECISION_FLOOR)


def test_the_misses_are_found_where_designed(measured):
    """Each hazard line designed on is named by its finding: WS024 on HOOMD's block-size sweeps (the .cc
    ones linted since C++ sources are lint inputs), WS025 on Cycles' 32-bit lane mask macro."""
    codes = measured["lint"]["codes"]
    md = "hoomd/64227bb66f/hoomd/md"
    for f, line in (("PotentialPairGPU.h", 108), ("AnisoPotentialPairGPU.h", 98), ("PotentialPairDPDThermoGPU.h", 100),
                    ("PotentialTersoffGPU.h", 89), ("NeighborListGPUBinned.cc", 51), ("NeighborListGPUStencil.cc", 61)):
        assert codes[f"{md}/{f}:{line}"] == ["WS024"]
    assert codes["hoomd/89d992827e/hoomd/hpmc/ComputeFreeVolumeGPU.h:97"] == ["WS024"]
    assert codes["cycles/fd6e05e273/src/kernel/device/hip/compat.h:65"] == ["WS025"]
    assert measured["lint"]["consistent_flagged"] == 0
