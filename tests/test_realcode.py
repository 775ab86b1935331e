"""Annotated kernels after real-code patterns (tests/realcode/): each port verifies at every wave
width of its targets, and the original, run unchanged on a 64-wide wave, is wrong where the
pattern is hazardous (verify's informational row) and right where it is not."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REALCODE = Path(__file__).resolve().parent / "realcode"
FILES = sorted(REALCODE.glob("*.cu"))
# Originals that compute something else on a 64-wide wave (what their ports fix).
HAZARDOUS = {"rows_as_warps_max", "warp_aggregated_count", "ballot_compact"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_realcode_kernel_verifies_at_every_width(path, tmp_path):
    shutil.copy(path, tmp_path / path.name)
    kp = [sys.executable, "-m", "kernelport"]
    subprocess.run(kp + ["translate", path.name, "--to", "hip,metal,portable"], cwd=tmp_path, check=True,
                   capture_output=True)
    r = subprocess.run(kp + ["verify", path.name, "--format", "json"], cwd=tmp_path, capture_output=True,
                       text=True)
    import json
    report = json.loads(r.stdout)
    reports = report if isinstance(report, list) else report.get("files", [report])
    checks = [c for rep in reports for c in rep["checks"]]
    failed = [f"{c['backend']} {c['wave']} {c['kind']}: {c['detail']}" for c in checks if c["status"] == "fail"]
    assert r.returncode == 0 and not failed, "\n".join(failed) or r.stderr
    numeric = {(c["backend"], c["wave"]) for c in checks if c["kind"] == "numeric" and c["status"] == "pass"}
    assert {("hip", 64), ("hip", 32), ("metal", 32), ("portable", 64), ("portable", 32)} <= numeric
    info = [c["detail"] for c in checks if c["kind"] == "original"]
    assert len(info) == 1
    if path.stem in HAZARDOUS:
        assert "wrong at" in info[0] and "this is what the port fixes" in info[0], info[0]
    else:
        assert "matches" in info[0], info[0]
