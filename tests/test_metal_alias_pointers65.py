"""Pointer locals through a type alias and threadgroup reference locals the model did not see (stop 65).

`typedef float* fptr; fptr p = buf;`: the alias names a `thread` pointer in MSL, so Metal rejects the local
bound to a device buffer; main's port wrote it as is and main's checker passed it (C++ for OpenCL made the
alias's pointee generic).  The checker now reads such an alias as `thread` (check/thread_aliases.py) and the
translator writes the local with its space (`device float *p = buf;`, per helper specialisation:
metal/alias_pointers.py).  `float& r{tile[i]}` got no space (reference_spaces read only `= x`) and the checker
did not read it, nor `float& r(tile[i])` or `float (&row)[8] = tile2[i]`: the first is now written
`threadgroup float& r{...}`; the other two were refused at their line (KP224) and get their space since metal66."""
from __future__ import annotations

from conftest import require_tool
from port_support import metal_checker, ported, refusal

ALIASES = """typedef float* fptr;
typedef const float* cfptr;
using iptr = int*;
__device__ float sum2(const float* v, int i) {
    cfptr a = v + i;
    return a[0] + a[1];
}
__global__ void k(float* buf, const float* in, int* cnt) {
    __shared__ float tile[64];
    int i = threadIdx.x;
    float loc[4] = {1, 2, 3, 4};
    fptr t = loc;
    fptr p = buf, q = buf + 1;
    iptr c;
    c = cnt;
    tile[i] = in[i] + t[i % 4];
    __syncthreads();
    c[i] += 1;
    p[i] = sum2(tile, i % 32) + sum2(in, i) + q[0];
}
"""


def test_an_alias_pointer_local_gets_its_space_and_the_checker_sees_the_alias():
    require_tool("clang")
    text = ported(ALIASES, to="metal", dedent=False)[1]
    for line in ("threadgroup const float *a = v + i;", "device const float *a = v + i;",
                 "device float *p = buf, *q = buf + 1;", "device int *c;"):
        assert line in text, (line, text)
    assert "fptr t = loc;" in text  # look-alike: a thread array's pointer keeps the alias (a thread pointer)
    assert metal_checker(text) == [], text
    # main's text: the alias kept on a device pointer, which Metal rejects and main's checker passed
    wrong = text.replace("device float *p = buf, *q = buf + 1;", "fptr p = buf, q = buf + 1;")
    assert any("fptr" in d and "device float" in d for d in metal_checker(wrong)), metal_checker(wrong)
    wrong = text.replace("device int *c;", "iptr c;")
    assert any("iptr" in d for d in metal_checker(wrong)), metal_checker(wrong)


def test_the_checker_leaves_aliases_that_name_a_space_or_a_template_parameter():
    require_tool("clang")
    ok = """#include <metal_stdlib>
using namespace metal;
typedef device float* dptr;
template <typename T> struct W { typedef T* ptr; };
kernel void k(device float* buf [[buffer(0)]]) {
    dptr p = buf;
    p[0] = 1.0f;
}
"""
    assert metal_checker(ok) == []


REFS = """__global__ void k(float* buf) {
    __shared__ float tile[64];
    int i = threadIdx.x;
    tile[i] = buf[i];
    __syncthreads();
    float& r{tile[i ^ 1]};
    r += 1.0f;
    buf[i] = tile[i];
}
"""


def test_a_list_bound_reference_gets_its_space():
    require_tool("clang")
    text = ported(REFS, to="metal", dedent=False)[1]
    assert "threadgroup float& r{tile[i ^ 1]};" in text, text
    assert metal_checker(text) == []
    wrong = text.replace("threadgroup float& r{", "float& r{")
    assert any("changes address space" in d for d in metal_checker(wrong)), metal_checker(wrong)


