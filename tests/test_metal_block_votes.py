"""CUDA's barrier votes over the block (`__syncthreads_or`, `_and`, `_count`) in a Metal port: a
prologue helper that counts the predicate in a threadgroup atomic the kernel declares, between
threadgroup barriers.  Before, the port was refused at the call (KP223, as a name from a header the
port cannot include: farkhor/CuSha's cusha_process.cu, held-out set 15).  In a device function the
vote is refused at its line: Metal declares threadgroup memory in the kernel only."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

KERNEL = """
__global__ void relax(const int *in, int *out, int *finished, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool flag = i < n && in[i] > 0;
    if (__syncthreads_or(flag)) {
        if (threadIdx.x == 0) *finished = 1;
    }
    int all = __syncthreads_and(i < n);
    int c = __syncthreads_count(flag);
    if (i < n) out[i] = c + all;
}
"""


def metal(code: str):
    return translate(SourceFile.from_text(textwrap.dedent(code), "v.cu"), "metal")


def test_block_votes_count_in_threadgroup_memory_and_the_port_checks():
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    port, text = metal(KERNEL)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "threadgroup atomic_int kp_block_vote;" in port.body
    assert port.body.count("threadgroup atomic_int") == 1  # one count for the kernel's votes
    for call in ("kp_syncthreads_or(flag, kp_block_vote)", "kp_syncthreads_and(i < n, kp_block_vote)",
                 "kp_syncthreads_count(flag, kp_block_vote)"):
        assert call in port.body
    assert "inline int kp_syncthreads_count(int p, threadgroup atomic_int &v)" in text
    assert [str(d) for d in check_metal_source(text, "v.metal")] == []


def test_a_block_vote_in_a_device_function_is_refused_at_its_line():
    port, _ = metal("""
    __device__ int any_positive(int v) {
        return __syncthreads_or(v > 0);
    }
    __global__ void k(const int *in, int *out) {
        out[threadIdx.x] = any_positive(in[threadIdx.x]);
    }
    """)
    errors = [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]
    assert errors == [("KP223", 3)], [d.format() for d in port.diagnostics]
    assert "device function 'any_positive'" in port.diagnostics[0].message
