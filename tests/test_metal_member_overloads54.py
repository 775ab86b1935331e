"""A device function that calls its own name with a member of its by-value parameter calls another overload.

heldout48 mandelspace util.hpp: `float3 sin(float3 v) { return make_float3(sin(v.x), sin(v.y), sin(v.z)); }`
calls CUDA's float `sin` (a member of a float3 is a float, never a float3); the Metal pass refused it KP223
"'sin' calls itself (recursion)" (mandelbulb.cu --demote-double: refused by that alone).
"""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool
from port_support import refusal


def _errors(code: str) -> list[str]:
    return [f"{d.location.line}:{d.code} {d.message}" for d in refusal(code, to="metal")]


def _checked(code: str) -> str:
    port, text = translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    assert [str(d) for d in check_metal_source(text, "t.metal")] == [], text
    return text


def test_a_vector_overload_calling_the_scalar_function_on_its_members_is_no_recursion():
    text = _checked("""\
        inline __device__ float3 sin(float3 v) { return make_float3(sin(v.x), sin(v.y), sin(v.z)); }
        __global__ void k(float3* a) { a[threadIdx.x] = sin(a[threadIdx.x]); }
        """)
    assert "sin(v.x)" in text


def test_a_struct_overload_on_a_member_is_no_recursion():
    """A look-alike main already ports (the file's two overloads of one name are never read as recursion):
    it must stay so."""
    text = _checked("""\
        struct Box { float w; };
        __device__ float area(float x) { return x * x; }
        __device__ float area(Box b) { return area(b.w); }
        __global__ void k(float* a) { Box b = {a[0]}; a[1] = area(b); }
        """)
    assert "area(b.w)" in text


def test_look_alikes_stay_recursion():
    """The parameter itself passed on; a member of a parameter of another type, in the position whose type it
    has (`g(v.x, v)` with g(float, float3)): each still calls itself, KP223 at its line."""
    own = _errors("""\
        struct Node { int n; };
        __device__ int depth(Node a) { return a.n ? 1 + depth(a) : 0; }
        __global__ void k(int* o) { Node a = {o[0]}; o[1] = depth(a); }
        """)
    assert [e.split(" ", 1)[0] for e in own] == ["2:KP223"] and "'depth' calls itself (recursion)" in own[0]
    other = _errors("""\
        __device__ float g(float x, float3 v) { return x > 1.f ? g(v.x * 0.5f, v) + g(v.x, v) : x; }
        __global__ void k(float3* a, float* o) { o[0] = g(2.f, a[0]); }
        """)
    assert other and all(e.startswith("1:KP223") and "'g' calls itself (recursion)" in e for e in other), other
