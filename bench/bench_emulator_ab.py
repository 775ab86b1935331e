"""Emulator throughput, this checkout against another one, interleaved run by run in one process.

    PYTHONPATH=. python bench/bench_emulator_ab.py OTHER_CHECKOUT [--rounds N] [--only TEXT]

On a shared, loaded machine a kernel's CPU seconds drift by 2x from one second to the next, and
two bench_emulator.py runs minutes apart compare the load more than the code.  Here the other
checkout's `kernelport` is imported under another name (its modules import each other
relatively) and every round runs each of bench_emulator.py's kernels once with each code, in
alternating order: both see the same load.  Printed per kernel: best and median elements per
CPU-second of each code, and the median of the per-round ratios (this / other).
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_emulator as B  # noqa: E402  (the kernels and their inputs)
from kernelport.emulator import run_kernel  # noqa: E402


def _import_other(checkout: Path):
    """The other checkout's kernelport, as the package `kernelport_other` (a copy in a temporary
    directory: its own compiled-code caches, no clash with this checkout's modules)."""
    tmp = Path(tempfile.mkdtemp(prefix="kp_ab_"))
    shutil.copytree(checkout / "kernelport", tmp / "kernelport_other",
                    ignore=shutil.ignore_patterns("__pycache__"))
    spec = importlib.util.spec_from_file_location("kernelport_other", tmp / "kernelport_other" / "__init__.py",
                                                  submodule_search_locations=[str(tmp / "kernelport_other")])
    mod = importlib.util.module_from_spec(spec)
    sys.modules["kernelport_other"] = mod
    spec.loader.exec_module(mod)
    return importlib.import_module("kernelport_other.emulator").run_kernel, tmp


# contracted a*b + c (one fma each) in a loop: emulator.fused's cost, float and double
FMA_LOOP = r"""
__global__ void horner(const T* x, T* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    T v = x[i], acc = (T)0.5;
    for (int k = 0; k < 16; ++k) acc = acc * v + (T)0.25;
    y[i] = acc;
}
"""


def cases():
    rng = np.random.default_rng(0)
    n = 1 << 20
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    yield "vector add", B.VADD, "vadd", n, dict(a=x, b=y, c=np.zeros(n, np.float32), n=n), {}
    n = 1 << 18
    x = rng.integers(-8, 8, n).astype(np.float32)

    def red():
        return dict(x=x, out=np.zeros(n // 256, np.float32), n=n)
    yield "block tree reduction", B.BLOCK_SUM, "block_sum", n, red(), {}
    for W in (32, 64):
        yield f"warp-shuffle reduction W={W}", B.WARP_SUM, "warp_reduce", n, red(), dict(wave=W)
    yield "block reduction, warp schedule", B.BLOCK_SUM, "block_sum", n, red(), dict(schedule="warp")
    yield "block reduction, thread schedule", B.BLOCK_SUM, "block_sum", n, red(), dict(schedule="thread")
    yield "warp-shuffle W=32, thread schedule", B.WARP_SUM, "warp_reduce", n, red(), dict(schedule="thread")
    yield "local array + both-path local", B.LOCAL_SUM, "local_sum", n // 8, B.local_sum_case(x)[0], {}
    n = 1 << 16
    for t, dt in (("float", np.float32), ("double", np.float64)):
        v = rng.uniform(-1, 1, n).astype(dt)
        yield f"fma loop (x16) {t}", f"typedef {t} T;" + FMA_LOOP, "horner", n, dict(x=v, y=np.zeros(n, dt), n=n), {}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("other", type=Path, help="the checkout to compare with (a `git worktree add` of the base)")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--only", default="", help="run only the kernels whose name holds this text")
    a = ap.parse_args()
    other, tmp = _import_other(a.other.resolve())
    runs = {"this": run_kernel, "other": other}
    try:
        print(f"{'kernel':36s} {'this best':>10s} {'other best':>10s} {'this med':>10s} {'other med':>10s} "
              f"{'ratio med':>9s}")
        for name, src, kernel, n, args, kw in cases():
            if a.only not in name:
                continue
            grid = ((n + 255) // 256, 1, 1)
            cpu = {k: [] for k in runs}
            for k, f in runs.items():  # warm-up: lowering and compiling, once per code
                f(src, kernel, args=args, grid=grid, block=(256, 1, 1), **kw)
            for r in range(a.rounds):
                for k in (("this", "other") if r % 2 == 0 else ("other", "this")):
                    c0 = time.process_time()
                    runs[k](src, kernel, args=args, grid=grid, block=(256, 1, 1), **kw)
                    cpu[k].append(time.process_time() - c0)
            rate = {k: sorted(n / t for t in v) for k, v in cpu.items()}
            ratio = sorted(o / t for t, o in zip(cpu["this"], cpu["other"]))
            med = len(ratio) // 2
            print(f"{name:36s} {rate['this'][-1]:10.3e} {rate['other'][-1]:10.3e} {rate['this'][med]:10.3e} "
                  f"{rate['other'][med]:10.3e} {ratio[med]:9.2f}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{a.rounds} rounds, each code once per round in alternating order; elements per CPU-second; "
          f"load average {load} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
