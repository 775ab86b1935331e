"""Device-side malloc / free (emulator.heap): a per-launch heap of CUDA's 8 MiB or the host's limit,
NULL when it is full, and the memory checks of other buffers (out of bounds, use after free, double
free) as located faults.  On main every such kernel stopped at "unknown function `malloc`"."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError, KernelFault

SRC = r"""
__global__ void k(const int* a, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int* buf = (int*)malloc(n * sizeof(int));
    if (buf == NULL) { out[i] = -1; return; }
    for (int j = 0; j < n; ++j) buf[j] = a[i] + j;
    int s = 0;
    for (int j = 0; j < n; ++j) s += buf[j];
    free(buf);
    out[i] = s;
}"""
A = np.arange(64, dtype=np.int32)


def _run(src=SRC, n=4, **kw):
    return run_kernel(src, "k", args=dict(a=A, out=np.zeros(64, np.int32), n=n), grid=(2,), block=(32,), **kw)


def test_malloc_free_per_thread_block():
    want = 4 * A + 6
    assert np.array_equal(_run().outputs["out"], want)
    # the look-alike: the same through a local array computes the same
    local = SRC.replace("int* buf = (int*)malloc(n * sizeof(int));", "int buf[4];").replace("free(buf);", "")
    assert np.array_equal(_run(local).outputs["out"], want)


def test_malloc_returns_null_when_the_heap_is_full():
    # 64 threads x 16 bytes fit CUDA's default 8 MiB and a 1024-byte limit; 8 bytes hold no block
    assert np.array_equal(_run(malloc_heap=1024).outputs["out"], 4 * A + 6)
    assert np.array_equal(_run(malloc_heap=8).outputs["out"], np.full(64, -1))
    # 2^20 ints per thread: 64 x 4 MiB is past 8 MiB (NULL everywhere but in two threads: refused, located)
    with pytest.raises(EmulatorError, match=r"<kernel>:4:\d+: device malloc: the heap \(8388608 bytes\) holds 2 of this call\'s 64 blocks"):
        _run(n=1 << 20)


def test_freed_blocks_give_the_heap_back():
    # each thread mallocs and frees 16 times: 64 x 16 bytes live at most, under a 1024-byte heap
    src = SRC.replace("int* buf", "int s = 0;\n    for (int r = 0; r < 16; ++r) {\n    int* buf").replace(
        "    int s = 0;\n    for (int j = 0; j < n; ++j) s += buf[j];\n    free(buf);",
        "    for (int j = 0; j < n; ++j) s += buf[j];\n    free(buf);\n    }")
    assert np.array_equal(_run(src, malloc_heap=1024).outputs["out"], 16 * (4 * A + 6))
    leak = src.replace("free(buf);", "")  # the look-alike without free: the heap runs out
    assert np.array_equal(_run(leak, malloc_heap=1024).outputs["out"], np.full(64, -1))


@pytest.mark.parametrize("body, message", [
    ("free(buf); out[i] = buf[0];", r"<kernel>:9:\d+: read of device-heap memory after free: the block malloc "
                                    r"returned at line 4 was freed \(line 9\)"),
    ("buf[n] = 1;", r"<kernel>:9:\d+: out-of-bounds write of device-heap memory malloc@4\[4\]: valid indices are 0..3"),
    ("free(buf); free(buf);", r"<kernel>:9:\d+: double free of the block malloc returned at line 4"),
    ("free(buf + 1);", r"<kernel>:9:\d+: free of a pointer inside a block"),
    ("free(out);", r"<kernel>:9:\d+: free of `out`, memory device malloc did not return"),
])
def test_heap_faults_are_located(body, message):
    with pytest.raises(KernelFault, match=message):
        _run(SRC.replace("free(buf);\n    out[i] = s;", body))


HOST = """
#define HEAP_BYTES (512 * 2)
int main() {
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, LIMIT);
    return 0;
}
"""


def test_the_host_s_heap_limit_sizes_the_heap():
    # 64 threads x 16 bytes: fit a 1024-byte heap (the #define's), not a 1008-byte one; no call: 8 MiB
    assert np.array_equal(_run(SRC + HOST.replace("LIMIT", "HEAP_BYTES")).outputs["out"], 4 * A + 6)
    with pytest.raises(EmulatorError, match=r"holds 63 of this call's 64 blocks"):
        _run(SRC + HOST.replace("LIMIT", "HEAP_BYTES - 16"))
    # the look-alike: another limit set (the stack's) leaves CUDA's default
    assert np.array_equal(_run(SRC + HOST.replace("cudaLimitMallocHeapSize, LIMIT", "cudaLimitStackSize, 16")).outputs[
        "out"], 4 * A + 6)
    # HIP's spelling, from its API table, in a port's text
    hip = SRC + HOST.replace("LIMIT", "HEAP_BYTES - 16").replace("cudaDeviceSetLimit", "hipDeviceSetLimit").replace(
        "cudaLimitMallocHeapSize", "hipLimitMallocHeapSize")
    with pytest.raises(EmulatorError, match=r"holds 63 of"):
        _run(hip, backend="hip")


def test_a_heap_the_host_sizes_at_run_time_is_said_where_it_decides():
    text = SRC + HOST.replace("LIMIT", "atoi(argv[1])")
    assert np.array_equal(_run(text).outputs["out"], 4 * A + 6)  # well under CUDA's default: runs
    with pytest.raises(EmulatorError, match=r"cudaLimitMallocHeapSize = `atoi\(argv\[1\]\)`\): whether malloc returns "
                                            r"NULL here is unknown"):
        _run(text, n=1 << 20)


def test_free_of_null_is_nothing():
    src = SRC.replace("free(buf);", "free(NULL); free(0); free(buf);")
    assert np.array_equal(_run(src).outputs["out"], 4 * A + 6)
