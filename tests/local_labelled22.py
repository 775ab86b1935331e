"""tests/labelled22's checks that lint the project's files: not collected by the suite (the name does
not start with `test_`), since the files are not committed (tests/labelled22/README.md) and a skip
under CI would hide them.  Run `python scripts/labelled_sources.py tests/labelled22 && python -m
pytest tests/local_labelled22.py`: without the files every test here fails and names the command."""
from __future__ import annotations

from pathlib import Path

from labelled_support import local_set_checks

BASE = Path(__file__).resolve().parent / "labelled22"
# Hazards come from two projects (mamba, exllamav2): README.md.
# First measure (bench/lint_recall_labelled22_before.txt, main f3da077's lint): 1.000 (12/12) at 0.857 (two
# look-alikes, WS001's related uses of WARP_SIZE in `column = warp_id * WARP_SIZE + lane_id + ...`); after
# kernelport/lint/recombined.py 1.000 at 1.000, project runs and one file per run alike: the floors.
RECALL_FLOOR, PRECISION_FLOOR = 12 / 12, 1.0


(written, measured, test_labels_sit_on_their_lines, test_every_label_is_traced_to_its_commit,
 test_recall_and_precision_do_not_regress) = local_set_checks(BASE, 12, 2, RECALL_FLOOR, PRECISION_FLOOR)
