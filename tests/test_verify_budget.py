"""verify never hangs a CI job (kernelport/check_budget.py): every check has a wall-clock budget
(DEFAULT_SECONDS without --timeout, --timeout 0 for none); a check cut by it is a skip whose detail says what
ran, for how long, the line:col of the loop the emulator was in and how to go on; it is never cached; a run
past a few seconds says so on stderr when asked (a tty table), never otherwise."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

from kernelport import check_budget
from kernelport.emulator import TimedOut, run_kernel
from trust_support import kernel, kp_inproc

ENDLESS = "    for (int t = 0; t >= 0; t = t * 0) { __syncthreads(); }\n"  # a time loop that never ends
ENDS = "    for (int t = 0; t < 50; ++t) { __syncthreads(); }\n"  # the look-alike: the same loop, 50 steps


def _file(tmp_path, loop: str):
    f = tmp_path / "spin.cu"
    f.write_text(kernel(n="256").replace("    if (i < n) y[i] = a * x[i];", loop + "    if (i < n) y[i] = a * x[i];"))
    for b in ("hip", "metal", "portable"):  # the ports written: drift and compile pass, the numeric rows tell
        assert kp_inproc("translate", f, "--to", b)[0] == 0
    return f


def _checks(out: str) -> list[dict]:
    return json.loads(out)[0]["checks"]


def test_an_endless_loop_is_cut_as_a_located_skip(tmp_path):
    f = _file(tmp_path, ENDLESS)
    rc, out, err = kp_inproc("verify", f, "--no-cache", "--timeout", "1", "--schedules", "block", "--format", "json")
    checks = _checks(out)
    cut = [c for c in checks if c["budget"] is not None]
    first = next(c for c in cut if "cut after" in c["detail"])
    assert first["status"] == "skip" and first["budget"] == 1.0 and first["backend"] == "cuda"
    assert re.search(r"spin\.cu:14:5: cut after 1\.\d s: the cuda wave 32 run \(block\) of `scale` was in the loop "
                     r"at 14:5 when its 1 s budget ran out, after \d+ loop iterations; raise the budget "
                     r"\(--timeout 2; --timeout 0 for none\) or give smaller inputs \(--arg", first["detail"]), first
    assert 1.0 <= first["seconds"] < 30 and first["run_seconds"] == first["seconds"]  # measured, never 0.0
    # one budget per kernel: the later runs are skips that name the run that spent it, never failures
    rest = [c for c in checks if c["kind"] == "numeric" and c is not first]
    assert rest and all(c["status"] == "skip" and c["budget"] == 1.0 and c["detail"].startswith("not run: the cuda "
                        "wave 32 run (block) spent the kernel's budget") for c in rest)
    assert rc == 0 and not [c for c in checks if c["status"] == "fail"]  # a skip: not a pass, not a failure
    assert "still running" not in err  # no progress in json
    # --require makes the required backend's cut check a failure, and JUnit says why and the budget
    rc, out, err = kp_inproc("verify", f, "--no-cache", "--timeout", "1", "--schedules", "block", "--format",
                             "junit", "--require", "hip")
    assert rc == 1 and '<property name="budget_seconds" value="1" />' in out and "<skipped message=" in out
    assert re.search(r'<failure message="not run: the cuda wave 32 run \(block\) spent', out)


def test_a_loop_that_ends_passes_with_no_cut(tmp_path):
    f = _file(tmp_path, ENDS)
    rc, out, err = kp_inproc("verify", f, "--no-cache", "--timeout", "60", "--schedules", "block", "--format", "json")
    checks = _checks(out)
    numeric = [c for c in checks if c["kind"] == "numeric"]
    assert rc == 0 and numeric and all(c["status"] == "pass" for c in numeric), numeric
    assert all(c["budget"] is None for c in checks) and all(c["seconds"] > 0 for c in numeric)


def test_the_default_budget_applies_without_timeout(tmp_path, monkeypatch):
    f = _file(tmp_path, ENDLESS)
    monkeypatch.setattr(check_budget, "DEFAULT_SECONDS", 1.0)  # (300 s: waited for here, a second)
    rc, out, err = kp_inproc("verify", f, "--no-cache", "--schedules", "block")
    assert rc == 0, out[-2000:]
    assert re.search(r"^cut .*spin\.cu:14:5: cut after 1\.\d s: .* its 1 s budget ran out", out, re.M), out[-2000:]
    assert re.search(r"\(1 cut by the time budget, \d+ not run after it: --timeout\)", out), out[-500:]


def test_timeout_zero_is_no_budget_and_a_negative_one_is_refused(tmp_path):
    assert check_budget.resolve(None) == check_budget.DEFAULT_SECONDS
    assert check_budget.resolve(0) is None and check_budget.resolve(2.5) == 2.5
    f = tmp_path / "k.cu"
    f.write_text(kernel())
    rc, out, err = kp_inproc("verify", f, "--timeout", "-1")
    assert rc == 2 and "--timeout -1 is not a number of seconds" in err and "--timeout 0 for no budget" in err


def test_a_cut_check_is_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    f = _file(tmp_path, ENDLESS)
    for _ in range(2):  # the second run emulates again: a larger budget, or less load, may see it end
        rc, out, err = kp_inproc("verify", f, "--timeout", "1", "--schedules", "block", "--format", "json")
        cut = [c for c in _checks(out) if c["budget"] is not None]
        assert cut and not any(c["cached"] for c in cut)
    (tmp_path / "ends").mkdir()
    g = _file(tmp_path / "ends", ENDS)
    for cached in (False, True):  # the look-alike's verdicts are cached as before
        rc, out, err = kp_inproc("verify", g, "--timeout", "60", "--schedules", "block", "--format", "json")
        assert {c["cached"] for c in _checks(out) if c["kind"] == "numeric"} == {cached}


SPIN = r"""
__global__ void spin(float* x) {
    for (;;) { __syncthreads(); }
}"""


def test_progress_names_the_loop_only_when_asked(monkeypatch, capsys):
    monkeypatch.setattr(check_budget, "PROGRESS_AFTER", 0.1)
    args = dict(x=np.zeros(256, np.float32))
    with pytest.raises(TimedOut):
        run_kernel(SPIN, "spin", args=args, grid=(1, 1, 1), block=(256, 1, 1), max_steps=10 ** 12, timeout=0.5)
    assert "still running" not in capsys.readouterr().err
    monkeypatch.setenv(check_budget.PROGRESS_ENV, "1")
    with pytest.raises(TimedOut) as ei:
        run_kernel(SPIN, "spin", args=args, grid=(1, 1, 1), block=(256, 1, 1), max_steps=10 ** 12, timeout=0.5)
    err = capsys.readouterr().err
    assert re.search(r"verify: still running `spin` of <kernel> \(wave 32, block schedule\) after 0 s \(budget "
                     r"0\.5 s\), in the loop at <kernel>:3:5, \d+ loop iterations so far", err), err
    assert (ei.value.line, ei.value.column, ei.value.site, ei.value.seconds) == (3, 5, "loop", 0.5)


def test_a_grid_with_no_loop_is_cut_between_blocks():
    src = r"""
