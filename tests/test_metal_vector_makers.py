"""A project's own overloads of CUDA's vector makers and math functions in a Metal port (cuda-samples'
helper_math.h): kernelport/backends/metal/vectorops.py, hostcode.py, unported.py.  Each port is
type-checked by kernelport's checker only (no Metal compiler on Linux)."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port as metal
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port as metal


def checked(code: str) -> str:
    return metal_checked(code).split("using namespace metal;", 1)[1]


# helper_math.h, abridged: overloads of make_float3 (one with no Metal constructor of its meaning:
# float3(float2) filling z with 0), a host-only fminf(float, float) for compilers other than nvcc, and
# fminf overloads on vectors that call CUDA's scalar fminf
HELPER_MATH = """\
    #ifndef __CUDACC__
    inline float fminf(float a, float b) { return a < b ? a : b; }
    #endif
    inline __host__ __device__ float3 make_float3(float s) { return make_float3(s, s, s); }
    inline __host__ __device__ float3 make_float3(float2 a) { return make_float3(a.x, a.y, 0.0f); }
    inline __host__ __device__ float2 fminf(float2 a, float2 b) { return make_float2(fminf(a.x, b.x), fminf(a.y, b.y)); }
    inline __host__ __device__ float3 fminf(float3 a, float3 b) {
        return make_float3(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z));
    }
    __global__ void k(float3* out, const float2* in, float s) {
        int i = threadIdx.x;
        out[i] = fminf(make_float3(in[i]), make_float3(s)) + make_float3(1.0f, 2.0f, (float)i);
    }
    """


def test_a_projects_vector_maker_overloads_keep_their_name_and_cudas_own_is_the_constructor():
    body = checked(HELPER_MATH)
    # the project's overloads, as written (not functions named float3), and CUDA's own in the prologue
    assert "inline float3 make_float3(float2 a) { return make_float3(a.x, a.y, 0.0f); }" in body, body
    assert "inline float3 make_float3(float s) { return make_float3(s, s, s); }" in body
    assert "inline float3 make_float3(float x, float y, float z) { return float3(x, y, z); }" in body
    assert "float3 float3(" not in body
    # each call keeps the name: C++ picks the overload, as nvcc does
    # (fminf on two float3 is the project's overload; CUDA's scalar fminf is the prologue's)
    assert "fminf(make_float3(in[i]), make_float3(s)) + make_float3(1.0f, 2.0f, (float)i);" in body
    assert "inline float fminf(float x, float y) { return fmin(x, y); }" in body
    # a maker the file does not overload is Metal's constructor, as before
    assert "return float2(fminf(a.x, b.x), fminf(a.y, b.y));" in body
    assert "make_float2(float x" not in body


def test_a_device_overload_of_a_host_functions_name_is_ported():
    """The host-only fminf(float, float) is left out; the device overloads' calls of CUDA's scalar
    fminf are the prologue's fminf(float, float) over Metal's fmin (once only: the host one is gone)."""
    body = checked(HELPER_MATH)
    assert "make_float3(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z))" in body, body
    assert body.count("fminf(float x, float y)") == 1 and "fminf(float a, float b)" not in body


def test_cudas_fminf_of_integers_is_a_float_minimum():
    """CUDA's fminf(float, float) converts int arguments (lidar-centerpoint's and pointpillars'
    `const int row_size = fminf(n_boxes - row_start * BLOCK, BLOCK);`); Metal has no fmin(int, int), so
    the port keeps CUDA's name over the prologue's float fminf (before: KP224 'no matching function for
    call to fmin')."""
    body = checked("""\
        #define BLOCK 64
        __global__ void k(float* out, int n, int start) {
            const int rows = fminf(n - start * BLOCK, BLOCK);
            out[threadIdx.x] = fmaxf(out[threadIdx.x], 1e-8) + rows + fmaxf(n, 0.5f);
        }
        """)
    assert "const int rows = fminf(n - start * BLOCK, BLOCK);" in body, body
    assert "fmaxf(out[tid.x], 1e-8) + rows + fmaxf(n, 0.5f);" in body
    assert "inline float fminf(float x, float y) { return fmin(x, y); }" in body
    assert "inline float fmaxf(float x, float y) { return fmax(x, y); }" in body


def test_a_files_own_scalar_fminf_is_not_defined_twice():
    body = checked("""\
        __device__ float fminf(float a, float b) { return a < b ? a : b; }
        __global__ void k(float* out, int n) { out[0] = fminf(n, out[1]); }
        """)
    assert "fminf(float x, float y)" not in body and "out[0] = fminf(n, out[1]);" in body, body


def test_a_single_vector_overload_calling_cudas_scalar_one_is_no_recursion():
    body = checked("""\
        inline __device__ float2 fminf(float2 a, float2 b) { return make_float2(fminf(a.x, b.x), fminf(a.y, b.y)); }
        __global__ void k(float2* o) { o[0] = fminf(o[1], o[2]); }
        """)
    assert "inline float2 fminf(float2 a, float2 b) { return float2(fminf(a.x, b.x), fminf(a.y, b.y)); }" in body


def test_a_call_of_another_arity_is_no_recursion():
    body = checked("""\
        inline __host__ __device__ float2 make_float2(float s) { return make_float2(s, s); }
        __global__ void k(float2* out, float s) { out[threadIdx.x] = make_float2(s); }
        """)
    assert "inline float2 make_float2(float s) { return make_float2(s, s); }" in body
    assert "inline float2 make_float2(float x, float y) { return float2(x, y); }" in body


def test_recursion_stays_refused():
    port, _ = metal("""\
        __device__ int f(int n) { return n ? f(n - 1) : 0; }
        __global__ void k(int* o) { o[0] = f(o[1]); }
        """)
    assert [(d.location.line, d.code) for d in port.diagnostics if d.severity == "error"] == [(1, "KP223")]


def test_a_host_launcher_of_its_kernels_name_is_left_out_with_its_api_calls():
    """llm.c dev/cuda's `void gelu_backward1(...)` launches `__global__ gelu_backward1`: the launcher's
    cudaGetLastError is host code, left out (before: KP202 at it, the uses being dropped by name)."""
    body = checked("""\
        __global__ void scale(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2.0f; }
        void scale(float* x, int n, int block) {
            scale<<<(n + block - 1) / block, block>>>(x, n);
            cudaGetLastError();
        }
        """)
    assert "kernel void scale(" in body and "cudaGetLastError" not in body, body
