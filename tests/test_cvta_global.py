"""`__cvta_generic_to_global(p)` (CUDA's API for PTX's cvta.to.global): held-out set 97's matmul helper header
passed it through unknown, and the HIP port failed hipcc ("use of undeclared identifier").  On AMD the flat and
global addresses of global memory are one, so HIP writes the pointer's own bits as a size_t; Metal has no such
address and refuses it, located (KP202)."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

CODE = textwrap.dedent("""
    #include <cstdint>
    __device__ inline uint32_t lo(const void *ptr) { return (uint32_t)__cvta_generic_to_global(ptr); }
    __device__ inline size_t cvta_generic_to_global(const void *ptr) { return (size_t)ptr + 1; }
    __global__ void k(unsigned *o, const float *a) {
        extern __shared__ float s[];
        o[threadIdx.x] = lo(a + threadIdx.x) + (unsigned)cvta_generic_to_global(a) + (unsigned)__cvta_generic_to_shared(s);
    }
""")


def _port(backend: str):
    return translate(SourceFile.from_text(CODE, "t.cu"), backend)


def test_hip_writes_the_pointers_own_bits():
    port, whole = _port("hip")
    assert port.ok, port.diagnostics
    assert "return (uint32_t)((size_t)(ptr));" in whole
    assert "__cvta_generic_to_global" not in whole


def test_metal_refuses_it_at_its_line_and_the_look_alikes_keep_their_meaning():
    port, _ = _port("metal")
    assert [(d.code, d.line) for d in port.diagnostics if d.code == "KP202"][:1] == [("KP202", 3)]
    # a user's own function of a similar name is the user's; the shared window keeps its own spelling on HIP
    whole = _port("hip")[1]
    assert "(unsigned)cvta_generic_to_global(a)" in whole and "kp_cvta_to_shared(s)" in whole
