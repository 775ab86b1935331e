"""verify's report through the CLI: a file column, FAIL lines that say exactly which check failed
(file, kernel, backend, wave, schedule, check, first difference), a summary per file, the lint
gate named for what it runs, `--explain` as a table, and measured seconds for every check."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def kp(*args, cwd=None):
    r = subprocess.run([sys.executable, "-m", "kernelport", *map(str, args)], capture_output=True, text=True,
                       cwd=cwd, timeout=600)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def _copy(name: str, into: Path) -> Path:
    into.mkdir(parents=True, exist_ok=True)
    for p in EXAMPLES.glob(f"{name}.*"):
        shutil.copy(p, into / p.name)
    return into / f"{name}.cu"


def _break_hip_port(cu: Path) -> None:
    """A hand edit that changes what the HIP port computes (y = a*x - y)."""
    hip = cu.with_suffix(".hip")
    text = hip.read_text()
    assert "y[i] = a * x[i] + y[i];" in text
    hip.write_text(text.replace("y[i] = a * x[i] + y[i];", "y[i] = a * x[i] - y[i];"))


@pytest.fixture(scope="module")
def two_files(tmp_path_factory):
    """Two files whose kernels share a name; only b's HIP port is wrong."""
    root = tmp_path_factory.mktemp("two")
    _copy("saxpy", root / "a")
    _break_hip_port(_copy("saxpy", root / "b"))
    r = kp("verify", "a/saxpy.cu", "b/saxpy.cu", "--schedules", "block,thread", "--explain", cwd=root)
    return r


def test_table_has_a_file_column_and_the_failing_schedules(two_files):
    r = two_files
    assert r.returncode == 1, r.stdout + r.stderr
    header = next(line for line in r.stdout.splitlines() if "kernel" in line and "backend" in line)
    assert header.split("┃")[1].strip() == "file"
    assert "lint gate" in header
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in r.stdout.splitlines() if line.startswith("│")]
    by_file = {}
    for row in rows:
        by_file.setdefault(row[0], []).append(row)
    assert set(by_file) == {"a/saxpy.cu", "b/saxpy.cu"}
    # one row per kernel x backend x wave
    assert [(x[2], x[3]) for x in by_file["b/saxpy.cu"]] == [("cuda", "32"), ("hip", "64"), ("hip", "32"),
                                                            ("metal", "32")]
    hip64 = by_file["b/saxpy.cu"][1]
    assert hip64[7] == "FAIL block,thread" and hip64[5] == "FAIL"
    assert all("FAIL" not in c for x in by_file["a/saxpy.cu"] for c in x)


def test_fail_lines_name_file_kernel_backend_wave_schedule_check_and_difference(two_files):
    fails = [line for line in two_files.stdout.splitlines() if line.startswith("FAIL ")]
    assert fails and all(line.startswith("FAIL b/saxpy.cu · ") for line in fails)
    numeric = [line for line in fails if "· numeric:" in line]
    assert len(numeric) == 4 and len(set(numeric)) == 4  # hip 64/32 x block/thread: no two alike
    line = next(x for x in numeric if "wave 64" in x and "schedule thread" in x)
    assert line.startswith("FAIL b/saxpy.cu · kernel saxpy · hip wave 64 (gfx90a) · schedule thread · numeric: y[")
    assert ", reference " in line and "(bound " in line
    drift = next(x for x in fails if "· drift:" in x)
    assert "edited by hand" in drift and "--force" in drift


def test_summary_per_file_and_lint_gate_legend(two_files):
    lines = two_files.stdout.splitlines()
    a = next(x for x in lines if x.startswith("a/saxpy.cu: "))
    b = next(x for x in lines if x.startswith("b/saxpy.cu: "))
    assert a.startswith("a/saxpy.cu: pass: 1 kernel, ") and " 0 failed" in a
    assert b.startswith("b/saxpy.cu: FAIL: 1 kernel, ") and " 5 failed" in b
    assert "failed: drift hip, numeric hip wave 32, numeric hip wave 64" in b
    assert any(x.startswith("lint gate: errors of the SY/PT rules on the original") for x in lines)
    readme = (ROOT / "README.md").read_text()
    assert "**lint gate**" in readme


def test_explain_is_a_table_at_the_first_differing_index(two_files):
    lines = two_files.stdout.splitlines()
    i = next(i for i, x in enumerate(lines) if x.startswith("FAIL b/saxpy.cu · kernel saxpy · hip wave 64"))
    head = lines[i + 1].split()
    assert head[:4] == ["at", "inputs", "reference", "port"] and head[-1] == "bound"
    row = lines[i + 2].split()
    assert row[0].startswith("y[") and row[1].startswith("x=")
    ref, port = float(row[-4]), float(row[-3])
    assert abs(abs(port - ref) - float(row[-2])) <= 1e-5 * max(1.0, abs(port - ref))


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    root = tmp_path_factory.mktemp("one")
    cu = _copy("saxpy", root)
    _break_hip_port(cu)
    return cu


def test_every_check_reports_measured_seconds_in_json(broken):
    r = kp("verify", broken, "--schedules", "block", "--format", "json")
    assert r.returncode == 1
    cs = [c for f in json.loads(r.stdout) for c in f["checks"]]
    kinds = {c["kind"] for c in cs}
    assert {"drift", "compile", "lint", "numeric", "races", "reference"} <= kinds
    for c in cs:
        assert c["seconds"] > 0.0, c
    # a race check's seconds are its own (collecting the races), not its emulation's again: the
    # emulation is the numeric check's time, and the JSON's seconds add up to what verify spent
    numeric = {(c["kernel"], c["backend"], c["wave"], c["schedule"]): c["seconds"] for c in cs if c["kind"] == "numeric"}
    races = [(c["seconds"], numeric[c["kernel"], c["backend"], c["wave"], c["schedule"]]) for c in cs
             if c["kind"] == "races"]
    # (the bug this guards against made each race check's seconds the emulation's again plus its own, so
    # r >= n; no ratio of times is asserted: that would be a timed assertion, flaky under load)
    assert races and all(r < n for r, n in races), races


def test_every_check_reports_measured_seconds_in_junit(broken):
    r = kp("verify", broken, "--schedules", "block", "--format", "junit")
    cases = ET.fromstring(r.stdout).iter("testcase")
    times = {tc.get("name"): float(tc.get("time")) for tc in cases}
    assert times and all(t > 0.0 for t in times.values()), times
