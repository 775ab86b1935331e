"""Metal ports of real code (issue 11): what the port leaves out because Metal already has it, and
what it must never write silently.  Each behaviour has a case and a look-alike that must not
trigger it."""
from __future__ import annotations

import textwrap

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool


def metal(code: str, path: str = "t.cu"):
    return translate(SourceFile.from_text(textwrap.dedent(code), path), "metal")


def error_codes(code: str) -> list[str]:
    port, _ = metal(code)
    return [f"{d.location.line}:{d.code}" for d in port.diagnostics if d.severity == "error"]


KERNEL = """
__global__ void k(const float3* a, const float3* b, float3* c, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float3 v = a[i] + b[i]; v -= s * b[i]; v *= s; c[i] = -v + v * s; }
}
"""

# helper_math.h / mumax3 float3.h style: every shape Metal's vector types already have
COMPONENTWISE = """
inline __device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
inline __device__ float3 operator-(const float3& a) { return make_float3(-a.x, -a.y, -a.z); }
inline __device__ void operator-=(float3 &a, float3 b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; }
inline __device__ float3 operator*(float s, float3 a) { return make_float3(s*a.x, s*a.y, s*a.z); }
inline __device__ float3 operator*(float3 a, float s) { return make_float3((a.x * s), a.y * s, a.z * s); }
__host__ __device__ inline float3& operator*=(float3 &a, float s) { a.z *= s; a.x = a.x * s; a.y *= s; return a; }
"""


def test_componentwise_vector_operators_are_left_out_as_metal_has_them():
    require_tool("clang")
    port, text = metal(COMPONENTWISE + KERNEL)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "operator" not in text.replace("// operator", "")
    for sig in ("operator+(float3, float3)", "operator-(float3)", "operator-=(float3, float3)",
                "operator*(float, float3)", "operator*(float3, float)", "operator*=(float3, float)"):
        assert f"// {sig}: Metal's vector types define it (component-wise), left out" in text
    assert sum("component-wise, as Metal's built-in operator is" in n.why for n in port.notes) == 6


@pytest.mark.parametrize("definition", [
    # a dot product spelled operator*
    "inline __device__ float operator*(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }",
    # the lanes crossed (a.y where a.x belongs)
    "inline __device__ float3 operator+(float3 a, float3 b) { return make_float3(a.y + b.x, a.x + b.y, a.z + b.z); }",
    # another operator on the lanes than the one defined
    "inline __device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }",
    # subtraction does not commute: s - a.x is not a - s
    "inline __device__ float3 operator-(float3 a, float s) { return make_float3(s - a.x, s - a.y, s - a.z); }",
    # a lane left out of a compound assignment
    "inline __device__ void operator+=(float3 &a, float3 b) { a.x += b.x; a.y += b.y; }",
    # a vector of another width
    "inline __device__ float3 operator*(float3 a, float4 b) { return make_float3(a.x * b.x, a.y * b.y, a.z * b.z); }",
])
def test_an_operator_metal_does_not_have_stays_a_located_refusal(definition):
    require_tool("clang")
    codes = error_codes(definition + "\n" + KERNEL)
    assert codes and codes[0] == "1:KP224", codes
