"""A braced list with fewer elements than its CUDA vector type has members (kernelport/vector_short_lists.py).

CUDA's `uint3` is an aggregate: `{a, b}` is (a, b, 0) (CudaTextureGen's operators.cuh returns `{-a.x, -a.y}` from
a function of uint3, heldout90).  ROCm's HIP_vector_type is a class whose constructors take every member, or one
scalar for all of them (explicit): hipcc rejects two of three ("no matching constructor for initialization of
'uint3'") and `uint3 v = {x}` ("chosen constructor is explicit"), and compiles `uint3{x}` / `float4 f{x}` as a
broadcast (x, x, x): a port silently wrong.  The port completes the list with zeros (what CUDA's aggregate
initialisation gives; the emulator runs no braced vector) and compiles for gfx90a and gfx1030.  Look-alikes: `dim3 d = {3, 4}`
(a class with defaults of 1 on both platforms), a complete list, `{}` and a list of a struct of the project's
keep their text."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text, ported

KERNEL = """__device__ uint3 shifted(uint3 a) { uint3 r = {a.x + 1, a.y + 1}; return r; }
__global__ void k(const unsigned* in, unsigned* out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    uint3 v = {in[i], 2u};
    float4 g{1.5f};
    uint3 s = shifted(v);
    uint2 pair[2] = {{in[i], 7u}, {4u}};
    out[i] = s.x + 10 * s.y + 100 * s.z + (unsigned)(g.w * 4.0f) + 10000 * pair[1].y;
}
"""


def test_a_short_list_is_completed_with_zeros(tmp_path):
    port, text = ported(KERNEL, dedent=False)
    for line in ("uint3 r = {a.x + 1, a.y + 1, 0};", "uint3 v = {in[i], 2u, 0};", "float4 g{1.5f, 0, 0, 0};",
                 "uint2 pair[2] = {{in[i], 7u}, {4u, 0}};"):
        assert line in port.body, (line, port.body)
    hip_compiles(tmp_path, text, "lists.hip")
    one = ported("__device__ uint3 neg(uint3 a) { return {-a.x, -a.y}; }\n"
                 "__global__ void k(uint3* o) { o[threadIdx.x] = neg(uint3{threadIdx.x}); }\n", dedent=False)[1]
    assert "return {-a.x, -a.y, 0};" in one and "uint3{threadIdx.x, 0, 0}" in one  # (x, x, x) as written
    hip_compiles(tmp_path, one, "one.hip")


def test_look_alikes_keep_their_text(tmp_path):
    code = """struct P { unsigned a, b, c; };
__global__ void k(unsigned* out)
{
    dim3 d = {3u, 4u};
    uint3 full = {1u, 2u, 3u};
    uint3 none = {};
    P p = {5u, 6u};
    out[threadIdx.x] = d.z + full.z + none.x + p.c;
}
"""
    port, text = ported(code, dedent=False)
    for line in ("dim3 d = {3u, 4u};", "uint3 full = {1u, 2u, 3u};", "uint3 none = {};", "P p = {5u, 6u};"):
        assert line in port.body, (line, port.body)
    hip_compiles(tmp_path, text, "alike.hip")


MACRO = """#define DH_INLINE __host__ __device__ inline
#define DEFINE_VEC2_UNARY_OPS(TYPE)           \\
    DH_INLINE TYPE operator-(const TYPE &a) { \\
        return {-a.x, -a.y};                  \\
    }
DEFINE_VEC2_UNARY_OPS(int2)
DEFINE_VEC2_UNARY_OPS(uint3)
__global__ void k(uint3* o, int2* p) { o[threadIdx.x] = -o[threadIdx.x]; p[threadIdx.x] = -p[threadIdx.x]; }
"""


def test_a_macro_bodys_return_of_its_type_parameter_is_written_member_by_member(tmp_path):
    text = port_text(MACRO, dedent=False)
    assert "{ TYPE kp_v{}; kp_v.x = (-a.x); kp_v.y = (-a.y); return kp_v; }" in text, text
    hip_compiles(tmp_path, text, "macro.hip")
    only2 = port_text(MACRO.replace("DEFINE_VEC2_UNARY_OPS(uint3)\n", "").replace("uint3* o, ", "").replace(
        "o[threadIdx.x] = -o[threadIdx.x]; ", ""), dedent=False)
    assert "return {-a.x, -a.y};" in only2  # every use's type has two members: the list is right as written
    own = MACRO.replace("DEFINE_VEC2_UNARY_OPS(uint3)", "struct P3 { int x, y, z; };\nDEFINE_VEC2_UNARY_OPS(P3)") \
        .replace("uint3* o", "P3* o")
    assert "return {-a.x, -a.y};" in port_text(own, dedent=False)  # a project's aggregate: as written


def test_direct_lists_of_members_new_and_aliases_are_completed(tmp_path):
    """hipcc compiles each of these direct-list initialisations as the broadcast (x, x, x): a member's default
    (`float4 f{1.0f}`), a constructor's member initialiser (`: u{a}`), `new uint3{a}`, and a vector named
    through the file's typedef or `using` alias.  Look-alikes: an alias of dim3 (pads with 1 on both
    platforms), a member of the project's own struct type and a typedef of it."""
    code = """struct P { unsigned a, b; };
struct S {
    float4 f{1.0f};
    uint3 u;
    P q;
    __device__ S(unsigned a) : u{a}, q{a} {}
};
typedef float2 F2;
using U3 = uint3;
typedef dim3 D3;
__global__ void k(unsigned* out, unsigned a)
{
    uint3* p = new uint3{a};
    F2 g{2.0f};
    U3 h = U3{a};
    D3 d{a};
    S s(a);
    out[0] = p->z + (unsigned)g.y + h.z + s.u.y + (unsigned)s.f.y + d.y + s.q.b;
}
"""
    port, text = ported(code, dedent=False)
    for line in ("float4 f{1.0f, 0, 0, 0};", ": u{a, 0, 0}, q{a} {}", "new uint3{a, 0, 0};", "F2 g{2.0f, 0};",
                 "U3 h = U3{a, 0, 0};", "D3 d{a};"):
        assert line in port.body, (line, port.body)
    hip_compiles(tmp_path, text, "direct.hip")
    two = port_text("struct P { float a, b; };\ntypedef P V;\n__global__ void k(V* o) { o[0] = V{1.0f}; }\n",
                    dedent=False)
    assert "V{1.0f}" in two, two  # (an aggregate of the project's: b is 0 on both platforms)


def test_a_list_of_a_vector_member_in_a_structs_list_is_completed(tmp_path):
    """`S s = {{a}, 1, {2.0f}};` with S's members uint3, int, float2: hipcc stopped at each inner list
    ("chosen constructor is explicit", "no matching constructor"); each is the member's aggregate list in
    CUDA.  Look-alike: a member array's short list (`{2}` of `unsigned b[2]`) keeps its text."""
    code = """struct S { uint3 v; int n; float2 w; };
struct P { int a; unsigned b[2]; };
__global__ void k(unsigned* out, unsigned a)
{
    S s = {{a}, 1, {2.0f}};
    S t{{a, a}, 2};
    P p = {1, {2}};
    out[0] = s.v.y + t.v.z + (unsigned)s.w.y + p.b[1];
}
"""
    port, text = ported(code, dedent=False)
    for line in ("S s = {{a, 0, 0}, 1, {2.0f, 0}};", "S t{{a, a, 0}, 2};", "P p = {1, {2}};"):
        assert line in port.body, (line, port.body)
    hip_compiles(tmp_path, text, "nested.hip")
