#!/usr/bin/env python3
"""CPU seconds of test files on a reference checkout and on this one, in the same run: the two
compile-pipeline levers of stop 58 (a portable port against the PCH of its kp_warp.h; the Metal
checker against a PCH of metal_stdlib.h).

    nice -n 10 python bench/ci_pch58b.py [--ref main] [--reps N] FILE...
    nice -n 10 python bench/ci_pch58b.py --metal-checks 40    # CPU s a Metal check, PCH on / off

Each checkout's tests run with its own kernelport (the reference: `git archive REF` into a
temporary directory, first on PYTHONPATH), `pytest -q -n 0 -p no:cacheprovider`, a fresh PCH
directory and compile cache each run (conftest's session directories: the PCHs are built inside
the figure, as in one CI session), alternating reference / this checkout.  The figure is the
pytest process's CPU with its waited-for children (getrusage), robust to the machine's load;
the toolchain runs are counted by kernelport.compile_cache's log ($KERNELPORT_TOOL_LOG).
"""
from __future__ import annotations

import argparse
import collections
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(code: Path, files: list[str], log: Path) -> tuple[float, float, str, collections.Counter]:
    """(CPU s, wall s, pytest's last line, toolchain runs by tool and event) of `files` under `code`."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("KERNELPORT_PCH_DIR", "KERNELPORT_COMPILE_CACHE", "PYTEST_XDIST_WORKER")}
    env["PYTHONPATH"] = str(code)
    env["KERNELPORT_TOOL_LOG"] = str(log)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-P", "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
                           "--basetemp", tempfile.mkdtemp(prefix="pt-ci58b-bench-"), *files],
                          cwd=code, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    counts = collections.Counter()
    if log.exists():
        for line in log.read_text().splitlines():
            event, _, tool = line.partition("\t")
            counts[f"{tool} {event}"] += 1
    last = (proc.stdout.strip().splitlines() or ["(no output)"])[-1]
    return cpu, wall, last, counts


def metal_checks(n: int, reps: int = 2) -> None:
    """CPU seconds of one Metal check (this checkout), against the header's PCH and with the header
    read whole, alternating; each check of new bytes (no memo or cache answers)."""
    import uuid

    from kernelport import pch
    from kernelport.backends.metal.check import run_check
    src = ("#include <metal_stdlib>\nusing namespace metal;\nkernel void k(device float* a [[buffer(0)]], "
           "uint i [[thread_position_in_grid]]) { a[i] = fast::sin(a[i]) + simd_sum(a[i]); }\n")
    os.environ.pop("KERNELPORT_COMPILE_CACHE", None)
    with tempfile.TemporaryDirectory(prefix="kp-bench-pch-") as d:
        os.environ[pch.ENV] = d
        assert run_check(src, "k.metal").ok  # the PCH built outside the figure
        for _ in range(reps):
            for mode in (d, "off"):
                os.environ[pch.ENV] = mode
                r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                for _ in range(n):
                    assert run_check(src + f"// {uuid.uuid4().hex}\n", "k.metal").ok
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
                print(f"{'pch' if mode == d else 'header':>6}: {cpu / n:.4f} CPU s a check ({n} checks)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--metal-checks", type=int, default=0)
    ap.add_argument("--ref", default="main")
    ap.add_argument("--reps", type=int, default=1)
    args = ap.parse_args()
    if args.metal_checks:
        sys.path.insert(0, str(ROOT))
        metal_checks(args.metal_checks)
        return
    with tempfile.TemporaryDirectory(prefix="kp-bench-ref-") as ref:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.ref], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", ref], input=archive.stdout, check=True)
        sides = {args.ref: Path(ref), "this": ROOT}
        got = {name: [] for name in sides}
        for rep in range(args.reps):
            for name, code in sides.items():
                log = Path(tempfile.mkdtemp(prefix="kp-bench-log-")) / "tools.log"
                cpu, wall, last, counts = run(code, args.files, log)
                got[name].append(cpu)
                print(f"rep {rep + 1} {name:>6}: {cpu:7.1f} CPU s  {wall:7.1f} wall s  {last}", flush=True)
                print("    " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())), flush=True)
    ref_cpu, this_cpu = min(got[args.ref]), min(got["this"])
    print(f"best of {args.reps}: {args.ref} {ref_cpu:.1f} CPU s, this {this_cpu:.1f} CPU s "
          f"({this_cpu - ref_cpu:+.1f}, {this_cpu / ref_cpu:.2f}x); load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
