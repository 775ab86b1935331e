"""A project's own file-scope `template <typename T> __device__ T max(T a, T b)` (or `min`): clang's
__clang_hip_math.h, which every hipcc compile includes, defines that template itself, so hipcc says
"redefinition of 'max'" ("cannot overload" for a `__host__ __device__` one, "ambiguous" calls for
`const T&` parameters).  Where the project's means what the header's computes, the port drops its
`__device__` (device calls reach the header's, host calls keep it); where it means something else, the
port is refused with a located KP246; a template of another signature, in a namespace, or host-only is
left as written (kernelport/target_templates.py, the HIP backend's `own_templates`)."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import ported, refusal

KERNEL = """
__global__ void k(unsigned char* p, float* f, int* i) {
    p[0] = max(p[1], p[2]);
    f[0] = min(max(f[1], f[2]), f[3]);
    i[0] = max(i[1], i[2]);
}
"""

SAME = """
template<typename T>
__device__ T max(T v1, T v2)
{
    return v1>v2?v1:v2;
}

template <class T> __host__ __device__ inline T min(const T& a, const T& b) { return (b > a) ? a : b; }
""" + KERNEL


def test_a_template_that_means_the_headers_keeps_host_calls_only(tmp_path):
    port, text = ported(SAME)
    assert "template<typename T>\n__host__ T max(T v1, T v2)" in text, text
    assert "template <class T> __host__  inline T min(const T& a, const T& b)" in text, text
    assert "__device__" not in text.split("__global__")[0], text
    assert sum("HIP's device headers define" in n.why for n in port.notes) == 2
    hip_compiles(tmp_path, text)


def test_the_same_template_on_metal_keeps_its_own_definition():
    port, text = ported(SAME, to="metal")
    assert "T max(T v1, T v2)" in text and "__host__" not in text, text


def test_a_template_of_another_meaning_is_refused_at_its_line():
    errors = refusal("""
#include <cstdint>
template<typename T>
__device__ T max(T a, T b) { return a >= b ? a : b; }
""" + KERNEL, expect="KP246")
    assert [(e.code, e.line, e.column) for e in errors] == [("KP246", 3, 1)], [e.format() for e in errors]
    assert "rename this template" in errors[0].hint


def test_a_clamp_named_min_is_refused_too():
    errors = refusal("""
    template <typename T> __device__ T min(T v, T hi) { return v < hi ? v : hi - 1; }
    __global__ void k(int* p) { p[0] = min(p[1], p[2]); }
    """, expect="KP246")
    assert [e.line for e in errors] == [2]


def test_look_alikes_of_another_signature_or_scope_are_left_alone(tmp_path):
    code = """
    template <typename T> __device__ T max(T a, T b, T c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }
    template <typename T, typename U> __device__ T min(T a, U b) { return a < b ? a : b; }
    namespace img { template <typename T> __device__ T max(T a, T b) { return a > b ? a : b; } }
    template <typename T> T min(T a, T b) { return a < b ? a : b; }
    __global__ void k(float* f) { f[0] = max(f[1], f[2], f[3]) + img::max(f[4], f[5]); }
    """
    port, text = ported(code)
    assert "__device__ T max(T a, T b, T c)" in text
    assert "__device__ T min(T a, U b)" in text
    assert "namespace img { template <typename T> __device__ T max(T a, T b)" in text
    assert "template <typename T> T min(T a, T b)" in text
    assert not any("device headers define" in n.why for n in port.notes)
    hip_compiles(tmp_path, text)


def test_a_const_by_value_parameter_is_the_headers_signature(tmp_path):
    # `const T a` by value: the top-level const is no part of the signature, so hipcc says "redefinition of
    # 'max'" as for `T a` (main left it as written: the port did not compile)
    port, text = ported("""
template <typename T> __device__ T max(const T a, const T b) { return a > b ? a : b; }
template <typename T> __device__ T min(T const a, T const b) { return a < b ? a : b; }
""" + KERNEL)
    assert "template <typename T> __host__ T max(const T a, const T b)" in text, text
    assert "template <typename T> __host__ T min(T const a, T const b)" in text, text
    hip_compiles(tmp_path, text)
    # look-alike of another meaning, spelled so, is refused; a pointer is another signature, left alone
    errors = refusal("template <typename T> __device__ T max(const T a, const T b) { return a >= b ? a : b; }\n"
                     + KERNEL, expect="KP246")
    assert [(e.code, e.line) for e in errors] == [("KP246", 1)]
    port, text = ported("template <typename T> __device__ T max(T* a, T* b) { return *a > *b ? *a : *b; }\n"
                        "__global__ void k(float* f) { f[0] = max(f + 1, f + 2); }\n")
    assert "__device__ T max(T* a, T* b)" in text


def test_a_non_const_reference_template_is_the_headers_clash_too(tmp_path):
    # `max(T&, T&)`: a call on two lvalues of a type without a non-template overload (short) is "ambiguous" to
    # hipcc beside the header's `max(T, T)`; the same meaning ports as `T`'s does, another is KP246
    code = """
template <typename T> __device__ T max(T& a, T& b) { return a > b ? a : b; }
__global__ void k(short* o) { short x = o[0], y = o[1]; o[threadIdx.x] = max(x, y); }
"""
    port, text = ported(code)
    assert "template <typename T> __host__ T max(T& a, T& b)" in text, text
    hip_compiles(tmp_path, text)
    errors = refusal(code.replace("a > b ? a : b", "a > b ? a : b - 1"), expect="KP246")
    assert [(e.code, e.line) for e in errors] == [("KP246", 2)]


def test_a_template_returning_a_reference_is_another_signature(tmp_path):
    # `T const & max(const T&, const T&)` (std::max's shape, written with the qualifiers after the type): another
    # template, left as written whatever its body (a KP246 on main broke test_qualifiers_after_type's port); the
    # float calls reach the non-template overloads on both compilers
    code = ("template<typename T> T const & __device__ __host__ max(const T& a, const T& b) { return a < b ? b : a; }\n"
            "__global__ void k(float* p) { p[threadIdx.x] = max(p[0], p[1]); }\n")
    port, text = ported(code)
    assert "T const & __device__ __host__ max(const T& a, const T& b)" in text
    assert not any("device headers define" in n.why for n in port.notes)
    hip_compiles(tmp_path, text)
    # look-alike: the same body returning T by value is the header's signature of another meaning: KP246
    errors = refusal(code.replace("T const & __device__", "T __device__"), expect="KP246")
    assert [(e.code, e.line) for e in errors] == [("KP246", 1)]
