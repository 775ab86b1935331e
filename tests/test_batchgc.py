"""A lint run and a translate run collect garbage at a batch's pace (kernelport/batchgc.py): counted collections, never
a timed assertion, and the caller's settings back afterwards."""
from __future__ import annotations

import gc
from pathlib import Path

from kernelport import batchgc
from kernelport.lint.engine import lint_paths

TREE = Path(__file__).parent / "realcorpus" / "polybench-gpu"  # 46 files, 7.1k lines


def _collections_during(fn) -> int:
    started = []

    def count(phase, info):
        if phase == "start":
            started.append(info["generation"])
    gc.callbacks.append(count)
    try:
        fn()
    finally:
        gc.callbacks.remove(count)
    return len(started)


def test_a_lint_run_collects_at_the_batch_pace_and_gives_the_threshold_back():
    before = gc.get_threshold()
    n = _collections_during(lambda: lint_paths([TREE], jobs=1))
    # At CPython's default pace (700) this run collects 72 times; at the batch's, 6.
    assert n <= 15, n
    assert gc.get_threshold() == before


def test_a_higher_threshold_the_caller_set_stands():
    old = gc.get_threshold()
    gc.set_threshold(batchgc.YOUNG * 3, *old[1:])
    try:
        with batchgc.batch():
            assert gc.get_threshold()[0] == batchgc.YOUNG * 3
        with batchgc.batch():
            gc.set_threshold(5)  # nothing in the block may leave its own setting behind either
    finally:
        after = gc.get_threshold()
        gc.set_threshold(*old)
    assert after[0] == batchgc.YOUNG * 3


def test_a_translate_run_collects_at_the_batch_pace_and_gives_the_threshold_back():
    from typer.testing import CliRunner
    from kernelport.cli import for_argv
    argv = ["translate", str(TREE), "--to", "hip,metal", "--stdout"]
    before = gc.get_threshold()
    res = []
    n = _collections_during(lambda: res.append(CliRunner().invoke(for_argv(argv), argv)))
    assert res[0].exit_code == 0, res[0].output
    assert "(hip port of" in res[0].stdout and "(metal port of" in res[0].stdout
    # At CPython's default pace (700) this run collects 261 times; at the batch's, 19.
    assert n <= 40, n
    assert gc.get_threshold() == before


def test_verify_runs_its_files_at_the_batch_pace(monkeypatch):
    # (counted over examples/block_reduce.cu and saxpy.cu, -j 1 --no-cache: 105 collections at the
    # default pace, 7 in a batch; here the threshold the files are verified under, without compilers)
    import kernelport.verify
    from typer.testing import CliRunner
    from kernelport.cli import for_argv
    seen = []
    monkeypatch.setattr(kernelport.verify, "verify_paths", lambda *a, **k: seen.append(gc.get_threshold()) or [])
    before = gc.get_threshold()
    argv = ["verify", str(TREE), "-j", "1"]
    CliRunner().invoke(for_argv(argv), argv)
    assert seen and seen[0][0] >= batchgc.YOUNG, seen
    assert gc.get_threshold() == before
