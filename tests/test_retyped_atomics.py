"""`atomicAnd/Or/Xor(long long*, long long)` (kernelport/retyped_calls.py, backend data `retyped_pointer_calls`).

CUDA declares these (and the `_block`, `_system` forms) for long long; ROCm 5.2 has them for
unsigned long long only, so FPcompress's speed decompressors' `atomicOr_block((long long*)&out[i],
(long long)v)` did not compile on HIP. The port now goes through unsigned long long (the same 64
bits), converting the old value back where it is used; a pointer whose type is not plainly long long
is left as written.
"""
from __future__ import annotations

import os
import subprocess

from conftest import require_tool
from port_support import port_text

SIGNED = """#include <cuda_runtime.h>
__global__ void k(long long* out, const unsigned int* in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const long long v = (long long)in[i] << (i % 33);
    atomicOr_block((long long*)&out[i / 64], (long long)v);
    long long old = atomicAnd(&out[i % 7], ~v);
    if (atomicXor_system(out + 1, v) < 0) out[0] = old;
    long long int* q = reinterpret_cast<long long int*>(out + 2);
    atomicXor(q, 5);
}
"""


def test_long_long_bitwise_atomics_go_through_unsigned_long_long(tmp_path):
    whole = port_text(SIGNED, dedent=False)
    assert "  atomicOr((unsigned long long *)((long long*)&out[i / 64]), (unsigned long long)((long long)v));" \
        in whole, whole
    assert "old = ((long long)atomicAnd((unsigned long long *)(&out[i % 7]), (unsigned long long)(~v)));" \
        in whole, whole
    assert "if (((long long)atomicXor_system((unsigned long long *)(out + 1), (unsigned long long)(v))) < 0)" \
        in whole, whole
    assert "atomicXor((unsigned long long *)(q), (unsigned long long)(5));" in whole, whole
    hipcc = require_tool("hipcc")
    f = tmp_path / "t.hip"
    f.write_text(whole)
    for arch in ("gfx90a", "gfx1030"):
        r = subprocess.run([hipcc.path, "-x", "hip", "-std=c++17", f"--offload-arch={arch}", "--cuda-device-only",
                            "-Werror", "-c", str(f), "-o", str(tmp_path / f"t-{arch}.o")], capture_output=True,
                           text=True, env={**os.environ, "HIP_PLATFORM": "amd"})
        assert r.returncode == 0, r.stderr[-2000:]


def test_other_pointer_types_are_left_as_written():
    src = """#include <cuda_runtime.h>
template <typename T>
__global__ void k(unsigned long long* u, int* w, long long** pp, T* t) {
    atomicOr(u, 1ull);          // HIP has it
    atomicAnd(w, 3);            // int
    atomicXor(*pp, 1ll);        // not plainly a long long*: left as written
    atomicOr(t, (T)1);          // a template type
    atomicMin((long long*)u, 2ll);  // min of signed values is no bitwise operation
}
"""
    whole = port_text(src, dedent=False)
    assert "(unsigned long long *)" not in whole and "(unsigned long long)" not in whole, whole


def test_a_file_that_defines_its_own_atomicor_keeps_its_calls():
    whole = port_text("__device__ long long atomicOr(long long* p, long long v) { long long o = *p; *p |= v; return o; }\n"
                      "__global__ void k(long long* out) { atomicOr(out, 1ll); }\n", dedent=False)
    assert "unsigned long long" not in whole, whole
