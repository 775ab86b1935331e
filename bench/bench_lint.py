"""Lines per second of `kernelport lint`, beside a bare tree-sitter parse of the same files.

    python bench/bench_lint.py [--sizes 1000,13600,136000] [--files 225] [--tree-lines 65908] [--jobs N]

Generated inputs (the shapes real code has: warp reductions and scans with hardcoded 32s, their
portable `warpSize` twins, tiles and bitsets, block reductions with barriers, host launch code,
templates and namespaces): one file of each size, to show lint is linear in file size, and a tree
of --files files, for throughput and `-j N` against `-j 1`.  Every figure is measured in this run
beside its reference: a bare parse (tree-sitter, no analysis) and hipify-perl where installed.
CPU seconds are the figure to read on a loaded machine; wall seconds drift with other processes.
"""
from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
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


def bare_parse_cpu(files: list[Path]) -> float:
    """CPU seconds of tree-sitter parsing these files, nothing else (the floor for any linter)."""
    from kernelport.source import _parser
    parser = _parser()
    datas = [f.read_bytes() for f in files]
    t0 = time.process_time()
    for d in datas:
        parser.parse(d)
    return time.process_time() - t0


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def lint_once(paths: list[Path], jobs: int) -> tuple[float, float, int]:
    """(wall s, CPU s of this process and its workers, findings)."""
    w0, c0, k0 = time.perf_counter(), time.process_time(), children_cpu()
    results = lint_paths(paths, Overrides(), jobs=jobs)
    wall = time.perf_counter() - w0
    return wall, time.process_time() - c0 + children_cpu() - k0, sum(len(r.findings) for r in results)


def hipify(files: list[Path]) -> str:
    tool = shutil.which("hipify-perl")
    if tool is None:
        return "hipify-perl: not installed on this machine (no figure)"
    c0, w0 = children_cpu(), time.perf_counter()
    for f in files:
        subprocess.run([tool, str(f)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return f"hipify-perl: {time.perf_counter() - w0:.2f} s wall, {children_cpu() - c0:.2f} s CPU"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,13600,136000", help="lines of each single generated file")
    ap.add_argument("--files", type=int, default=225)
    ap.add_argument("--tree-lines", type=int, default=65_908)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    from kernelport.lint.rule import all_rules
    all_rules()  # imports are start-up, not throughput (bench_startup.py measures them)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        for size in (int(x) for x in args.sizes.split(",") if x):
            one = root / f"one{size}"
            one.mkdir()
            total = generate(one, size, 1)
            files = sorted(one.iterdir())
            parse = bare_parse_cpu(files)
            wall, cpu, found = lint_once([one], 1)
            print(f"lint one file, {total:>7,} lines: {cpu:7.2f} s CPU ({wall:6.2f} s wall) = {total / cpu:>7,.0f} lines "
                  f"per CPU-s; bare parse {parse:.3f} s: lint/parse {cpu / max(parse, 1e-9):.0f}x; {found} findings")
        tree = root / "tree"
        tree.mkdir()
        total = generate(tree, args.tree_lines, args.files)
        files = sorted(tree.iterdir())
        parse = bare_parse_cpu(files)
        for jobs in sorted({1, args.jobs}):
            wall, cpu, found = lint_once([tree], jobs)
            print(f"lint {len(files)} files, {total:,} lines, -j {jobs}: {cpu:6.2f} s CPU, {wall:6.2f} s wall = "
                  f"{total / cpu:,.0f} lines per CPU-s, {total / wall:,.0f} lines/s wall; bare parse {parse:.3f} s "
                  f"CPU: lint/parse {cpu / max(parse, 1e-9):.0f}x; {found} findings")
        print(hipify(files))
        print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
