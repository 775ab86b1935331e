"""A project's class deriving from a CUDA vector type (heldout25, CudaTracerLib: `class Vec3f : public
VectorBase<float, 3, Vec3f>, public float3`, whose operators are VectorBase's member templates).

CUDA's float3 is a plain struct, so `Vec3f - Vec3f` has one meaning: the project's. ROCm's float3 is a
HIP_vector_type<float, 3> whose free operator templates (`operator-(const HIP_vector_type<T, n>&, U)`
and kin) deduce T and n from a derived class too, so hipcc found both ("use of overloaded operator '-'
is ambiguous"). The HIP port derives such a class from the prologue's kp_plain_float3 instead (x, y, z;
float3's size and alignment; no operators; converts to float3): only the project's operators apply, as
under nvcc (vector_operators.rewrite_vector_bases, the backend's `vector_base`)."""
from __future__ import annotations

import os
import subprocess

from conftest import hip_compiles, require_tool
from port_support import port_text

VECTORS = """\
#include <cuda_runtime.h>
template <class T, int L, class S> struct VecBase {
    __host__ __device__ const T* ptr() const { return &static_cast<const S*>(this)->x; }
    __host__ __device__ T* ptr() { return &static_cast<S*>(this)->x; }
    template <class V> __host__ __device__ S operator-(const VecBase<T, L, V>& v) const
    { S r; for (int i = 0; i < L; i++) r.ptr()[i] = ptr()[i] - v.ptr()[i]; return r; }
    template <class V> __host__ __device__ S operator+(const VecBase<T, L, V>& v) const
    { S r; for (int i = 0; i < L; i++) r.ptr()[i] = ptr()[i] + v.ptr()[i]; return r; }
    __host__ __device__ S operator*(const T& a) const { S r; for (int i = 0; i < L; i++) r.ptr()[i] = ptr()[i] * a; return r; }
    // a meaning HIP's operator| (component-wise, integers) has not: the dot product
    template <class V> __host__ __device__ T operator|(const VecBase<T, L, V>& v) const
    { T r = 0; for (int i = 0; i < L; i++) r += ptr()[i] * v.ptr()[i]; return r; }
};
template <class T, int L, class S> __host__ __device__ S operator*(const T& a, const VecBase<T, L, S>& b) { return b * a; }
class Vec3f : public VecBase<float, 3, Vec3f>, public float3 {
public:
    __host__ __device__ Vec3f() {}
    __host__ __device__ Vec3f(float a, float b, float c) { x = a; y = b; z = c; }
};
struct Vec2i : VecBase<int, 2, Vec2i>, int2 {
    __host__ __device__ Vec2i(int a = 0, int b = 0) { x = a; y = b; }
};
struct Ray { float3 origin; Vec3f dir; };  // a member of a vector type: as written
struct Tagged : Ray { int id; };            // a base that is no vector type: as written
__host__ __device__ float sum3(float3 v) { return v.x + v.y + v.z; }
__host__ __device__ float shade(const Vec3f& a, const Vec3f& b, const Vec2i& p, const Vec2i& q)
{
    Vec3f d = 2.0f * (a - b) + a * 0.5f;
    float3 plain = d;
    Vec2i e = p - q;
    return sum3(d) + (a | b) + plain.y + (float)(e.x * 10 + e.y) + (float)(p | q);
}
__global__ void k(float* out, const Vec3f* a, const Vec3f* b)
{
    out[threadIdx.x] = shade(a[threadIdx.x], b[threadIdx.x], Vec2i(threadIdx.x, 2), Vec2i(1, 5));
}
"""

HOST_MAIN = """
#include <cstdio>
int main()
{
    int failures = 0;
    const float as[][3] = {{1, 2, 3}, {-4.5f, 0.25f, 8}, {0, 0, 0}};
    const float bs[][3] = {{3, 2, 1}, {1, -1, 0.5f}, {7, -3, 2}};
    for (int i = 0; i < 3; i++) {
        const float* a = as[i]; const float* b = bs[i];
        float d[3], dot = 0;
        for (int j = 0; j < 3; j++) { d[j] = 2.0f * (a[j] - b[j]) + a[j] * 0.5f; dot += a[j] * b[j]; }
        int px = i, py = 2, qx = 1, qy = 5;
        float want = (d[0] + d[1] + d[2]) + dot + d[1] + (float)((px - qx) * 10 + (py - qy)) + (float)(px * qx + py * qy);
        float got = shade(Vec3f(a[0], a[1], a[2]), Vec3f(b[0], b[1], b[2]), Vec2i(px, py), Vec2i(qx, qy));
        if (got != want) { std::printf("case %d: %g, want %g\\n", i, got, want); failures++; }
    }
    std::printf("%d failures\\n", failures);
    return failures != 0;
}
"""


def test_a_class_deriving_from_a_vector_type_derives_from_a_plain_struct_on_hip(tmp_path):
    whole = port_text(VECTORS, dedent=False)
    assert "class Vec3f : public VecBase<float, 3, Vec3f>, public kp_plain_float3 {" in whole, whole
    assert "struct Vec2i : VecBase<int, 2, Vec2i>, kp_plain_int2 {" in whole, whole
    # look-alikes: a member of a vector type, a base that is none, a parameter
    assert "struct Ray { float3 origin; Vec3f dir; };" in whole and "struct Tagged : Ray { int id; };" in whole
    assert "float sum3(float3 v)" in whole and "float3 plain = d;" in whole
    # the prologue defines each once, guarded (a header's port may define it too)
    assert whole.count("struct alignas(float3) kp_plain_float3 {") == 1, whole
    assert whole.count("struct alignas(int2) kp_plain_int2 {") == 1 and "kp_plain_float4" not in whole
    hip_compiles(tmp_path, whole)


def test_the_port_computes_what_the_projects_operators_mean(tmp_path):
    """The port built for the host with hipcc and run: the project's operators (the dot product its `|`
    is; HIP's would be component-wise) and the conversion to float3, against the arithmetic by hand."""
    require_tool("hipcc")
    src = tmp_path / "v.hip"
    src.write_text(port_text(VECTORS, dedent=False) + HOST_MAIN)
    exe = tmp_path / "v"
    r = subprocess.run(["hipcc", "-std=c++17", "--offload-arch=gfx90a", str(src), "-o", str(exe)],
                       capture_output=True, text=True, env={**os.environ, "HIP_PLATFORM": "amd"})
    assert r.returncode == 0, r.stderr[-3000:]
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "0 failures" in r.stdout, r.stdout + r.stderr


def test_a_file_with_no_derived_vector_class_gets_no_plain_struct():
    whole = port_text("struct Ray { float3 o; };\n__global__ void k(Ray* r) { r->o.x += 1.0f; }\n", dedent=False)
    assert "kp_plain_" not in whole, whole
