"""Lines per second of `kernelport lint` on a large generated CUDA corpus.

    python bench/bench_lint.py [--lines 200000] [--files 400] [--jobs N]

The corpus mixes the shapes real code has: warp reductions and scans with hardcoded 32s, their
portable `warpSize` twins, tiles and bitsets (look-alikes), block reductions with barriers, host
launch code, templates and namespaces.  It prints the figure for one process and for all cores.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kernelport.lint.config import Overrides  # noqa: E402
from kernelport.lint.engine import lint_paths  # noqa: E402

UNITS = [
    """
#define WARP_SIZE_{i} 32
namespace ns{i} {{
template <typename T>
__device__ T warp_sum_{i}(T v) {{
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}}
template <typename T, int BLOCK>
__global__ void reduce_{i}(const T* __restrict__ x, T* out, int n) {{
    __shared__ T partial[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    T v = 0;
    for (int j = blockIdx.x * BLOCK + threadIdx.x; j < n; j += BLOCK * gridDim.x) v += x[j];
    v = warp_sum_{i}(v);
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (warp == 0) {{
        v = (lane < BLOCK / WARP_SIZE_{i}) ? partial[lane] : T(0);
        v = warp_sum_{i}(v);
        if (lane == 0) atomicAdd(out, v);
    }}
}}
}}  // namespace ns{i}
""",
    """
__global__ void scan_{i}(const float* x, float* y, int n) {{
    int lane = threadIdx.x % warpSize;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? x[i] : 0.0f;
    for (int d = 1; d < warpSize; d *= 2) {{
        float t = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d) v += t;
    }}
    if (i < n) y[i] = v;
}}
""",
    """
#define TILE_{i} 32
__global__ void transpose_{i}(float* o, const float* in, int w, int h) {{
    __shared__ float tile[TILE_{i}][TILE_{i} + 1];
    int x = blockIdx.x * TILE_{i} + threadIdx.x, y = blockIdx.y * TILE_{i} + threadIdx.y;
    for (int j = 0; j < TILE_{i}; j += 8)
        if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE_{i} + threadIdx.x; y = blockIdx.x * TILE_{i} + threadIdx.y;
    for (int j = 0; j < TILE_{i}; j += 8)
        if (x < h && y + j < w) o[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}}
__global__ void bitset_{i}(const float* x, unsigned* bits, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > 0.5f) atomicOr(&bits[i >> 5], 1u << (i & 31));
}}
""",
    """
__global__ void compact_{i}(const float* in, float* out, int* counts, int n) {{
    __shared__ int wc[32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int keep = i < n && in[i] > 0.0f;
    unsigned mask = __ballot_sync(0xffffffff, keep);
    int rank = __popc(mask & ((1u << lane) - 1));
    if (lane == 0) wc[warp] = __popc(mask);
    __syncthreads();
    if (keep) out[blockIdx.x * blockDim.x + rank] = in[i];
    if (threadIdx.x == 0) counts[blockIdx.x] = wc[0];
}}
void launch_compact_{i}(const float* in, float* out, int* counts, int n) {{
    int threads = 256;
    int warps = threads / 32;
    compact_{i}<<<(n + threads - 1) / threads, threads, warps * sizeof(int)>>>(in, out, counts, n);
}}
""",
    """
__global__ void block_reduce_{i}(const float* x, float* out, int n) {{
    __shared__ float s[256];
    unsigned tid = threadIdx.x;
    s[tid] = (blockIdx.x * blockDim.x + tid < n) ? x[blockIdx.x * blockDim.x + tid] : 0.0f;
    __syncthreads();
    for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {{
        if (tid < st) s[tid] += s[tid + st];
        __syncthreads();
    }}
    if (tid == 0) out[blockIdx.x] = s[0];
}}
""",
]


def generate(root: Path, lines: int, files: int) -> int:
    per_file = max(1, lines // files)
    total, k = 0, 0
    for f in range(files):
        parts, n = [f"// generated corpus file {f}\n#include <cuda_runtime.h>\n"], 2
        while n < per_file:
            text = UNITS[k % len(UNITS)].format(i=k)
            parts.append(text)
            n += text.count("\n")
            k += 1
        (root / f"k{f:04}.cu").write_text("".join(parts))
        total += n
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=200_000)
    ap.add_argument("--files", type=int, default=400)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        total = generate(root, args.lines, args.files)
        for jobs in sorted({1, args.jobs}):
            t0 = time.perf_counter()
            results = lint_paths([root], Overrides(), jobs=jobs)
            dt = time.perf_counter() - t0
            findings = sum(len(r.findings) for r in results)
            print(f"kernelport lint: {total} lines in {len(results)} files, {findings} findings, "
                  f"{jobs} process{'es' if jobs != 1 else ''}: {dt:.2f} s = {total / dt:,.0f} lines/s")


if __name__ == "__main__":
    main()
