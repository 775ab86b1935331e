"""A user overload of a CUDA builtin (cuda-lbvh's build.cu: `__device__ void __stcg(float3* p, const float3& q)`
storing each component with CUDA's own `__stcg(float*, float)`) is no recursion: the calls inside it run
CUDA's builtin, which the Metal port writes as a plain store, while the kernel's calls with a float3 run
the user's overload (kernelport/backends/metal/self_calls.py, unported.py)."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port, require_tool
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port, require_tool

RECURSION = "calls itself (recursion)"


def test_a_float3_overload_of_a_cache_hinted_store_is_ported():
    text = metal_checked("""
        __device__ void __stcg(float3* p, const float3& q)
        {
            __stcg(&(p->x), q.x);
            __stcg(&(p->y), q.y);
            __stcg(&(p->z), q.z);
        }
        __global__ void k(float3* out, const float3* in) { float3 v = in[threadIdx.x]; __stcg(&out[threadIdx.x], v); }
        """)
    # the builtin's calls are plain stores; the kernel's call runs the user's overload, kept
    assert "((p->x) = (q.x))" in text and "((p->z) = (q.z))" in text, text
    assert "__stcg(&out[tid.x], v)" in text, text


def test_a_device_element_given_to_the_overload_that_writes_before_it_reads_is_refused():
    """Given in[i] itself, the port would copy it into the thread for `const float3& q` (MSL binds no
    thread reference to device memory), but the helper writes through p before it reads q.y: where out
    and in are one buffer a copy reads the old bytes CUDA does not (copy_observers.py): refused, located."""
    require_tool("clang")
    port, _ = metal_port("""
        __device__ void __stcg(float3* p, const float3& q)
        {
            __stcg(&(p->x), q.x);
            __stcg(&(p->y), q.y);
        }
        __global__ void k(float3* out, const float3* in) { __stcg(&out[threadIdx.x], in[threadIdx.x]); }
        """)
    assert not port.ok and [d.code for d in port.diagnostics if d.severity == "error"] == ["KP224"]
    assert any(d.format().startswith("t.cu:7:") and "__stcg" in d.format() for d in port.diagnostics)


def test_an_overload_of_a_cuda_atomic_calling_the_builtin_is_no_recursion():
    port, _ = metal_port("""
        __device__ void atomicAdd(float3* a, float3 v) { atomicAdd(&a->x, v.x); atomicAdd(&a->y, v.y); }
        __global__ void k(float3* a) { atomicAdd(a, make_float3(1.0f, 2.0f, 3.0f)); }
        """)
    assert not [d for d in port.diagnostics if RECURSION in d.message], [d.format() for d in port.diagnostics]


def test_a_builtin_named_function_calling_itself_with_its_own_types_stays_unclaimed_or_refused():
    # look-alike: the same name called with the overload's own argument types could be the user's function
    # again; it is never written as a plain store of a float3 pointer into the builtin's place
    port, text = metal_port("""
        __device__ void __stcg(float3* p, const float3& q) { p->x = q.x; }
        __global__ void k(float3* out, const float3* in) { __stcg(&out[threadIdx.x], in[threadIdx.x]); }
        """)
    assert "__stcg(&out[" in text, text


def test_plain_recursion_stays_refused():
    port, _ = metal_port("""
        __device__ int f(int n) { return n ? n * f(n - 1) : 1; }
        __global__ void k(int* a) { a[0] = f(3); }
        """)
    assert [d for d in port.diagnostics if RECURSION in d.message and d.severity == "error"]


def test_a_cache_hinted_load_of_a_vectors_component_reads_the_component():
    # Metal takes no address of a vector's component: `__ldg(&(v->y))` reads `v->y`; look-alike: the
    # address of an array element stays `*(&a[i])`
    text = metal_checked("""
        __global__ void k(const float2* v, const float* a, float* out) {
            out[threadIdx.x] = __ldg(&(v[threadIdx.x].y)) + __ldg(&a[threadIdx.x]);
        }
        """)
    assert "(v[tid.x].y)" in text and "*(&a[tid.x])" in text, text
