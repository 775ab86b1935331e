"""No lint run ends early: an internal error in one file's analysis (model, warpflow, the engine,
header macros) is a KP006 finding for that file, every other file is linted and reported, and the
run's exit code is that of its findings (1): exit 3 stays for a failure outside any one file."""
from __future__ import annotations

import json
import sys

import pytest

from kernelport import warpflow
from kernelport.lint import engine

HAZARD = ("__global__ void k(float* x) {\n"
          "    int lane = threadIdx.x % 32;\n"
          "    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1) + (lane == 0);\n"
          "}\n")


def _tree(tmp_path):
    for name in ("a.cu", "b.cuh", "c.cu"):
        (tmp_path / name).write_text(HAZARD.replace("k(", f"k_{name[0]}("))
    return tmp_path


def _run(monkeypatch, capsys, *args):
    from kernelport import cli
    monkeypatch.delenv("KERNELPORT_DEBUG", raising=False)
    monkeypatch.setattr(sys, "argv", ["kernelport", "lint", "--format", "json", "-j", "1", *map(str, args)])
    with pytest.raises(SystemExit) as e:
        cli.run()
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return e.value.code, json.loads(out.out)


def _fail_on(name, real):
    def patched(module, *a, **kw):
        if name in module.source.path:
            raise AttributeError("'NoneType' object has no attribute 'type'")
        return real(module, *a, **kw)
    return patched


def test_warpflow_failure_in_one_header_is_reported_and_the_tree_is_linted(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(warpflow, "analyze", _fail_on("b.cuh", warpflow.analyze))
    rc, data = _run(monkeypatch, capsys, _tree(tmp_path))
    assert rc == 1
    by_file = {}
    for f in data:
        by_file.setdefault(f["path"].rsplit("/", 1)[-1], set()).add(f["code"])
    assert "KP006" in by_file["b.cuh"]
    internal = [f for f in data if f["code"] == "KP006"]
    assert len(internal) == 1 and "b.cuh" in internal[0]["message"] and "AttributeError" in internal[0]["message"]
    for other in ("a.cu", "c.cu"):  # the files around it are still linted, fully
        assert {"WS002", "WS007"} <= by_file[other] and "KP006" not in by_file[other]


def test_failure_outside_the_analysis_is_reported_for_that_file(tmp_path, monkeypatch, capsys):
    real = engine.units_of

    def boom(path, *a, **kw):  # reading the file's units (its includes, its embedded strings) fails
        if path.name == "a.cu":
            raise RecursionError("maximum recursion depth exceeded")
        return real(path, *a, **kw)
    monkeypatch.setattr(engine, "units_of", boom)
    rc, data = _run(monkeypatch, capsys, _tree(tmp_path))
    assert rc == 1
    assert [f["path"].rsplit("/", 1)[-1] for f in data if f["code"] == "KP006"] == ["a.cu"]
    assert {f["path"].rsplit("/", 1)[-1] for f in data if f["code"] == "WS002"} == {"b.cuh", "c.cu"}


def test_a_clean_tree_keeps_its_exit_code(tmp_path, monkeypatch, capsys):
    # the look-alike: the guard adds nothing when nothing fails (exit 1 for findings, no KP006)
    rc, data = _run(monkeypatch, capsys, _tree(tmp_path))
    assert rc == 1 and not any(f["code"] == "KP006" for f in data)
    assert len({f["path"] for f in data}) == 3


def test_ignoring_kp006_still_lints_the_other_files(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(warpflow, "analyze", _fail_on("a.cu", warpflow.analyze))
    rc, data = _run(monkeypatch, capsys, "--ignore", "KP006", _tree(tmp_path))
    assert rc == 1 and not any(f["code"] == "KP006" for f in data)
    assert {f["path"].rsplit("/", 1)[-1] for f in data} == {"b.cuh", "c.cu"}


def test_debug_mode_raises(monkeypatch):
    monkeypatch.setenv("KERNELPORT_DEBUG", "1")
    monkeypatch.setattr(warpflow, "analyze", _fail_on("x.cu", warpflow.analyze))
    with pytest.raises(AttributeError):
        engine.lint_text(HAZARD, "x.cu")
