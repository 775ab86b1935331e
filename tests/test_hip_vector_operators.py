"""A project's own operators on CUDA vector types, on HIP (found on the seventeenth held-out set,
chrxh/alien's Math.cuh; the cases here are synthetic).  ROCm's HIP_vector_type has component-wise
operators of its own: a project's `void operator-=(float2&, float2 const&)` made every `p -= q`
ambiguous for hipcc.  A definition whose body is the component-wise meaning is left out (HIP's
means the same); anything else stays (kernelport/vector_operators.py)."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

CODE = """\
#include <cuda_runtime.h>
__inline__ __device__ __host__ void operator-=(float2& p, float2 const& q)
{
    p.x -= q.x;
    p.y -= q.y;
}
__inline__ __device__ __host__ void operator*=(float3& p, float const& q)
{
    p.x *= q;
    p.y *= q;
    p.z *= q;
}
__inline__ __device__ __host__ float2 operator+(float2 const& p, float2 const& q)
{
    return{ p.x + q.x, p.y + q.y };
}
__inline__ __device__ __host__ float2 operator-(float2 const& p, int2 const& q)
{
    return {p.x - q.x, p.y - q.y};
}
__inline__ __device__ __host__ float operator*(float2 const& p, float2 const& q)
{
    return p.x * q.x + p.y * q.y;
}
__inline__ __device__ __host__ void operator+=(float2& p, float2 const& q)
{
    p.x += q.x;
    p.y += q.x;
}
__global__ void step(float2* pos, const float2* vel, const int2* cell, float3* f, float dt, float* e)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 p = pos[i] + vel[i];
    p -= vel[i];
    p += vel[i];
    f[i] *= dt;
    pos[i] = p - cell[i];
    e[i] = vel[i] * vel[i];
}
"""


def port():
    p, _ = translate(SourceFile.from_text(CODE, "t.cu"), "hip")
    assert p.ok, [d.format() for d in p.diagnostics]
    return p


def test_component_wise_operators_are_left_out_on_hip_lines_kept():
    p = port()
    for sig in ("operator-=(float2, float2)", "operator*=(float3, float)", "operator+(float2, float2)"):
        assert f"// {sig}: HIP's vector types define it (component-wise), left out" in p.body
    lines = p.body.splitlines()
    assert lines.index("__global__ void step(float2* pos, const float2* vel, const int2* cell, float3* f, float dt, float* e)") \
        == CODE.splitlines().index("__global__ void step(float2* pos, const float2* vel, const int2* cell, float3* f, float dt, float* e)") - 1
    assert any("is component-wise, as HIP's built-in operator is" in n.why for n in p.notes)


def test_operators_that_are_not_the_component_wise_meaning_stay():
    body = port().body
    assert "float2 operator-(float2 const& p, int2 const& q)" in body  # float2 - int2: HIP has none
    assert "float operator*(float2 const& p, float2 const& q)" in body  # a dot product
    assert "void operator+=(float2& p, float2 const& q)" in body  # y += q.x: not component-wise


@pytest.mark.skipif(shutil.which("hipcc") is None, reason="hipcc not installed")
def test_the_port_compiles_with_hipcc(tmp_path):
    """`p -= q` and `f *= dt` reach HIP's own operators (before: ambiguous with the project's). The
    look-alike `operator+=` stays, so its use would still be ambiguous: the kernel here does not use it."""
    src = tmp_path / "t.hip"
    src.write_text("#include <hip/hip_runtime.h>\n" + port().body.replace("    p += vel[i];\n", ""))
    r = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-c", str(src), "-o", str(tmp_path / "t.o")],
                       capture_output=True, text=True, env={"HIP_PLATFORM": "amd", "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr[-2000:]
