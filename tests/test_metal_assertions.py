"""Device-side `assert(e)` and `__trap()` in a Metal port (kernelport/backends/metal/assertions.py): Metal
cannot stop a kernel, so a false `e` records the call's number in a `device atomic_uint` the kernel
receives and the sidecar describes for the host (CUDA's launch would have failed there).  Before:
KP223 at each call (llm.c's dev/cuda kernels: `assert(blockDim.x == WarpSize)`, `assert(T % 4 == 0)`).
Ports type-checked by kernelport's Metal checker only (no Metal compiler runs on Linux)."""
from __future__ import annotations

import json
import re
import textwrap

import numpy as np
import pytest

from kernelport.emulator.errors import KernelFault
from kernelport.emulator.run import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked
except ImportError:  # pragma: no cover
    from conftest import metal_checked

CODE = """
#include <cassert>
__device__ float at(const float* x, int i, int n)
{
    assert(i < n);
    return x[i];
}
__global__ void k(float* out, const float* x, int n, int T)
{
    assert(T % 4 == 0);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) __trap();
    out[i] = at(x, i, n);
}
"""


def metal(code: str, **kw):
    return translate(SourceFile.from_text(textwrap.dedent(code), "a.cu"), "metal", **kw)


def test_asserts_in_a_kernel_and_its_helper_write_the_kernels_flag():
    # Re-pinned at stop 44: the kernel's own checks return where they fail (no thread of k waits for another),
    # the helper's goes on (its caller continues: the host's check of the flag is what stops the results)
    out = metal_checked(CODE)
    assert "{ if (!kp_assert(T % 4 == 0, 2u, kp_assert_failed)) return; }" in out
    assert "if (i >= n) { if (!kp_assert(false, 3u, kp_assert_failed)) return; }" in out
    assert "kp_assert(i < n, 1u, kp_assert_failed);" in out
    # the flag after the kernel's own buffers, passed on to the helper that asserts
    assert "constant int& T [[buffer(3)]],\n              device atomic_uint* kp_assert_failed [[buffer(4)]]" in out
    assert "float at(const device float* x, int i, int n, device atomic_uint* kp_assert_failed)" in out
    assert "out[i] = at(x, i, n, kp_assert_failed);" in out
    assert "inline bool kp_assert(bool ok, uint number, device atomic_uint* failed)" in out
    code = "\n".join(line for line in out.splitlines() if not line.lstrip().startswith("//"))
    assert not re.search(r"(?<!\w)assert\(", code)


def test_the_sidecar_says_what_a_non_zero_flag_means():
    port, _ = metal(CODE)
    assert port.ok, [d.format() for d in port.diagnostics]
    doc = json.loads(port.extra_files[".json"])
    flag = [a for a in doc["kernels"][0]["arguments"] if a["name"] == "kp_assert_failed"]
    assert flag and flag[0]["index"] == 4 and flag[0]["role"] == "assertion" and flag[0]["access"] == "read_write"
    assert [(a["number"], a["line"], a["call"], a["condition"]) for a in doc["assertions"]] == [
        (1, 5, "assert", "i < n"), (2, 10, "assert", "T % 4 == 0"), (3, 12, "__trap", "false")]


def test_a_kernel_that_never_asserts_gets_no_flag():
    out = metal_checked(CODE + "__global__ void plain(float* y) { y[threadIdx.x] = 1.0f; }\n")
    plain = out[out.index("kernel void plain"):]
    assert "kp_assert_failed" not in plain


def test_under_ndebug_assert_is_still_dropped_and_trap_still_recorded():
    port, _ = metal(CODE, defines=[("NDEBUG", "1")])
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "kp_assert(false, 1u, kp_assert_failed)" in port.body  # __trap is no assertion
    assert "((void)0);" in port.body and "i < n" not in port.body.split("kernel void")[0].split("float at")[1]


def test_the_files_own_assert_macro_is_not_cudas():
    # look-alike: the file's `#define assert(e) ...` means what the file says: kept, no flag
    out = metal_checked("""
    #define assert(e) ((void)(e))
    __global__ void k(float* out) { assert(out[0] > 0.0f); out[threadIdx.x] = 1.0f; }
    """)
    assert "kp_assert" not in out and "assert(out[0] > 0.0f);" in out


@pytest.mark.parametrize("n, faults", [(64, False), (40, True)])
def test_the_emulator_faults_where_the_ports_assertion_fails_as_cudas(n, faults):
    port, text = metal(CODE)
    assert port.ok
    x = np.arange(64, dtype=np.float32)
    args = {"out": np.zeros(64, np.float32), "x": x, "n": n, "T": 8}
    runs = []
    for text, backend in ((CODE, "cuda"), (text, "metal")):
        try:
            runs.append(run_kernel(text, "k", args=dict(args, out=np.zeros(64, np.float32)), grid=(2,), block=(32,),
                                   backend=backend).outputs["out"])
        except KernelFault as e:
            runs.append(e)
    if faults:  # threads 40..63: `__trap()` in CUDA and in the port
        assert all(isinstance(r, KernelFault) for r in runs), runs
    else:
        assert np.array_equal(runs[0], x) and np.array_equal(runs[1], x)


def test_a_kernel_whose_threads_wait_for_each_other_goes_on_after_a_failed_check():
    # a thread that returned would leave its threadgroup at a barrier (or its SIMD-group in a shuffle) it
    # never reaches: the check records and the thread goes on, as before stop 44
    code = """
    #include <cassert>
    __device__ float lane_sum(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }
    __global__ void k(float* out, int n, int T)
    {
        __shared__ float s[64];
        assert(T % 4 == 0);
        s[threadIdx.x] = out[threadIdx.x];
        __syncthreads();
        out[threadIdx.x] = s[63 - threadIdx.x];
    }
    __global__ void w(float* out, int T)
    {
        assert(T > 0);
        out[threadIdx.x] = lane_sum(out[threadIdx.x]);
    }
    __global__ void free_(float* out, int T)
    {
        if (T < 0) assert(false); else out[threadIdx.x] = 1.0f;
    }
    """
    out = metal_checked(code)
    assert "    kp_assert(T % 4 == 0, 1u, kp_assert_failed);\n" in out
    assert "    kp_assert(T > 0, 2u, kp_assert_failed);\n" in out
    assert "if (T < 0) { if (!kp_assert(false, 3u, kp_assert_failed)) return; } else out[tid.x] = 1.0f;" in out
