"""A realistic multi-file project (templates, macros, a header of warp helpers, host code, HIP,
Metal and CuPy sources, config, suppressions) and the findings it must produce, nothing more."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "lint"


def test_fixture_project_findings(tmp_path):
    proj = tmp_path / "proj"
    shutil.copytree(FIXTURE, proj)
    # Ignored and excluded files full of hazards (created here: git would not keep ignored files).
    (proj / "build").mkdir()
    bad = "__global__ void g(float* x) { x[threadIdx.x % 32] = __shfl_sync(0xffffffff, x[0], 31); }\n"
    (proj / "build" / "generated.cu").write_text(bad)
    (proj / "src" / "kernels.generated.cu").write_text(bad)
    (proj / ".gitignore").write_text("build/\n*.generated.cu\n")
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "lint", "--format", "json"], cwd=proj,
                       capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"},
                       timeout=300)
    assert "Traceback" not in r.stderr
    assert r.returncode == 2  # src/broken.cu has a syntax error
    got = [f"{d['path']}:{d['line']}:{d['column']}: {d['code']}" for d in json.loads(r.stdout)]
    expected = (FIXTURE / "expected.txt").read_text().splitlines()
    assert got == expected
    # metal/reduce.metal's ladder from 16 is read at `tid % 32 == 0`, each row's lane 0: the same at 64
    # (its CUDA twin is invariant under `kernelport verify --wave-invariance`), so advice, not a hazard
    info = [f"{d['path']}:{d['line']}: {d['code']}" for d in json.loads(r.stdout) if d["severity"] == "info"]
    assert info == ["metal/reduce.metal:9: WS004", "metal/reduce.metal:11: WS002"]
