"""A compiler that runs past its timeout is ended with everything it started (kernelport.subproc):
nvcc's cicc, hipcc's clang, cpp's cc1 must not keep running after the check has given up."""
from __future__ import annotations

import os
import time

from kernelport import subproc, toolchains

FAKE_NVCC = """#!/bin/sh
if [ "$1" = "--version" ]; then echo "Cuda compilation tools, release 12.0, V12.0.1"; exit 0; fi
sleep 120 &
echo $! > "$KP_FAKE_CHILD"
wait
"""


def _gone(pid: int, within: float = 10.0) -> bool:
    """Whether process `pid` has ended (absent, or a zombie waiting to be reaped) within `within` s."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_timed_out_compiler_leaves_no_child(tmp_path, monkeypatch):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    nvcc = bindir / "nvcc"
    nvcc.write_text(FAKE_NVCC)
    nvcc.chmod(0o755)
    child = tmp_path / "child.pid"
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("KP_FAKE_CHILD", str(child))
    monkeypatch.delenv("KERNELPORT_COMPILE_CACHE", raising=False)
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k() {}\n")
    t0 = time.monotonic()
    r = toolchains.compile_cuda(src, timeout=2)
    assert not r.ok and "timed out after 2 s" in r.reason
    assert time.monotonic() - t0 < 60  # not held until the child's sleep ends (it keeps the pipes open)
    pid = int(child.read_text())
    assert _gone(pid), f"the timed-out compiler's child {pid} is still running"


def test_run_returns_output_and_status(tmp_path):
    r = subproc.run(["sh", "-c", "cat; echo err >&2; exit 3"], input="in\n", timeout=30)
    assert (r.returncode, r.stdout, r.stderr) == (3, "in\n", "err\n")
