"""`subprocess.run` for compilers, whose timeout ends the compiler's whole process tree.

A compiler is a driver that starts other programs (nvcc: gcc, cudafe++, cicc, ptxas; hipcc: perl,
clang, lld; cpp: cc1).  `subprocess.run(timeout=...)` kills only the process it started, so a
timed-out nvcc left its `cicc` running, holding a core (and the pipes, which kept
`communicate()` waiting for it).  Here the compiler starts in a session of its own (its own
process group, which everything it starts joins) and a timeout, or an interruption of kernelport,
kills that group.
"""
from __future__ import annotations

import os
import signal
import subprocess


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the group's id is the leader's pid (start_new_session)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except OSError:
        pass


def run(cmd: list[str], *, timeout: float | None = None, env: dict | None = None, input: str | None = None,
        cwd=None) -> subprocess.CompletedProcess:
    """`subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, input=input)` (stdin
    empty without `input`), run in a new session: on a timeout every process of the session is
    killed before TimeoutExpired (with the output so far) is raised."""
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd,
                          stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                          start_new_session=True) as proc:
        try:
            out, err = proc.communicate(input, timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            out, err = proc.communicate()
            raise subprocess.TimeoutExpired(cmd, timeout, out, err) from None
        except BaseException:  # interrupted: no compiler outlives kernelport
            _kill_group(proc)
            raise
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)
