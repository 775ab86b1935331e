"""The README's quick tour, run word for word in a copy of the examples: each `$ ` line of its
console block through bash, with the exit status its comment states (0 unless it says `exit N`)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import require_tool

ROOT = Path(__file__).resolve().parent.parent


def tour() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quick tour", 1)[1].split("\n## ", 1)[0]
    block = section.split("```console\n", 1)[1].split("```", 1)[0]
    return [line[2:] for line in block.splitlines() if line.startswith("$ ")]


def test_the_tour_has_a_port_a_lint_a_verify_and_a_ci_run():
    lines = tour()
    assert any(x.startswith("kernelport translate ") and "--check" not in x for x in lines)
    assert any(x.startswith("kernelport lint ") for x in lines)
    assert any(x.startswith("kernelport verify ") for x in lines)
    assert any("--check" in x for x in lines) and any("--format junit" in x for x in lines)


def test_quick_tour_word_for_word(tmp_path):
    require_tool("hipcc")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env.pop("FORCE_COLOR", None)
    assert shutil.which("kernelport", path=env["PATH"]), "the installed kernelport is not on PATH"
    outputs = {}
    for line in tour():
        want = int(m.group(1)) if (m := re.search(r"exit (\d)", line.split("#", 1)[-1])) else 0
        r = subprocess.run(["bash", "-c", line], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
        assert "Traceback" not in r.stderr, r.stderr
        assert r.returncode == want, f"{line}\n{r.stdout}\n{r.stderr}"
        outputs[line.split("#", 1)[0].strip()] = r
    port = outputs["kernelport translate mykernel.cu --to hip,metal"].stdout
    for name in ("mykernel.hip", "mykernel.metal", "mykernel.metal.json"):
        assert f"created   {name}" in port and (tmp_path / name).is_file()
    assert "WS009" in outputs["kernelport lint examples/stream_compact.cu --format concise"].stdout
    assert "+++ " in outputs["kernelport lint examples/stream_compact.cu --diff"].stdout  # a fix to show
    verify = outputs["kernelport verify mykernel.cu"].stdout
    assert "mykernel.cu: pass: 1 kernel" in verify
    junit = (tmp_path / "verify.xml").read_text()
    assert junit.startswith("<?xml") and 'failures="0"' in junit
