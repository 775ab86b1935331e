"""tests/labelled9's checks that lint the projects' files: not collected by the suite (the name does
not start with `test_`), since the files are not committed (tests/labelled9/README.md) and a skip
under CI would hide them.  Run `python scripts/labelled_sources.py tests/labelled9 && python -m
pytest tests/local_labelled9.py`: without the files every test here fails and names the command."""
from __future__ import annotations

from pathlib import Path

from labelled_support import local_set_checks

BASE = Path(__file__).resolve().parent / "labelled9"
# Before any change for this set: 0.788 (41/52) at 0.953 (bench/lint_recall_labelled9_before.txt); reached
# with the behaviours of tests/test_lint_labelled9_forms.py (bench/lint_recall_labelled9_after.txt).
# Since h/lintmiss stop 31 (tests/test_lint_pooled_misses.py, bench/lint_recall_lintmiss31_after.txt):
# Since h/lintdev52 stop 52 (lint reads `#ifdef __CUDA_ARCH__`'s device branch as the HIP port respells it:
# hypre_cuda_reducer.h:145, bench/lint_recall_pooled52.txt's lintdev52 block):
RECALL_FLOOR, PRECISION_FLOOR = 52 / 52, 1.0


(written, measured, test_labels_sit_on_their_lines, test_every_label_is_traced_to_its_commit,
 test_recall_and_precision_do_not_regress) = local_set_checks(BASE, 52, 5, RECALL_FLOOR, PRECISION_FLOOR)


def test_the_misses_are_found_where_designed(measured):
    """Each hazard line designed on is named by its finding, and no consistent line is claimed."""
    codes = measured["lint"]["codes"]
    sp = "sphexa/dc03d2a37f/ryoanji/include/ryoanji"
    assert "WS008" in codes[f"{sp}/warpscan.h:55"] and "WS008" in codes[f"{sp}/warpscan.h:79"]  # int lanemask_lt()
    assert "WS009" in codes[f"{sp}/warpscan.h:145"]  # __clz(int(__brev(flags)))
    assert codes["sphexa/487a534ebd/ryoanji/src/ryoanji/types.h:24"] == ["WS001"]  # GpuConfig::warpSize = 32
    for line in (127, 153):  # (1 << lane) - 1 in a helper its callers AND with a ballot
        assert codes[f"sphexa/1f8aa6c1e7/ryoanji/src/ryoanji/warpscan.cuh:{line}"] == ["WS010"]
    assert codes["hypre/67a0bdeab9/src/utilities/hypre_cuda_utils.h:74"] == ["WS001"]  # HYPRE_WARP_BITSHIFT 5
    assert codes["hypre/8462f60dc7/src/utilities/hypre_cuda_utils.h:274"] == ["WS003"]  # get_num_warps(): >> 5
    assert "WS003" in codes["hypre/8462f60dc7/src/utilities/hypre_cuda_reducer.h:145"]  # `#ifdef __CUDA_ARCH__`: >> 5
    assert codes["qmcpack/c8a515a15a/src/QMCWaveFunctions/detail/CUDA_legacy/PhaseFactors.cu:46"] == ["WS019"]
    assert measured["lint"]["consistent_flagged"] == 0 and measured["lint"]["flagged_lookalikes"] == []
