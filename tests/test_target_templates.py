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


CONSTEXPR = """
#include <algorithm>
template <typename T> __host__ __device__ constexpr T max(T a, T b) { return a > b ? a : b; }
template <typename T>
__device__ constexpr T min(T a, T b) {
    return a < b ? a : b;
}
constexpr int TILE = max<int>(16, 32);
static_assert(max<int>(3, 4) == 4, "max");
template <int N> struct Buf { float v[N]; };
__global__ void k(float* out, const float* in, int n) {
    __shared__ float s[max<int>(64, 128)];
    static_assert(min<int>(3, 4) == 3, "min");
    Buf<max<int>(2, 3)> b;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    b.v[0] = in[i % n];
    s[threadIdx.x % 128] = b.v[0];
    __syncthreads();
    if (i < n) out[i] = max(s[threadIdx.x % 128], 0.0f) + min(in[i], 1.0f) + TILE + std::max<int>(1, 2);
}
"""


def test_a_constexpr_template_in_a_device_constant_expression_calls_a_constexpr_copy(tmp_path):
    # main dropped `__device__` only: the array bound, static_assert and template argument in the kernel
    # reached the header's non-constexpr max<int> ("non-constexpr function 'max<int>' cannot be used in a
    # constant expression")
    port, text = ported(CONSTEXPR)
    assert "template <typename T> __host__ __device__ constexpr T kp_max(T a, T b) { return a > b ? a : b; } " \
        "template <typename T> __host__  constexpr T max(T a, T b)" in text, text
    assert "template <typename T> __host__ __device__ constexpr T kp_min(T a, T b) { return a < b ? a : b; } " \
        "template <typename T>\n__host__ constexpr T min(T a, T b)" in text, text
    for use in ("TILE = kp_max<int>(16, 32)", "static_assert(kp_max<int>(3, 4)", "s[kp_max<int>(64, 128)]",
                "static_assert(kp_min<int>(3, 4)", "Buf<kp_max<int>(2, 3)>"):
        assert use in text, (use, text)
    # the look-alikes: calls without template arguments (CUDA's overloads, or the header's) and std::max<int>
    assert "max(s[threadIdx.x % 128], 0.0f) + min(in[i], 1.0f) + TILE + std::max<int>(1, 2)" in text, text
    after = "#include <algorithm>"  # the copies on their templates' lines: the source's lines stay
    assert text.split(after)[1].count("\n") == CONSTEXPR.split(after)[1].count("\n"), text
    assert sum("constexpr `__host__ __device__` copy" in n.why for n in port.notes) == 2
    hip_compiles(tmp_path, text)


def test_look_alikes_of_the_constexpr_copy_are_left_alone(tmp_path):
    # no use with template arguments: no copy; a non-constexpr template's `max<int>` reaches the header's
    # (the same value, no constant required); a namespace's own max: an unqualified use may mean it
    plain = CONSTEXPR.replace("max<int>", "max").replace("min<int>", "min").replace("std::max(1, 2)", "1")
    _, text = ported(plain.replace("constexpr int TILE = max(16, 32);", "constexpr int TILE = 32;")
                     .replace("static_assert(max(3, 4) == 4, \"max\");", "")
                     .replace("s[max(64, 128)]", "s[128]").replace("static_assert(min(3, 4) == 3, \"min\");", "")
                     .replace("Buf<max(2, 3)>", "Buf<3>"))
    assert "kp_max" not in text and "kp_min" not in text, text
    hip_compiles(tmp_path, text)
    nonconst = """
template <typename T> __device__ T max(T a, T b) { return a > b ? a : b; }
__global__ void k(int* out) { out[0] = max<int>(out[1], out[2]); }
"""
    _, text = ported(nonconst)
    assert "kp_max" not in text and "out[0] = max<int>(out[1], out[2]);" in text, text
    hip_compiles(tmp_path, text, name="n.hip")
    spaced = CONSTEXPR.replace("template <int N> struct Buf", "namespace q { template <class T> T max(T a, T b, T c); }\n"
                               "template <int N> struct Buf")
    _, text = ported(spaced)
    assert "kp_max" not in text and "kp_min<int>(3, 4)" in text, text
