"""A call of a device function's own name is recursion (KP223 on Metal) only where overload resolution on
the arguments' types says it runs that function (kernelport/backends/metal/self_calls.py): mandelspace's
util.hpp `float3 sin(float3 v)` calls CUDA's float sin for `sin(v.x)`, not itself."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port
from port_support import refusal

RECURSION = "calls itself (recursion)"


def _errors(code: str) -> list[tuple[int, int, str]]:
    return [(d.location.line, d.location.column, d.message) for d in refusal(code, to="metal")]


def test_a_vector_overload_calling_the_math_librarys_float_one_is_ported():
    text = metal_checked("""
        __device__ float3 sin(float3 v) { return make_float3(sin(v.x), sin(v.y), sin(v.z)); }
        __global__ void k(float3* a) { a[threadIdx.x] = sin(a[threadIdx.x]); }
        """)
    assert "sin(v.x)" in text and "float3 sin(float3 v)" in text


def test_a_user_overload_for_another_scalar_type_is_no_recursion():
    port, text = metal_port("""
        __device__ float twice(float x) { return x * 2.0f; }
        __device__ int twice(int n) { return (int)twice((float)n); }
        __global__ void k(int* a) { a[threadIdx.x] = twice(a[threadIdx.x]); }
        """)
    assert not [d for d in port.diagnostics if RECURSION in d.message], [d.format() for d in port.diagnostics]


def test_recursion_beside_another_overload_is_refused_located():
    # main counted any second definition of the name as "an overload: not recursion"; `f(n - 1)` is an int
    assert _errors("""
        __device__ float f(float x) { return x * 2.0f; }
        __device__ int f(int n) { return n ? n * f(n - 1) : 1; }
        __global__ void k(int* a) { a[0] = f(3); }
        """) == [(3, 42, "'f' calls itself (recursion) has no Metal meaning")]


def test_direct_recursion_with_the_same_types_stays_refused():
    assert _errors("""
        __device__ float3 wrap(float3 v) { return v.x > 1.0f ? wrap(make_float3(v.x - 1.0f, v.y, v.z)) : v; }
        __global__ void k(float3* a) { a[0] = wrap(a[1]); }
        """) == [(2, 56, "'wrap' calls itself (recursion) has no Metal meaning")]
    # a math library name the user overloads for a vector, called with the vector: the user's own
    assert _errors("""
        __device__ float3 sin(float3 v) { return v.x > 0.0f ? sin(make_float3(-v.x, v.y, v.z)) : v; }
        __global__ void k(float3* a) { a[0] = sin(a[1]); }
        """) == [(2, 55, "'sin' calls itself (recursion) has no Metal meaning")]


def test_a_recursive_template_is_refused_located():
    assert _errors("""
        template <typename T> __device__ T fact(T n) { return n ? n * fact<T>(n - 1) : 1; }
        __global__ void k(int* a) { a[0] = fact<int>(3); }
        """) == [(2, 63, "'fact' calls itself (recursion) has no Metal meaning")]


def test_mutual_recursion_is_refused_at_each_call_of_the_cycle():
    assert _errors("""
        __device__ int odd(int n);
        __device__ int even(int n) { return n ? odd(n - 1) : 1; }
        __device__ int odd(int n) { return n ? even(n - 1) : 0; }
        __global__ void k(int* a) { a[0] = even(a[1]); }
        """) == [(3, 41, "a call in a cycle of calls (even -> odd -> even: recursion) has no Metal meaning"),
                 (4, 40, "a call in a cycle of calls (odd -> even -> odd: recursion) has no Metal meaning")]


def test_a_chain_of_calls_and_an_overload_that_breaks_the_cycle_are_no_recursion():
    # even(int) calls odd(float), which calls even(float): the int overload is never reached again
    port, _ = metal_port("""
        __device__ float even(float x) { return x * 0.5f; }
        __device__ float odd(float x) { return even(x) + 1.0f; }
        __device__ int even(int n) { return (int)odd((float)n); }
        __device__ int last(int n) { return even(n) + 1; }
        __global__ void k(int* a) { a[0] = last(a[1]); }
        """)
    assert not [d for d in port.diagnostics if "recursion" in d.message], [d.format() for d in port.diagnostics]


def test_a_template_calling_another_instantiation_of_itself_is_no_recursion():
    # `sum<N - 1>` is another function, the chain ends at the specialisation: Metal compiles it
    port, _ = metal_port("""
        template <int N> __device__ int sum(const int* a) { return a[N - 1] + sum<N - 1>(a); }
        template <> __device__ int sum<0>(const int* a) { return 0; }
        __global__ void k(int* a) { a[0] = sum<4>(a); }
        """)
    assert not [d for d in port.diagnostics if "recursion" in d.message], [d.format() for d in port.diagnostics]



def test_every_c_arithmetic_spelling_is_a_scalar_in_overload_resolution():
    # cscalar.TYPES is the one table of C's arithmetic spellings: a `ptrdiff_t` or `short int` argument
    # matches its own overload exactly and the float one only by conversion, so the call is recursion
    # (main read these spellings as classes: undecided, the recursion kept for Metal's compiler to refuse)
    for spelling in ("ptrdiff_t", "short int", "signed long"):
        col = len(f"__device__ {spelling} f({spelling} n) {{ return n ? n * ") + 1
        assert _errors(f"""
        __device__ float f(float x) {{ return x * 2.0f; }}
        __device__ {spelling} f({spelling} n) {{ return n ? n * f(n) : 1; }}
        __global__ void k(int* a) {{ a[0] = (int)f(({spelling})3); }}
        """) == [(3, col, "'f' calls itself (recursion) has no Metal meaning")], spelling
    # a class type is no arithmetic spelling: undecided, so not claimed
    port, _ = metal_port("""
        struct W { float x; };
        __device__ float f(float x) { return x * 2.0f; }
        __device__ float f(W w) { return f(w); }
        __global__ void k(float* a) { a[0] = f(a[1]); }
        """)
    assert not [d for d in port.diagnostics if RECURSION in d.message]
