"""A braced list shorter than its CUDA vector type on Metal (kernelport/vector_short_lists.py, stop 65).

CUDA's vector types are aggregates: `float4 v = {x}` is (x, 0, 0, 0).  Metal's are not: a short list is
"too few elements in vector initialization", so main refused the file (KP224).  HIP completes the list with
zeros (hipcc broadcasts `{x}`); Metal now does the same from the same fact (`Backend.completes_short_vector_lists`,
data on each backend), and both ports spell the completed list alike.  Look-alikes: a complete list, `{}`, a
struct of the project's and `dim3` keep their text."""
from __future__ import annotations

from kernelport import backends

from conftest import require_tool
from port_support import metal_checker, ported

KERNEL = """__device__ uint3 neg(uint3 a) { return {-a.x, -a.y}; }
__global__ void k(float4* out, uint3* u, float x, float y)
{
    unsigned i = threadIdx.x;
    float4 v = {x};
    float4 w = {x, y};
    float2 h{x};
    uint3 n = neg(uint3{i});
    out[i] = v + w + float4(h.x, h.y, 0.0f, 0.0f);
    u[i] = n;
}
"""
COMPLETED = ("return {-a.x, -a.y, 0};", "float4 v = {x, 0, 0, 0};", "float4 w = {x, y, 0, 0};", "float2 h{x, 0};",
             "uint3{i, 0, 0}")


def test_the_fact_is_data_on_both_backends():
    assert backends.get("metal").completes_short_vector_lists and backends.get("hip").completes_short_vector_lists
    assert not backends.get("cuda").completes_short_vector_lists  # CUDA's aggregates zero the rest themselves


def test_metal_completes_a_short_list_with_zeros_as_hip_does():
    require_tool("clang")
    metal = ported(KERNEL, to="metal", dedent=False)[1]
    hip = ported(KERNEL, to="hip", dedent=False)[1]
    for line in COMPLETED:
        assert line in metal and line in hip, (line, metal)
    assert metal_checker(metal) == [], metal
    # the text as written (main's port, were it written) is what Metal rejects
    wrong = metal.replace("float4 v = {x, 0, 0, 0};", "float4 v = {x};")
    assert any("too few elements" in d for d in metal_checker(wrong)), wrong


def test_metal_look_alikes_keep_their_text():
    require_tool("clang")
    code = """struct P { unsigned a, b, c; };
__global__ void k(unsigned* out)
{
    uint3 full = {1u, 2u, 3u};
    uint3 none = {};
    P p = {5u, 6u};
    out[threadIdx.x] = full.z + none.x + p.c;
}
"""
    metal = ported(code, to="metal", dedent=False)[1]
    for line in ("uint3 full = {1u, 2u, 3u};", "uint3 none = {};", "P p = {5u, 6u};"):
        assert line in metal, (line, metal)
    assert metal_checker(metal) == [], metal
