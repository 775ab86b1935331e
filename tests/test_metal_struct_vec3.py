"""A CUDA 3-vector member of a struct a host shares (a kernel's argument, a program-scope variable, or a
struct those hold) in a Metal port (kernelport/backends/metal/struct_vec3.py): Metal's float3 is 16 bytes
and long3 32 where CUDA's are 12 and 24, so `struct S { long3 v; float f; }` kept as written moved `f` and
every element of a buffer of S (main wrote it: a silently wrong port).  The member is MSL's packed_T3 now
(CUDA's size and alignment); CUDA's ulonglong3 has no packed Metal type: refused at the member (KP223).
Look-alike: a struct only a kernel's locals hold keeps Metal's aligned float3."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port

BOUND = """
struct Inner { float3 p[2]; longlong3 q; };
typedef struct { long3 v; float f; Inner in; } S;
__global__ void k(S *s, float *out)
{
    float3 a = s[threadIdx.x].in.p[0];
    s[threadIdx.x].in.p[1] = a * 2.0f;
    out[threadIdx.x] = s[threadIdx.x].f + (float)s[threadIdx.x].v.x + length(a) + (float)s[0].in.q.z;
}
"""


def test_members_of_a_bound_struct_keep_cudas_layout():
    out = metal_checked(BOUND)
    assert "typedef struct { packed_long3 v; float f; Inner in; } S;" in out, out
    assert "struct Inner { packed_float3 p[2]; packed_long3 q; };" in out, out
    assert "Metal Shading Language 2.3" in out  # packed_long vectors


def test_an_unsigned_64_bit_3_vector_member_is_refused_at_its_line():
    port, _ = metal_port(BOUND.replace("longlong3 q;", "ulonglong3 q;"))
    assert not port.ok
    [d] = [d for d in port.diagnostics if d.code == "KP223"]
    assert d.location.line == 2 and "no packed_ulong3" in d.message, d.format()


def test_a_struct_only_locals_hold_keeps_metals_vectors():
    out = metal_checked("""
    struct L { float3 v; float f; };
    __device__ void bump(float3 &v) { v.x += 1.0f; }
    __global__ void k(float *out) {
        L l; l.v = make_float3(1.0f, 2.0f, 3.0f); l.f = 0.5f; bump(l.v);
        out[threadIdx.x] = l.v.x + l.f;
    }
    """)
    assert "struct L { float3 v; float f; };" in out