__global__ void put(float* x) {
    x[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}"""
    with pytest.raises(TimedOut) as ei:  # a budget spent before the first block: cut there, at the kernel
        run_kernel(src, "put", args=dict(x=np.zeros(1 << 16, np.float32)), grid=(256, 1, 1), block=(256, 1, 1),
                   timeout=1e-9, max_lanes=1 << 10)
    assert ei.value.site.startswith("kernel (between blocks, at block 0 of 256)") and ei.value.line == 2
    ok = run_kernel(src, "put", args=dict(x=np.zeros(1 << 16, np.float32)), grid=(256, 1, 1), block=(256, 1, 1),
                    timeout=60, max_lanes=1 << 10)
    assert (ok.outputs["x"] == 1).all()


def test_a_port_cut_where_the_original_ended_is_a_located_skip(tmp_path, monkeypatch):
    from pathlib import Path

    from kernelport import emulator
    from kernelport.verify import Verifier
    real = emulator.run_kernel

    def slow_port(*a, **kw):  # a port's run that never ends (as a wave-64 spin would), the original's ends
        if kw.get("port_of") and kw["wave"] == 64:
            raise TimedOut("ran past its 2 s budget (verify --timeout) in this loop", kw["path"], 14, 5,
                           seconds=2.0, elapsed=2.01, steps=99)
        return real(*a, **kw)
    monkeypatch.setattr(emulator, "run_kernel", slow_port)
    f = _file(tmp_path, ENDS)
    rep = Verifier(schedules=("block", "warp"), cache=False, oracle="original", timeout=2.0).verify(Path(f))
    numeric = [c for c in rep.checks if c.kind == "numeric"]
    cut = [c for c in numeric if c.budget is not None]
    assert cut and all(c.status == "skip" for c in cut) and not rep.failed
    assert re.search(r"spin\.(hip|portable\.cu):14:5: cut after 2\.0 s: the (hip|portable) wave 64 run \(block\) of "
                     r"`scale` was in the loop at 14:5 when its 2 s budget ran out, after 99 loop iterations; raise "
                     r"the budget \(--timeout 4; .* \(the original ran in \d+\.\d s\)", cut[0].detail), cut[0].detail
    assert all("spent the kernel's budget" in c.detail for c in cut[1:])
    # the oracle itself ran and passed: the cut is the port's, and each later port run names it
    assert [c.status for c in rep.checks if c.kind == "oracle"] == ["pass"] and len(cut) == len(numeric) > 2
