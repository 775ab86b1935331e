"""Budgets (issue 16): one step budget per emulator run (every loop of every lane group counted
against it), one per kernel in verify (a run that spent it is not repeated under the other
schedules and backends), and `verify --timeout` (a check past it is a skip, naming the budget and
the loop it was spent in; a reference that does not return is a skip too, located: tests/test_verify_budget.py)."""
from __future__ import annotations

import json
import re
import time

import numpy as np
import pytest

from kernelport.emulator import BudgetExceeded, run_kernel
from trust_support import kernel, kp_inproc

SPIN = r"""
__global__ void spin(float* x) {
    for (;;) { __syncthreads(); }
}"""


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_an_endless_barrier_loop_spends_one_budget_for_the_whole_run(schedule):
    # 64 blocks x 256 threads: per lane group the old budget let every warp or thread loop a
    # million times before any reported it (minutes); the run's one budget stops it in seconds
    t0 = time.process_time()
    with pytest.raises(BudgetExceeded) as ei:
        run_kernel(SPIN, "spin", args=dict(x=np.zeros(16384, np.float32)), grid=(64, 1, 1), block=(256, 1, 1),
                   schedule=schedule, max_steps=20_000)
    assert "step budget of 20000 loop iterations for the whole run" in ei.value.message and ei.value.line == 3
    assert time.process_time() - t0 < 20


def test_a_finite_loop_runs_on_exactly_its_budget():
    # the look-alike: a loop that ends is never stopped by a budget it fits in, and one step less stops it
    src = r"""
    __global__ void acc(float* x) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        for (int k = 0; k < 100; ++k) x[i] += 1.0f;
    }"""
    args = dict(x=np.zeros(2 * 64, np.float32))
    for schedule in ("block", "warp", "thread"):
        r = run_kernel(src, "acc", args=args, grid=(2, 1, 1), block=(64, 1, 1), schedule=schedule)
        assert (r.outputs["x"] == 100).all() and r.steps >= 100
        again = run_kernel(src, "acc", args=args, grid=(2, 1, 1), block=(64, 1, 1), schedule=schedule,
                           max_steps=r.steps)
        assert (again.outputs["x"] == 100).all()
        with pytest.raises(BudgetExceeded):
            run_kernel(src, "acc", args=args, grid=(2, 1, 1), block=(64, 1, 1), schedule=schedule,
                       max_steps=r.steps - 1)


def test_a_run_past_its_wall_clock_budget_names_it_and_the_loop():
    with pytest.raises(BudgetExceeded) as ei:
        run_kernel(SPIN, "spin", args=dict(x=np.zeros(256, np.float32)), grid=(1, 1, 1), block=(256, 1, 1),
                   schedule="thread", max_steps=10 ** 12, timeout=0.5)
    assert "ran past its 0.5 s budget (verify --timeout) in this loop" in ei.value.message and ei.value.line == 3


def _spin_kernel() -> str:
    return kernel(n="256").replace("    if (i < n) y[i] = a * x[i];", "    for (;;) { __syncthreads(); }\n"
                                   "    if (i < n) y[i] = a * x[i];")


def test_verify_spends_one_budget_per_kernel_and_names_where(tmp_path):
    f = tmp_path / "spin.cu"
    f.write_text(_spin_kernel())
    t0 = time.perf_counter()
    rc, out, err = kp_inproc("verify", f, "--no-cache", "--timeout", "1", "--format", "json")
    assert rc == 1 and "internal error" not in out + err  # (rc 1: the ports are not written, drift fails)
    numeric = [c for c in json.loads(out)[0]["checks"] if c["kind"] == "numeric"]
    first = numeric[0]
    assert first["status"] == "skip" and re.search(r"spin\.cu:14:5: cut after 1\.\d s: the cuda wave 32 run "
                                                   r"\(block\) of `scale` was in the loop at 14:5", first["detail"])
    assert len(numeric) > 3 and all(c["status"] == "skip" and "not run: the cuda wave 32 run (block) spent the "
                                    "kernel's budget" in c["detail"] for c in numeric[1:])
    assert time.perf_counter() - t0 < 60  # one spent run, not one per schedule and backend


def test_verify_timeout_is_checked(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(kernel())
    rc, out, err = kp_inproc("verify", f, "--timeout", "nan")
    assert rc == 2 and "--timeout nan is not a number of seconds" in err


@pytest.mark.parametrize("native", [True, False])
def test_a_reference_that_never_returns_is_cut_located(tmp_path, native):
    f = tmp_path / "k.cu"
    f.write_text(kernel(n="64").replace("    for (int i = 0; i < n; ++i) y[i] = a * x[i];",
                                        "    for (;;) {}"))
    rc, out, err = kp_inproc("verify", f, "--no-cache", "--timeout", "2", "--schedules", "block",
                             *(() if native else ("--no-native-reference",)))
    assert "internal error" not in out + err
    assert re.search(r"cut .*reference: .*k\.cu:9:\d+: cut after 2\.0 s: the reference scale_ref had not returned "
                     r"when its 2 s budget ran out; raise the budget .*KERNELPORT_REFERENCE_TIMEOUT", out), out[-2000:]
