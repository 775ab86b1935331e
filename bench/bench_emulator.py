"""Emulator throughput: elements per second for the issue's reference kernels.

    PYTHONPATH=. python bench/bench_emulator.py [--repeat N] [--no-error-bound]

Targets (2-core machine): vector add 2^20 >= 1e8/s, block tree reduction 2^18 >= 2e7/s,
warp-shuffle reduction at W=32 and W=64 >= 2e7/s, thread-at-a-time schedule >= 2e6/s.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

from kernelport.emulator import run_kernel

VADD = r"""
__global__ void vadd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""

BLOCK_SUM = r"""
#define BLOCK 256
__global__ void block_sum(const float* x, float* out, int n) {
    __shared__ float s[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (tid < k) s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
"""

WARP_SUM = r"""
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
__global__ void warp_reduce(const float* x, float* out, int n) {
    __shared__ float partial[32];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    float v = (i < n) ? x[i] : 0.0f;
    v = warp_sum(v);
    int lane = tid % warpSize, wid = tid / warpSize;
    if (lane == 0) partial[wid] = v;
    __syncthreads();
    if (wid == 0) {
        v = (lane < blockDim.x / warpSize) ? partial[lane] : 0.0f;
        v = warp_sum(v);
        if (lane == 0) out[blockIdx.x] = v;
    }
}
"""

# a per-thread local array filled then read, and a local assigned on both paths: what values never written
# (emulator/undefined.py) track on the common path, where every value ends up written
LOCAL_SUM = r"""
__global__ void local_sum(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n / 8) return;
    float t[8];
    for (int k = 0; k < 8; ++k) t[k] = x[8 * i + k];
    float s;
    if (t[0] > 0.0f) s = t[0]; else s = -t[0];
    for (int k = 1; k < 8; ++k) s += t[k] * t[k];
    out[i] = s;
}
"""


def local_sum_case(x):
    """(args, expected) of LOCAL_SUM over x (8 floats per thread)."""
    r = x.reshape(-1, 8).astype(np.float64)
    return dict(x=x, out=np.zeros(x.size // 8, np.float32), n=x.size), np.abs(r[:, 0]) + (r[:, 1:] ** 2).sum(1)


def bench(name, src, kernel, n, block, args, out, expect, repeat, **kw):
    grid = ((n + block - 1) // block, 1, 1)
    best = cpu = float("inf")
    res = None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        res = run_kernel(src, kernel, args=args, grid=grid, block=(block, 1, 1), **kw)
        best = min(best, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)  # a loaded machine stretches wall time, not CPU time
    ok = np.allclose(res.outputs[out], expect, rtol=1e-5, atol=1e-3)
    return name, n, best, cpu, n / cpu, ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5, help="runs per kernel; the best is reported")
    ap.add_argument("--no-error-bound", action="store_true")
    ap.add_argument("--no-races", action="store_true")
    a = ap.parse_args()
    kw = dict(error_bound=not a.no_error_bound, check_races=not a.no_races)
    rng = np.random.default_rng(0)
    rows = []
    run_kernel(VADD, "vadd", args=dict(a=np.zeros(1, np.float32), b=np.zeros(1, np.float32),
                                       c=np.zeros(1, np.float32), n=1), grid=(1, 1, 1), block=(32, 1, 1))  # warm-up
    n = 1 << 20
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    rows.append(bench("vector add", VADD, "vadd", n, 256, dict(a=x, b=y, c=np.zeros(n, np.float32), n=n), "c",
                      x + y, a.repeat, **kw) + (1e8,))
    n = 1 << 18
    x = rng.integers(-8, 8, n).astype(np.float32)
    ref = x.reshape(-1, 256).sum(1)
    rows.append(bench("block tree reduction", BLOCK_SUM, "block_sum", n, 256,
                      dict(x=x, out=np.zeros(n // 256, np.float32), n=n), "out", ref, a.repeat, **kw) + (2e7,))
    for W in (32, 64):
        rows.append(bench(f"warp-shuffle reduction W={W}", WARP_SUM, "warp_reduce", n, 256,
                          dict(x=x, out=np.zeros(n // 256, np.float32), n=n), "out", ref, a.repeat, wave=W, **kw)
                    + (2e7,))
    rows.append(bench("block reduction, warp schedule", BLOCK_SUM, "block_sum", n, 256,
                      dict(x=x, out=np.zeros(n // 256, np.float32), n=n), "out", ref, a.repeat, schedule="warp",
                      **kw) + (None,))
    rows.append(bench("block reduction, thread schedule", BLOCK_SUM, "block_sum", n, 256,
                      dict(x=x, out=np.zeros(n // 256, np.float32), n=n), "out", ref, a.repeat, schedule="thread",
                      **kw) + (2e6,))
    rows.append(bench("warp-shuffle W=32, thread schedule", WARP_SUM, "warp_reduce", n, 256,
                      dict(x=x, out=np.zeros(n // 256, np.float32), n=n), "out", ref, a.repeat, schedule="thread",
                      **kw) + (2e6,))
    args, ref = local_sum_case(x)
    rows.append(bench("local array + both-path local", LOCAL_SUM, "local_sum", n // 8, 256, args, "out", ref, a.repeat,
                      **kw) + (None,))
    try:
        load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    print(f"best of {a.repeat} runs; error bounds {'off' if a.no_error_bound else 'on'}, race detection "
          f"{'off' if a.no_races else 'on'}; load average {load} on {os.cpu_count()} cores")
    print("elements per CPU-second (the figure to read on a loaded machine; wall seconds drift with the load)")
    print(f"{'kernel':38s} {'elements':>9s} {'wall s':>9s} {'CPU s':>9s} {'elements/s':>12s} {'target':>9s}  ok")
    for name, n, t, cpu, rate, ok, target in rows:
        tgt = f"{target:.0e}" if target else "-"
        mark = "" if target is None else ("  (meets)" if rate >= target else "  (BELOW)")
        print(f"{name:38s} {n:9d} {t:9.4f} {cpu:9.4f} {rate:12.3e} {tgt:>9s}  {'yes' if ok else 'NO'}{mark}")


if __name__ == "__main__":
    main()