def test_reference_forms_the_grammar_misreads_get_their_space():
    # stop 65 refused these at their line (KP224); metal66 reads them (tests/test_metal_paren_references66.py)
    require_tool("clang")
    for decl, want in (("float& r(tile[i ^ 1]);", "threadgroup float& r(tile[i ^ 1]);"),
                       ("float (&r)[2] = *(float (*)[2])&tile[i & ~1];",
                        "threadgroup float (&r)[2] = *(threadgroup float (*)[2])&tile[i & ~1];")):
        text = ported(REFS.replace("float& r{tile[i ^ 1]};", decl).replace("r += 1.0f;", "(void)r;"),
                      to="metal", dedent=False)[1]
        assert want in text and metal_checker(text) == [], (decl, text)
    # look-alike: a thread array's reference is a thread reference (written as is, passes)
    text = ported(REFS.replace("float& r{tile[i ^ 1]};", "float loc[2] = {0, 1};\n    float& r(loc[i & 1]);"),
                  to="metal", dedent=False)[1]
    assert "float& r(loc[i & 1]);" in text and metal_checker(text) == []


def test_the_checker_reads_a_pointer_to_an_array_local():
    require_tool("clang")
    text = """#include <metal_stdlib>
using namespace metal;
kernel void k(device float* buf [[buffer(0)]], uint i [[thread_position_in_threadgroup]]) {
    threadgroup float tile2[8][8];
    SPACEfloat (*p)[8] = tile2;
    buf[i] = p[i % 8][0];
}
"""
    assert metal_checker(text.replace("SPACE", "threadgroup ")) == []
    assert any("changes address space" in d or "cannot initialize" in d
               for d in metal_checker(text.replace("SPACE", ""))), metal_checker(text.replace("SPACE", ""))


ARRAY_POINTER = """typedef long fr_t;
__device__ fr_t* row(fr_t* p) { return p + 1; }
__global__ void k(fr_t* out, fr_t** tab) {
    extern __shared__ fr_t exchange[];
    int i = threadIdx.x;
    exchange[i] = out[i];
    __syncthreads();
    fr_t (*xchg)[4][4] = reinterpret_cast<decltype(xchg)>(exchange);
    float loc[2][8] = {};
    float (*lp)[8] = loc;
    out[i] = xchg[0][i % 4][i / 4 % 4] + (fr_t)lp[1][0];
    row(*tab)[0] = 1;
}
"""


def test_a_pointer_to_an_array_local_the_grammar_reads_as_an_expression_gets_its_space():
    # sppark's bitpermute (tests/corpus): main wrote a thread pointer cast from threadgroup memory, which its
    # checker passed and Metal rejects
    require_tool("clang")
    text = ported(ARRAY_POINTER, to="metal", dedent=False)[1]
    assert "threadgroup fr_t (*xchg)[4][4] = reinterpret_cast<decltype(xchg)>(exchange);" in text, text
    assert "    float (*lp)[8] = loc;" in text  # look-alike: a thread array's pointer stays a thread one
    assert "    row(*tab)[0] = 1;" in text  # look-alike: a call indexed and assigned is no declaration
    assert metal_checker(text) == [], text
    assert metal_checker(text.replace("threadgroup fr_t (*xchg)", "fr_t (*xchg)")) != []


def test_the_checker_reads_an_alias_template_of_a_pointer_used_with_a_spaceless_type():
    # `ptr<float>` is `float*`, a thread pointer in MSL: main's checker passed it bound to a device buffer
    require_tool("clang")
    metal = """#include <metal_stdlib>
using namespace metal;
template <class T> using ptr = T*;
kernel void k(device float* buf [[buffer(0)]]) {
    float t[2];
    ptr<SPACEfloat> p = BUF;
    ptr<float> q = t;
    p[0] = q[0];
}
"""
    wrong = metal_checker(metal.replace("SPACE", "").replace("BUF", "buf"))
    assert any(":6:" in d and "device" in d for d in wrong), wrong
    assert metal_checker(metal.replace("SPACE", "device ").replace("BUF", "buf")) == []  # (it names its space)
    assert metal_checker(metal.replace("SPACE", "").replace("BUF", "t")) == []  # a thread array: right
    cuda = "template<class T> using ptr = T*;\n__global__ void k(float* out) {\n  ptr<float> p = out;\n  p[threadIdx.x] = 1.0f;\n}\n"
    assert any(e.line == 3 for e in refusal(cuda, to="metal", dedent=False, expect="KP224"))
