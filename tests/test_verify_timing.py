"""verify's reported times: every figure measured, a cached verdict said to be one, with the
seconds its check took where it ran beside this run's lookup, in the text, JSON, JUnit and HTML."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from kernelport import backends, toolchains
from kernelport.source import SourceFile
from kernelport.toolchains import CompileResult, Toolchain
from kernelport.verify import Check, FileReport, Verifier, when_run
from kernelport.verify_report import duration, file_summary, junit, timing

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_durations_are_shown_at_a_unit_that_shows_them():
    assert [duration(s) for s in (2.345, 1.0, 0.041, 0.0104, 0.0027, 0.00042, 1.5e-05)] == \
        ["2.35 s", "1.00 s", "41 ms", "10 ms", "2.7 ms", "0.42 ms", "0.015 ms"]


def test_a_cached_numeric_check_keeps_the_seconds_it_ran(tmp_path, monkeypatch):
    def numeric(self, src, module, name, spec, ports, rep):
        time.sleep(0.02)
        rep.checks.append(Check(name, "cuda", 32, "numeric", "pass", "matches", seconds=0.02))

    monkeypatch.setattr(Verifier, "_numeric", numeric)
    k = tmp_path / "k.cu"
    k.write_text("// @kp kernel k\n")
    reps = []
    for _ in range(2):
        reps.append(FileReport(str(k)))
        Verifier(seed=1)._numeric_cached(k, None, None, "k", None, {}, reps[-1])
    first, again = reps[0].checks[0], reps[1].checks[0]
    assert not first.cached and first.run_seconds is None and when_run(first) == 0.02
    assert again.cached and 0 < again.seconds < 0.02 and again.run_seconds == 0.02
    row = reps[1].to_dict()["checks"][0]
    assert row["cached"] and row["run_seconds"] == 0.02 and 0 < row["seconds"] < 0.02
    assert reps[0].to_dict()["checks"][0]["run_seconds"] == 0.02  # a check run now: its own seconds


def test_a_cached_compile_keeps_the_seconds_it_took(tmp_path, monkeypatch):
    cuda = type(backends.get("cuda"))

    def slow(self, path, run, config=((), ())):
        time.sleep(0.05)
        return CompileResult("nvcc", run.arch, True, False, ["nvcc", str(path)], "", "")

    monkeypatch.setattr(cuda, "compile", slow)
    monkeypatch.setattr(toolchains, "find_tool", lambda name: Toolchain(name, f"/opt/{name}", "12.4"))
    k = tmp_path / "k.cu"
    k.write_text("__global__ void k() {}\n")
    be = backends.get("cuda")
    job = (be, k, be.compile_runs()[0])
    *_, secs, ran = Verifier()._compile_one(job)
    assert ran is None and secs >= 0.05  # compiled now
    *_, secs_again, ran_again = Verifier()._compile_one(job)
    assert ran_again is not None and ran_again >= 0.05 and secs_again < ran_again


def test_cached_translations_and_lint_gates_keep_the_seconds_they_took(tmp_path):
    k = tmp_path / "k.cu"
    k.write_text("__global__ void k(float* x) {\n    x[threadIdx.x % 32] = __shfl_down_sync(~0u, x[0], 1);\n}\n")
    from kernelport.lint.config import Overrides
    v = Verifier()
    v._translation(k, SourceFile.read(k), "hip")
    assert v.ran is None
    v._lint_errors(k, Overrides())
    assert v.ran is None
    again = Verifier()
    again._translation(k, SourceFile.read(k), "hip")
    translated = again.ran
    again._lint_errors(k, Overrides())
    assert translated is not None and translated > 0 and again.ran is not None and again.ran > 0


def test_the_text_junit_and_html_say_cached_and_give_both_figures():
    rep = FileReport("k.cu", kernels=["k"], checks=[
        Check("k", "hip", 32, "numeric", "pass", "", seconds=0.5),
        Check("k", "hip", 64, "compile", "fail", "error: x", seconds=0.0004, cached=True, run_seconds=2.5)])
    line = file_summary(rep)
    assert "(500 ms of checks; 1 cached: read from the cache, not run again, 2.50 s when they ran)" in line, line
    assert timing(rep.checks[1]) == " (cached: 0.4 ms; 2.50 s when it ran)" and timing(rep.checks[0]) == ""
    cases = {tc.get("name"): tc for tc in ET.fromstring(junit([rep])).iter("testcase")}
    props = {p.get("name"): p.get("value") for p in cases["compile hip wave64"].iter("property")}
    assert props == {"cached": "true", "run_seconds": "2.500000"} and cases["compile hip wave64"].get("time") == "0.000400"
    assert not list(cases["numeric hip wave32"].iter("property"))
    from kernelport.verify_html import _check_rows
    html = _check_rows(rep, rep.checks)
    assert "500 ms" in html and "0.4 ms (cached: 0.4 ms; 2.50 s when it ran)" in html


def test_a_second_verify_reports_measured_times_and_says_what_was_cached(tmp_path):
    """`verify FILE` twice: the second run's summary gives its time in a unit that shows it (it
    said `0.0 s of checks`), and every check, cached or not, carries a measured figure."""
    for ext in (".cu", ".hip", ".metal", ".metal.json"):
        (tmp_path / f"saxpy{ext}").write_bytes((EXAMPLES / f"saxpy{ext}").read_bytes())
    env = {**os.environ, "HIP_PLATFORM": "amd"}
    kp = [sys.executable, "-P", "-m", "kernelport", "verify", "saxpy.cu", "--schedules", "block"]
    cold = subprocess.run(kp + ["--format", "json"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=900)
    warm = subprocess.run(kp, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=900)
    data = subprocess.run(kp + ["--format", "json"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=900)
    assert cold.returncode == warm.returncode == data.returncode == 0, cold.stderr + warm.stdout
    summary = next(ln for ln in warm.stdout.splitlines() if ln.startswith("saxpy.cu: pass"))
    assert "0.0 s" not in summary and " cached: read from the cache" in summary and " when they ran" in summary, summary
    before = {(c["kind"], c["backend"], c["wave"], c["target"], c["schedule"]): c
              for c in json.loads(cold.stdout)[0]["checks"]}
    checks = json.loads(data.stdout)[0]["checks"]
    assert all(c["seconds"] > 0 and c["run_seconds"] > 0 for c in checks)
    cached = [c for c in checks if c["cached"]]
    assert {c["kind"] for c in cached} >= {"compile", "numeric", "lint", "drift"}
    for c in cached:  # the figure measured when the check ran, not this run's lookup
        was = before[c["kind"], c["backend"], c["wave"], c["target"], c["schedule"]]
        assert not was["cached"] and was["run_seconds"] == was["seconds"], was
        if c["kind"] in ("numeric", "races", "reference", "original"):  # the stored check itself
            assert c["run_seconds"] == was["seconds"], (c, was)
        elif c["kind"] == "compile":  # its compiler's share; the cold row also held its lookup
            assert c["run_seconds"] <= was["seconds"], (c, was)


def test_an_oracle_skip_reports_the_inference_it_took(tmp_path):
    """A kernel whose inputs cannot be inferred is reported not run with the seconds its inference
    took (main: `"seconds": 0.0`, never measured), in the JSON and JUnit alike."""
    k = tmp_path / "lone.cu"
    k.write_text("__global__ void lone(float* x, int n)\n{\n    int i = threadIdx.x;\n    if (i < n) x[i] = 1.0f;\n}\n")
    rep = Verifier(seed=1).verify(k)
    skips = [c for c in rep.checks if c.kind == "oracle"]
    assert skips and all(c.status == "skip" and "no launch of 'lone'" in c.detail for c in skips), rep.checks
    assert all(c.seconds > 0 for c in rep.checks), [(c.kind, c.seconds) for c in rep.checks]
    assert all(float(tc.get("time")) > 0 for tc in ET.fromstring(junit([rep])).iter("testcase"))
