"""Helpers of the tests/test_trust_*.py files: the CLI run in-process (fast, for many small
cases) or as a subprocess (the real thing), and a small annotated kernel to mutate."""
from __future__ import annotations

import io
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout

KERNEL = """\
// @kp kernel    scale
// @kp grid      {grid}
// @kp block     {block}
// @kp why       one thread per element
// @kp arg       x   in  {xtype}[{xlen}] {xgen}
// @kp arg       y   out float[n]
// @kp scalar    n = {n}
// @kp scalar    a = {a}
// @kp reference scale_ref(x, y, n, a)
// @kp tolerance {tol}
__global__ void scale(const {xtype}* x, float* y, int n, float a)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}}

void scale_ref(const {xtype}* x, float* y, int n, float a)
{{
    for (int i = 0; i < n; ++i) y[i] = a * x[i];
}}
"""
DEFAULTS = dict(grid="ceil_div(n, 256)", block="256", xtype="float", xlen="n", xgen="uniform(-1, 1)", n="1000",
                a="2.5", tol="auto")


def kernel(**kw) -> str:
    return KERNEL.format(**{**DEFAULTS, **kw})


def line_of(text: str, key: str) -> int:
    """1-based line of the first `// @kp KEY` line."""
    return next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith(f"// @kp {key}"))


def kp_inproc(*args, env: dict | None = None) -> tuple[int, str, str]:
    """Run `kernelport ARGS` in this process; (exit code, stdout, stderr)."""
    import os
    from kernelport import cli

    out, err = io.StringIO(), io.StringIO()
    old_argv, old_env = sys.argv, dict(os.environ)
    sys.argv = ["kernelport", *map(str, args)]
    os.environ.update(env or {})
    rc = 0
    try:
        with redirect_stdout(out), redirect_stderr(err):
            cli.run()
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 0
    finally:
        sys.argv = old_argv
        os.environ.clear()
        os.environ.update(old_env)
    assert "Traceback" not in err.getvalue(), err.getvalue()
    return rc, out.getvalue(), err.getvalue()


def translate_run(tmp_path, headers: dict[str, str], unit: str, *extra: str) -> tuple[int, str, str]:
    """`kernelport translate a.cu b0.cu ... --to hip -o OUT` in-process over files written in `tmp_path`: the
    `headers` (name -> text) beside `unit` (a.cu) and each of `extra` (b0.cu, b1.cu, ...): one run of several
    units, as a project's command gives them.  (exit code, stdout, stderr)."""
    for name, text in headers.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "a.cu").write_text(unit)
    for k, text in enumerate(extra):
        (tmp_path / f"b{k}.cu").write_text(text)
    files = [tmp_path / "a.cu", *(tmp_path / f"b{k}.cu" for k in range(len(extra)))]
    return kp_inproc("translate", *files, "--to", "hip", "-o", tmp_path / "out")


def kp(*args, cwd=None, env=None, timeout=300) -> subprocess.CompletedProcess:
    import os
    r = subprocess.run([sys.executable, "-m", "kernelport", *map(str, args)], capture_output=True, text=True,
                       cwd=cwd, timeout=timeout, env={**os.environ, **(env or {})})
    assert "Traceback" not in r.stderr, r.stderr
    return r


def verify_checks(path, compiles: bool = True) -> tuple[int, list[dict], str]:
    """`kernelport verify PATH` in this process (block schedule, JSON, no cache): (exit code, the first
    file's checks, stdout + stderr).  `compiles=False` for a test that reads neither a compile check nor
    the exit code (a failed compile could not fail it): the compilers are not run, so there are no
    compile checks; every other check is made as before.  They were ~3/4 of such a test's CPU."""
    import json
    from unittest import mock

    from kernelport.verify import Verifier
    from kernelport.verify_compiles import Compiles
    args = ("verify", path, "--schedules", "block", "--format", "json", "--no-cache")
    if compiles:
        rc, out, err = kp_inproc(*args)
    else:
        with mock.patch.object(Verifier, "_compile_start", lambda self, path, ports: Compiles(None)):
            rc, out, err = kp_inproc(*args)
    checks = json.loads(out)[0]["checks"] if out.lstrip().startswith("[") else []
    return rc, checks, out + err


