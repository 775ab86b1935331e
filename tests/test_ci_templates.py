"""The CI workflow and pre-commit hooks users copy must name commands and flags that exist."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _kernelport_commands(text: str) -> list[list[str]]:
    cmds = []
    for m in re.finditer(r"(?:run|entry): (kernelport [^\n|>]*)", text):
        cmds.append(shlex.split(m.group(1))[1:])
    return cmds


def _help(sub: str) -> str:
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", sub, "--help"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_every_command_and_flag_exists():
    cmds = _kernelport_commands((ROOT / "examples/ci/kernelport.yml").read_text())
    cmds += _kernelport_commands((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert {c[0] for c in cmds} >= {"lint", "translate", "verify"}
    for c in cmds:
        helptext = _help(c[0])
        for flag in (a for a in c[1:] if a.startswith("--")):
            assert flag in helptext, f"kernelport {c[0]} has no {flag}"
