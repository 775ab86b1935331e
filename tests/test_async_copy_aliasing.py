"""The HIP port's synchronous copies (kernelport/backends/hip_async_copies.py) write the destination through
words that may alias any type (`__may_alias__`, as char): a thread that reads its own copy after the wait, with
no barrier between (CUDA: `__pipeline_wait_prior(0)` or `consumer_wait()` makes the thread's copies visible to
itself), reads it through the data's type (float).  Written through `unsigned int*`, type-based alias analysis
let clang move that float read from LDS above the copy's store wherever the two indices are not the same
expression (`s[perm[t]]`, perm[t] == t): the port compiled and read the shared array before the copy landed
(gfx90a assembly: ds_read_b32 before ds_write_b32).  The look-alike: reads after a __syncthreads stay after it."""
from __future__ import annotations

import textwrap

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import gfx90a_assembly, require_tool

PRIMITIVES = """\
#include <cuda_pipeline.h>
__global__ void own_copy(const float* g, const int* perm, float* out) {
    __shared__ float s[256];
    const int t = threadIdx.x;
    const int j = perm[t];  // the table holds t: the thread reads its own copy
    __pipeline_memcpy_async(&s[t], &g[t], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    BARRIER
    out[t] = s[j];
}
"""
THREAD_PIPELINE = """\
#include <cuda/pipeline>
__global__ void own_copy(const float* g, const int* perm, float* out) {
    __shared__ float s[256];
    const int t = threadIdx.x;
    const int j = perm[t];  // the table holds t: the thread reads its own copy
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    pipe.producer_acquire();
    cuda::memcpy_async(&s[t], &g[t], sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    BARRIER
    out[t] = s[j];
    pipe.consumer_release();
}
"""


def _order(tmp_path, code: str) -> list[str]:
    port, text = translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    f = tmp_path / "t.hip"
    f.write_text(text)
    asm = gfx90a_assembly(f)
    body = asm[asm.index("_Z8own_copyPKfPKiPf:"):]
    body = body[:body.index("s_endpgm")]
    return [w.split()[0] for w in body.splitlines() if w.strip().startswith(("ds_read", "ds_write"))]


@pytest.mark.parametrize("code", [PRIMITIVES, THREAD_PIPELINE], ids=["primitives", "thread_pipeline"])
@pytest.mark.parametrize("barrier", ["", "__syncthreads();"], ids=["own", "after_barrier"])
def test_a_threads_read_of_its_copy_stays_after_the_copy(tmp_path, code, barrier):
    require_tool("hipcc")
    order = _order(tmp_path, code.replace("BARRIER", barrier))
    assert order and order[0].startswith("ds_write") and any(o.startswith("ds_read") for o in order), order