def assert_the_oracle_runs_and_ports_match(path, backend: str | None = "hip", not_yet: dict | None = None,
                                           not_run: set = frozenset()) -> None:
    """verify PATH: the original runs as the oracle and every port's numeric check (of `backend`, or
    every backend) passes at wave 32 and 64.  `not_yet`: backend -> what the emulator does not run of its port
    (its numeric checks are skips that say so).  `not_run`: backends whose checks another test judges."""
    rc, checks, text = verify_checks(path)
    checks = [c for c in checks if c["backend"] not in not_run]
    assert not_run or rc == 0, text
    assert not [c for c in checks if c["status"] == "fail"], text
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert oracle and oracle[0]["status"] == "pass", text
    for be, what in (not_yet or {}).items():
        skipped = [c for c in checks if c["kind"] == "numeric" and c["backend"] == be]
        assert skipped and all(c["status"] == "skip" and what in c["detail"] for c in skipped), text
    ports = [c for c in checks if c["kind"] == "numeric" and backend in (None, c["backend"])
             and c["backend"] not in (not_yet or {})]
    assert ports and all(c["status"] == "pass" for c in ports) and {c["wave"] for c in ports} == {32, 64}, text


def assert_a_broken_hip_port_fails(path, old: str, new: str) -> None:
    """Translate PATH to HIP, break the port by replacing `old` with `new` (a hazard only a 64-lane wave
    shows), and check verify fails the HIP port's numeric checks."""
    from pathlib import Path
    path = Path(path)
    assert kp_inproc("translate", path, "--to", "hip")[0] == 0
    hip = next(path.parent.glob(path.stem + ".hip*"))
    hip.write_text(hip.read_text().replace(old, new))
    rc, checks, text = verify_checks(path)
    bad = [c for c in checks if c["kind"] == "numeric" and c["backend"] == "hip"]
    assert rc == 1 and bad and all(c["status"] == "fail" for c in bad), text


def assert_the_oracle_passes_and_catches_a_lane_hazard(path) -> None:
    """verify PATH: the oracle runs and passes, the HIP port passes at wave 32 and 64, and a lane
    hazard planted in the HIP port fails only at 64 (`assert_a_lane_hazard_fails_only_at_64`)."""
    rc, checks, text = verify_checks(path)
    assert rc == 0 and [c["status"] for c in checks if c["kind"] == "oracle"] == ["pass"], text
    assert numeric_statuses(checks) == {32: "pass", 64: "pass"}, text
    assert_a_lane_hazard_fails_only_at_64(path)


def numeric_statuses(checks, backend: str = "hip", kernel: str | None = None) -> dict[int, str]:
    """{wave: status} of `backend`'s numeric checks (of `kernel`, where the file has several)."""
    return {c["wave"]: c["status"] for c in checks if c["kind"] == "numeric" and c["backend"] == backend
            and (kernel is None or c.get("kernel", kernel) == kernel)}


def assert_a_lane_hazard_fails_only_at_64(path, kernel: str | None = None) -> None:
    """Translate PATH to HIP and make the port read the lane as if a wave had 32 (`i % 32 < 32` ->
    `i % warpSize < 32`: the same at 32, lanes 32..63 take the other value at 64): verify passes the
    HIP port at 32 and fails it at 64 (the oracle caught it, not a crash)."""
    from pathlib import Path
    path = Path(path)
    assert kp_inproc("translate", path, "--to", "hip")[0] == 0
    hip = next(path.parent.glob(path.stem + ".hip*"))
    assert "i % 32 < 32" in hip.read_text()
    hip.write_text(hip.read_text().replace("i % 32 < 32", "i % warpSize < 32"))
    rc, checks, text = verify_checks(path)
    assert rc == 1 and numeric_statuses(checks, kernel=kernel) == {32: "pass", 64: "fail"}, text


def stand_in_gpu(monkeypatch, gpu) -> None:
    """`verify --device cuda` runs `gpu(args)` (name -> host array) in place of nvcc and a GPU: what it returns
    is what the device stored (a stand-in for an H100 run's values)."""
    from kernelport import device

    def stand_in(source, kernel, spec, args, targs, arch="native", flags=(), variants=(), symbols=None,
                 redefine=None, alone=True):
        return gpu(args)
    monkeypatch.setattr(device, "run_cuda", stand_in)
