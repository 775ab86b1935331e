"""Start-up of the commands a pre-commit hook runs, beside bare Python start-up, in one run.

    python bench/bench_startup.py [--repeat 7]

Each figure is the best of N runs, wall and CPU (user+sys of the child): CPU time is what to read
on a loaded machine, where wall time drifts with the other processes.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(cmd: list[str], repeat: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(walls), min(cpus)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    py = sys.executable
    kp = [py, "-m", "kernelport"]
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; best of {args.repeat}")
    for name, cmd in [("python -c pass", [py, "-c", "pass"]),
                      ("python -c 'import typer' (the CLI's floor)", [py, "-c", "import typer"]),
                      ("kernelport lint examples/saxpy.cu (clean)", kp + ["lint", "examples/saxpy.cu"]),
                      ("kernelport --version", kp + ["--version"]),
                      ("kernelport lint examples/warp_reduce.cu", kp + ["lint", "examples/warp_reduce.cu"]),
                      ("kernelport lint --help", kp + ["lint", "--help"])]:
        wall, cpu = measure(cmd, args.repeat)
        print(f"{name:46} {wall:6.3f} s wall  {cpu:6.3f} s CPU")


if __name__ == "__main__":
    main()
