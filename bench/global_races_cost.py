"""What the oracle's global race watch (emulator.global_races: write-write, read-write
(global_reads) and atomic order (atomic_order); run_kernel's global_races=True: the original's run
only) costs: one kernel of contiguous and scattered loads and stores (each thread reads back the
scattered location it stored: no race) over 2^18 threads, watched and not, alternated in one process.

    PYTHONPATH=. python -P bench/global_races_cost.py [--rounds 5]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from kernelport.emulator import run_kernel

SRC = r"""
__global__ void k(const float* x, float* y, float* z, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { y[i] = 2.0f * x[i]; z[(i * 7) % n] = y[i] + 1.0f; y[i] += z[(i * 7) % n]; }
}
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    rounds = ap.parse_args().rounds
    n = 1 << 18
    args = dict(x=np.random.default_rng(0).uniform(-1, 1, n).astype(np.float32), y=np.zeros(n, np.float32),
                z=np.zeros(n, np.float32), n=n)

    def once(on: bool) -> float:
        t = time.perf_counter()
        r = run_kernel(SRC, "k", args=args, grid=(n // 256, 1, 1), block=(256, 1, 1), global_races=on)
        assert not r.global_races
        return time.perf_counter() - t
    once(True), once(False)  # (compiled once, caches warm)
    got: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(rounds):
        for on in (True, False):
            got[on].append(once(on))
    for on in (True, False):
        t = sorted(got[on])
        print(f"{'watched' if on else 'not watched':<12} min {t[0]:.3f} s  median {t[len(t) // 2]:.3f} s  ({rounds} rounds)")


if __name__ == "__main__":
    main()
