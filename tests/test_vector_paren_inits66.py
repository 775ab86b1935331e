"""A CUDA vector declared with a parenthesised initialiser (kernelport/vector_paren_inits.py, metal66 item 3).

`int2 p(x, y);` is C++20's aggregate initialisation of CUDA's struct (nvcc 13 at its default C++17 says "too
many initializer values"; -std=c++20 takes it): the members in order, the rest 0.  Main's Metal port wrote it as
is, which the checker refuses ("excess elements in scalar initializer"), and `float2 s(a)` of a float `a`
passed it as Metal's broadcast (a, a) where CUDA has (a, 0): compiled, silently wrong; HIP's explicit
constructor broadcast it too.  The braced forms (`float2 v = {a, b}`, `float3 z = {}`, a struct's list of
vectors) were already right and stay as written."""
from __future__ import annotations

import numpy as np

from conftest import require_tool
from kernelport.emulator import run_kernel
from port_support import metal_checker, ported, refusal

CUDA = """struct P { float2 a; int2 b; float w; };
typedef float2 F2;
__global__ void k(float* out, const float* in) {
    int x = threadIdx.x, y = blockIdx.x;
    float a = in[x], b = in[x + 1];
    int2 p(x, y);
    float2 q(a + 1.0f, b);
    float4 h(a, b);
    float2 s(a);
    float2 c(q);
    F2 g(b, a);
    float2 v = {a, b};
    float3 z = {};
    P st = {{a, b}, {x, y}, 2.0f};
    float2 proto(int);
    out[blockIdx.x * 64 + x] = p.x + p.y + q.y + h.y + h.w + s.y + c.x + g.x + v.y + z.z + st.a.y + st.b.y;
}
"""


def test_metal_writes_the_aggregates_members_with_a_constructor():
    require_tool("clang")
    text = ported(CUDA, to="metal", dedent=False)[1]
    for want in ("int2 p = int2(x, y);", "float2 q = float2(a + 1.0f, b);", "float4 h = float4(a, b, 0, 0);",
                 "float2 s = float2(a, 0);", "float2 c = float2(q);", "F2 g = float2(b, a);"):
        assert want in text, (want, text)
    # look-alikes: braced lists, a struct's list of vectors and a prototype stay as written
    for kept in ("float2 v = {a, b};", "float3 z = {};", "P st = {{a, b}, {x, y}, 2.0f};", "float2 proto(int);"):
        assert kept in text, (kept, text)
    assert metal_checker(text) == [], metal_checker(text)
    assert metal_checker(text.replace("int2 p = int2(x, y);", "int2 p(x, y);")) != []


def test_hip_completes_the_members_a_class_constructor_would_broadcast():
    text = ported(CUDA, to="hip", dedent=False)[1]
    assert "float2 s(a, 0);" in text and "float4 h(a, b, 0, 0);" in text, text
    assert "int2 p(x, y);" in text and "float2 c(q);" in text  # every member, a copy: the class's own meaning


def test_one_value_of_unknown_type_is_refused_at_it():
    bad = CUDA.replace("    float2 s(a);\n", "    float2 s(pick(a));\n").replace(
        "__global__", "__device__ float pick(float a);\n__global__")
    errors = refusal(bad, to="metal", dedent=False, expect="KP248")
    assert any(e.code == "KP248" and e.line == 10 and e.column == 14 for e in errors), [e.format() for e in errors]


def test_the_metal_port_computes_cudas_aggregate_at_32():
    # (the emulator takes no braced list of a vector variable: those lines are the checker's above)
    cuda = CUDA.replace("    float2 v = {a, b};\n    float3 z = {};\n    P st = {{a, b}, {x, y}, 2.0f};\n", "").replace(
        " + v.y + z.z + st.a.y + st.b.y;", ";")
    metal = ported(cuda, to="metal", dedent=False)[1]
    rng = np.random.default_rng(66)
    inp = rng.standard_normal(65).astype(np.float32)
    got = run_kernel(metal, "k", args={"out": np.zeros(64, np.float32), "in": inp}, grid=(1,), block=(64,),
                     backend="metal").outputs["out"]
    x = np.arange(64)
    a, b = inp[x], inp[x + 1]
    # p.x + p.y + q.y + h.y + h.w + s.y + c.x + g.x
    want = x + 0 + b + b + 0 + 0 + (a + 1) + b
    np.testing.assert_allclose(got, want.astype(np.float32), rtol=1e-5, atol=1e-6)
