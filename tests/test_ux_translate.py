"""translate through the CLI: `--check` on a hand-edited port gives the command that works (with
`--force`) and says why; `--stdout` of several ports marks where each begins."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def kp(*args, cwd=None):
    r = subprocess.run([sys.executable, "-m", "kernelport", *map(str, args)], capture_output=True, text=True,
                       cwd=cwd, timeout=600)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def _copy(tmp_path: Path, name: str) -> Path:
    for p in EXAMPLES.glob(f"{name}.*"):
        shutil.copy(p, tmp_path / p.name)
    return tmp_path / f"{name}.cu"


def test_check_on_a_hand_edited_port_gives_the_command_that_works(tmp_path):
    _copy(tmp_path, "saxpy")
    hip = tmp_path / "saxpy.hip"
    hip.write_text(hip.read_text().replace("y[i] = a * x[i] + y[i];", "y[i] = a * x[i] - y[i];"))
    r = kp("translate", "saxpy.cu", "--to", "hip", "--check", cwd=tmp_path)
    assert r.returncode == 1
    hint = r.stderr.strip().splitlines()[-1]
    assert hint.startswith("saxpy.hip was edited by hand since kernelport wrote it")
    command = hint.split("run: ", 1)[1]
    assert command.endswith("--force")
    # the plain command refuses (that is why the hint says --force) ...
    plain = kp(*command.removeprefix("kernelport ").removesuffix(" --force").split(), cwd=tmp_path)
    assert plain.returncode == 1
    # ... and the hinted one works: afterwards the check is clean
    assert kp(*command.removeprefix("kernelport ").split(), cwd=tmp_path).returncode == 0
    assert kp("translate", "saxpy.cu", "--to", "hip", "--check", cwd=tmp_path).returncode == 0


def test_check_on_a_stale_port_needs_no_force(tmp_path):
    src = _copy(tmp_path, "saxpy")
    src.write_text(src.read_text().replace("y[i] = a * x[i] + y[i];", "y[i] = y[i] + a * x[i];"))
    r = kp("translate", "saxpy.cu", "--to", "hip", "--check", cwd=tmp_path)
    hint = r.stderr.strip().splitlines()[-1]
    assert r.returncode == 1 and hint.startswith("saxpy.hip is stale (run: ") and "--force" not in hint
    command = hint.split("run: ", 1)[1].rstrip(")")
    assert kp(*command.removeprefix("kernelport ").split(), cwd=tmp_path).returncode == 0


def test_stdout_of_several_ports_marks_each(tmp_path):
    _copy(tmp_path, "saxpy")
    _copy(tmp_path, "warp_reduce")
    r = kp("translate", "saxpy.cu", "warp_reduce.cu", "--to", "hip,metal", "--stdout", cwd=tmp_path)
    assert r.returncode == 0
    marks = [line for line in r.stdout.splitlines() if line.startswith("// ===== kernelport: ")]
    assert marks == [f"// ===== kernelport: {stem}.{ext} ({ext} port of {stem}.cu) =====" for stem in
                     ("saxpy", "warp_reduce") for ext in ("hip", "metal")]
    chunks = r.stdout.split("// ===== kernelport: ")[1:]
    assert chunks[0].split("\n", 1)[1] == (tmp_path / "saxpy.hip").read_text()
    assert chunks[3].split("\n", 1)[1] == (tmp_path / "warp_reduce.metal").read_text()
    single = kp("translate", "saxpy.cu", "--to", "hip", "--stdout", cwd=tmp_path)
    assert single.stdout == (tmp_path / "saxpy.hip").read_text()  # one port: exactly the file
