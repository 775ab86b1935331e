#!/usr/bin/env python3
"""The HIP prologue's directed-rounding helpers (kp_rnd_*, templates/hip_prologue.j2) against CUDA's own
intrinsics, bit for bit, on an NVIDIA GPU: the helpers are plain device C++ (nvcc compiles them with
contraction off, as their pragma asks of clang), so one kernel computes both for every operand.

    python bench/device/directed_rounding.py [--n 16777216] [--arch sm_90]

Writes directed_rounding_check.cu beside a temporary build, compiles it with nvcc -fmad=false and runs it;
prints, per intrinsic, the operands it checked and how many results differ (0 is the pass), and exits 1
on any difference. Operands: random bit patterns, random moderate values, near-cancelling sums and products
whose results are subnormal or overflow (the same families as tests/test_directed_rounding.py, in bulk)."""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODES = {"rd": "-1", "ru": "1", "rz": "0"}
F64 = [("__dadd", 2), ("__dsub", 2), ("__dmul", 2), ("__ddiv", 2), ("__drcp", 1), ("__dsqrt", 1), ("__fma", 3)]
F32 = [("__fadd", 2), ("__fsub", 2), ("__fmul", 2), ("__fmaf", 3), ("__fdiv", 2), ("__frcp", 1), ("__fsqrt", 1)]

KERNEL = r"""
#include <cstdio>
#include <cstdint>
#include <cstring>
#define KP_HAVE_HELPERS
__device__ inline unsigned long long mix(unsigned long long x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33; return x;
}
__device__ double pick64(unsigned long long r, int k) {
    unsigned long long u = mix(r * 3 + k);
    int fam = (int)(mix(r) % 4);
    if (fam == 0) return __longlong_as_double((long long)u);                        // any bits
    double m = 1.0 + (double)(u >> 11) * 0x1p-53, s = (u & 1) ? -m : m;
    if (fam == 1) return ldexp(s, (int)(u % 61) - 30);                              // moderate
    if (fam == 2) return ldexp(s, (int)(u % 120) - 1100 / (k + 1));                 // tiny: subnormal results
    return ldexp(s, 1020 - (int)(u % 8));                                           // huge: overflow
}
__device__ float pick32(unsigned long long r, int k) {
    unsigned long long u = mix(r * 3 + k);
    int fam = (int)(mix(r) % 4);
    if (fam == 0) return __int_as_float((int)u);
    float m = 1.0f + (float)(u >> 41) * 0x1p-23f, s = (u & 1) ? -m : m;
    if (fam == 1) return ldexpf(s, (int)(u % 61) - 30);
    if (fam == 2) return ldexpf(s, (int)(u % 40) - 150 / (k + 1));
    return ldexpf(s, 126 - (int)(u % 8));
}
__device__ bool same64(double a, double b) { return (a != a && b != b) || __double_as_longlong(a) == __double_as_longlong(b); }
__device__ bool same32(float a, float b) { return (a != a && b != b) || __float_as_int(a) == __float_as_int(b); }
__global__ void check(unsigned long long n, unsigned long long* bad) {
    for (unsigned long long r = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; r < n;
         r += (unsigned long long)gridDim.x * blockDim.x) {
        double a = pick64(r, 0), b = pick64(r, 1), c = pick64(r, 2);
        if (mix(r) % 7 == 0) c = -(a * b);  // near cancellation
        float fa = pick32(r, 0), fb = pick32(r, 1), fc = pick32(r, 2);
        if (mix(r) % 7 == 0) fc = -(fa * fb);
        int i = 0;
@CHECKS@
    }
}
int main(int argc, char** argv) {
    unsigned long long n = argc > 1 ? strtoull(argv[1], 0, 10) : (1ull << 24), *bad;
    const int K = @NCHECKS@;
    cudaMallocManaged(&bad, K * sizeof(unsigned long long));
    memset(bad, 0, K * sizeof(unsigned long long));
    check<<<1024, 256>>>(n, bad);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("CUDA error: %s\n", cudaGetErrorString(e)); return 2; }
    const char* names[] = {@NAMES@};
    unsigned long long total = 0;
    for (int k = 0; k < K; ++k) { printf("%-10s %llu operand sets, %llu differ\n", names[k], n, bad[k]); total += bad[k]; }
    printf("total differing: %llu\n", total);
    return total != 0;
}
"""


def helpers() -> str:
    text = (ROOT / "templates/hip_prologue.j2").read_text()
    out = []
    for guard in ("KP_HAVE_ROUND_TO_ZERO", "KP_HAVE_DIRECTED_ROUNDING"):
        out.append(re.search(rf"#define {guard}\n(.*?)\n#endif", text, re.S).group(1))
    return "\n".join(out)


def source() -> str:
    rows = {l.split("\t")[0]: l.split("\t")[1] for l in (ROOT / "kernelport/backends/hip_api.tsv").read_text().splitlines()
            if l and not l.startswith("#")}
    checks, names = [], []
    for ops, t, args, same in ((F64, "double", ("a", "b", "c"), "same64"), (F32, "float", ("fa", "fb", "fc"), "same32")):
        for op, n in ops:
            for m in MODES:
                name = f"{op}_{m}"
                port = rows[name].format(*args[:n])
                cuda = f"{name}({', '.join(args[:n])})"
                checks.append(f"        if (!{same}({port}, {cuda})) atomicAdd(&bad[i], 1ull); ++i;")
                names.append(f'"{name}"')
    return helpers() + KERNEL.replace("@CHECKS@", "\n".join(checks)) \
        .replace("@NCHECKS@", str(len(checks))).replace("@NAMES@", ", ".join(names))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1 << 24)
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--write", type=Path, help="only write the .cu here (no build, no run)")
    a = ap.parse_args()
    src = source()
    if a.write:
        a.write.write_text(src)
        return 0
    with tempfile.TemporaryDirectory() as d:
        cu, exe = Path(d) / "directed_rounding_check.cu", Path(d) / "check"
        cu.write_text(src)
        subprocess.run(["nvcc", "-O2", "-fmad=false", f"-arch={a.arch}", "-o", str(exe), str(cu)], check=True)
        return subprocess.run([str(exe), str(a.n)]).returncode


if __name__ == "__main__":
    sys.exit(main())
