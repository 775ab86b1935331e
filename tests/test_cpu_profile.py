"""tests/cpu_profile.py, the opt-in per-test CPU profile: a test's CPU in its children and its
compile-cache hits and misses land in its own row, an idle test's row is zero, the xdist workers'
parts are joined into one TSV, and nothing is written unless $KERNELPORT_CPU_PROFILE is set."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

SAMPLE = '''
import shutil
import subprocess
import sys

from kernelport import compile_cache


def test_burns_child_cpu():
    subprocess.run([sys.executable, "-c", "x = 0\\nfor i in range(3_000_000): x += i"], check=True)


def test_runs_the_same_compile_twice(tmp_path):
    src = tmp_path / "a.c"
    src.write_text("int x;")
    for _ in range(2):
        assert compile_cache.run([shutil.which("cat"), str(src)], src).stdout == "int x;"


def test_idle():
    pass
'''


def _pytest(tmp_path: Path, *args: str, profile: Path | None):
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    env = {k: v for k, v in os.environ.items() if k not in ("KERNELPORT_CPU_PROFILE", "KERNELPORT_TOOL_LOG")}
    env.update(PYTHONPATH=str(TESTS), KERNELPORT_COMPILE_CACHE=str(tmp_path / "cache"))
    if profile is not None:
        env["KERNELPORT_CPU_PROFILE"] = str(profile)
    r = subprocess.run([sys.executable, "-P", "-m", "pytest", "-q", "-p", "cpu_profile", "-p", "no:cacheprovider",
                        *args, "test_sample.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr


def test_profile_rows_per_test_across_xdist_workers(tmp_path):
    import cpu_profile

    out = tmp_path / "prof.tsv"
    _pytest(tmp_path, "-n", "1", profile=out)
    lines = out.read_text().splitlines()
    assert lines[0].split("\t") == list(cpu_profile.COLUMNS)
    rows = [dict(zip(cpu_profile.COLUMNS, ln.split("\t"))) for ln in lines[1:]]
    tests = {r["name"].split("::")[-1]: r for r in rows if r["kind"] == "test"}
    assert set(tests) == {"test_burns_child_cpu", "test_runs_the_same_compile_twice", "test_idle"}
    burn, twice, idle = tests["test_burns_child_cpu"], tests["test_runs_the_same_compile_twice"], tests["test_idle"]
    assert float(burn["children_s"]) > 0 and float(idle["children_s"]) == 0
    assert (twice["misses"], twice["hits"]) == ("1", "1") and (burn["misses"], burn["hits"]) == ("0", "0")
    assert (idle["hits"], idle["misses"], idle["uncached"]) == ("0", "0", "0")
    assert {r["name"] for r in rows if r["kind"] == "process"} == {"prof.tsv.main.part", "prof.tsv.gw0.part"}
    assert any(r["kind"] == "fixture" and r["name"] == "tmp_path@function" for r in rows)
    assert not list(tmp_path.glob("prof.tsv.*"))  # the parts and tool logs are joined and removed
    report = cpu_profile.rank([str(out)], 3)
    assert report.index("test_burns_child_cpu") < report.index("test_idle") and "cache hits 1, misses 1" in report


def test_profile_is_off_by_default(tmp_path):
    _pytest(tmp_path, "-n", "0", profile=None)
    assert not [p for p in tmp_path.iterdir() if p.suffix in (".tsv", ".part", ".tools")]
