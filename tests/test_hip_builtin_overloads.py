"""A user overload of a CUDA builtin does not hide the builtin from the HIP port (cuda-lbvh's build.cu:
`__device__ float3 __ldcg(const float3* p)` loads each component with CUDA's `__ldcg(&(p->x))`, which HIP
lacks for a float: kernelport spells it as a plain load).  Overload resolution on the arguments' types
(kernelport/overload_ranks.py) tells the builtin's calls from the user's; main left every call of the name
as the user's, and hipcc found no `__ldcg(float*)`."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import hip_compiles
except ImportError:  # pragma: no cover
    from conftest import hip_compiles

from port_support import port_text

LBVH = """
    __device__ float3 __ldcg(const float3* p)
    {
        return make_float3(__ldcg(&(p->x)), __ldcg(&(p->y)), __ldcg(&(p->z)));
    }
    __device__ void __stcg(float3* p, const float3& q)
    {
        __stcg(&(p->x), q.x);
        __stcg(&(p->y), q.y);
        __stcg(&(p->z), q.z);
    }
    struct Node { float3 min; float3 max; };
    __global__ void k(Node* nodes, const Node* in)
    {
        const float3 a = __ldcg(&(in[threadIdx.x].min));
        __stcg(&(nodes[threadIdx.x].max), a);
    }
    """


def test_the_builtins_calls_inside_a_float3_overload_are_hips_spelling(tmp_path):
    text = port_text(LBVH)
    # inside the overloads: CUDA's float builtin, spelled as HIP's port spells it
    assert "__ldcg(&(p->x))" not in text and "__stcg(&(p->x), q.x)" not in text, text
    # the kernel's calls with a float3 run the user's overloads: kept
    assert "__ldcg(&(in[threadIdx.x].min))" in text and "__stcg(&(nodes[threadIdx.x].max), a)" in text, text
    hip_compiles(tmp_path, text)


def test_a_call_the_users_overload_takes_is_the_users():
    # look-alike: the user's own float overload of the name takes every call; nothing is respelled
    text = port_text("""
        __device__ float __ldcg(const float* p) { return p[0] * 2.0f; }
        __global__ void k(float* out, const float* in) { out[threadIdx.x] = __ldcg(&in[threadIdx.x]); }
        """)
    assert "__ldcg(&in[threadIdx.x])" in text and "return p[0] * 2.0f;" in text, text
