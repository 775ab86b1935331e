"""`min`/`max` of an int and an unsigned int (kernelport/mixed_sign.py, backend data `mixed_sign_calls`).

CUDA overloads min/max for (int, unsigned int), taking the unsigned overload; ROCm 5's headers have
only same-type ones, so `sift[min(n - 1, blockIdx.x * 16 + ty)]` (a SIFT matcher's index) took the
float overload: hipcc "array subscript is not an integer", and elsewhere a silent float (another
value for a negative int). Both arguments are now converted to unsigned int where their types are
known to be one int and one unsigned int; anything else is left as written.
"""
from __future__ import annotations

import os
import subprocess

from conftest import require_tool
from port_support import port_text

MIXED = """#include <cuda_runtime.h>
struct Point { float data[4]; };
__global__ void k(const Point* pts, int n, float* out) {
    const int ty = threadIdx.y;
    const float* p = pts[min(n - 1, blockIdx.x * 16 + ty)].data;
    out[blockIdx.x] = p[0];
    unsigned int hi = max(n, threadIdx.x);
    out[threadIdx.x] = hi;
}
"""


def test_an_int_and_an_unsigned_take_cudas_unsigned_overload(tmp_path):
    whole = port_text(MIXED, dedent=False)
    assert "pts[min((unsigned int)(n - 1), (unsigned int)(blockIdx.x * 16 + ty))]" in whole, whole
    assert "max((unsigned int)(n), (unsigned int)(threadIdx.x))" in whole, whole
    hipcc = require_tool("hipcc")
    f = tmp_path / "t.hip"
    f.write_text(whole)
    for arch in ("gfx90a", "gfx1030"):
        r = subprocess.run([hipcc.path, "-x", "hip", "-std=c++17", f"--offload-arch={arch}", "--cuda-device-only",
                            "-c", str(f), "-o", str(tmp_path / f"t-{arch}.o")], capture_output=True, text=True,
                           env={**os.environ, "HIP_PLATFORM": "amd"})
        assert r.returncode == 0, r.stderr[-2000:]


def test_look_alikes_are_left_as_written():
    src = """#include <cuda_runtime.h>
#include <algorithm>
__global__ void k(int* out, int n, int m, float f, unsigned int u, unsigned int v) {
    out[0] = min(n, m);                // int, int: HIP has it
    out[1] = min(u, v);                // unsigned, unsigned
    out[2] = (int)min(f, 2.0f);        // float
    out[3] = min(n, u + f);            // an unsigned plus a float is no integer
    out[4] = max(n, 5);                // int, int literal
}
void host(int n, unsigned int u) { (void)std::min<long>(n, u); }
"""
    whole = port_text(src, dedent=False)
    assert "(unsigned int)" not in whole, whole


def test_a_file_that_defines_its_own_min_keeps_its_calls():
    whole = port_text("__device__ unsigned int min(int a, unsigned int b) { return a < 0 ? b : (a < b ? a : b); }\n"
                      "__global__ void k(unsigned int* out, int n) { out[0] = min(n, threadIdx.x); }\n", dedent=False)
    assert "(unsigned int)" not in whole, whole


def test_literal_types():
    from kernelport.mixed_sign import INT, UNSIGNED, _literal
    assert _literal("5") == INT and _literal("0x7fffffff") == INT
    assert _literal("5u") == UNSIGNED and _literal("0xffffffff") == UNSIGNED and _literal("7U") == UNSIGNED
    assert _literal("5l") is None and _literal("1.0f") is None and _literal("4294967296") is None
