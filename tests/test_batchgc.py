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


def test_a_translate_run_freezes_its_plan_while_it_makes_the_ports_and_thaws_it_after(monkeypatch):
    # the plan (parses, models, analyses of every file) is frozen before the ports are made; the caller's
    # collector sees it again once the command ends
    from typer.testing import CliRunner
    import kernelport.project_ports
    from kernelport.cli import for_argv
    seen, make = [], kernelport.project_ports.make
    monkeypatch.setattr(kernelport.project_ports, "make",
                        lambda *a, **k: seen.append(gc.get_freeze_count()) or make(*a, **k))
    before = gc.get_freeze_count()
    argv = ["translate", str(TREE / "CUDA" / "JACOBI2D"), "--to", "hip", "--stdout"]
    res = CliRunner().invoke(for_argv(argv), argv)
    assert res.exit_code == 0, res.output
    assert seen and seen[0] > before, (seen, before)
    assert gc.get_freeze_count() == before


def test_settle_freezes_only_inside_a_batch_once_and_the_outermost_batch_thaws():
    before = gc.get_freeze_count()
    batchgc.settle()  # a library caller's collector: left alone
    assert gc.get_freeze_count() == before
    with batchgc.batch():
        kept = [[i] for i in range(1000)]
        batchgc.settle()
        frozen = gc.get_freeze_count()
        assert frozen >= before + 1000
        more = [[i] for i in range(1000)]
        batchgc.settle()  # once per batch: what came since stays collectable
        assert gc.get_freeze_count() == frozen
        with batchgc.batch():
            pass
        assert gc.get_freeze_count() == frozen  # an inner batch's end thaws nothing
    assert gc.get_freeze_count() == before
    assert len(kept) == len(more) == 1000


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


# -- the executable: imports paused and frozen, nothing left to sweep at exit ----------------------

_PROBE = """import atexit, gc, json, subprocess, sys
started = []
gc.callbacks.append(lambda phase, info: phase == "start" and started.append(info["generation"]))
def report():  # registered first, so it runs last: after every hook kernelport registered
    print(json.dumps({"collections": len(started), "frozen": gc.get_freeze_count(), "enabled": gc.isenabled(),
                      "sweepable": len(gc.get_objects())}), file=sys.stderr)
atexit.register(report)
sys.argv = ["kernelport", *sys.argv[1:]]
"""


def _executable(code: str, *argv: str) -> dict:
    import json
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-P", "-c", _PROBE + code, *argv], capture_output=True, text=True, timeout=300,
                       cwd=Path(__file__).parent.parent)
    return json.loads(r.stderr.strip().splitlines()[-1])


_MAIN = "from kernelport.entry import main\nmain()\n"


def test_a_one_file_lint_imports_with_the_collector_paused_and_leaves_nothing_to_sweep_at_exit():
    got = _executable(_MAIN, "lint", "examples/saxpy.cu")
    # main 5c5ba0d2: 40 collections (37 young, most of them during the ~160 imports), nothing frozen,
    # ~30k objects for the interpreter's last collection to traverse; here 16, and none
    assert got["collections"] <= 25, got
    assert got["frozen"] > 10_000 and got["sweepable"] < 200, got
    assert got["enabled"], got  # the pause ends with the imports: the analysis runs with the collector on


def test_the_cli_framework_path_pauses_its_imports_too():
    got = _executable(_MAIN, "lint", "--help")  # (typer reads this argv: kernelport/cli.py)
    assert got["collections"] <= 20 and got["frozen"] > 10_000 and got["enabled"], got


def test_a_version_query_and_kernelport_as_a_library_leave_the_collector_alone():
    assert _executable(_MAIN, "--version")["frozen"] == 0  # nothing imported to freeze
    got = _executable("from kernelport.lint.engine import lint_paths\nlint_paths([__import__('pathlib').Path("
                      "'examples/saxpy.cu')], jobs=1)\n")
    assert got["frozen"] == 0 and got["enabled"] and got["sweepable"] > 10_000, got
