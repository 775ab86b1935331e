"""Metal ports of device code that reads <type_traits>: `std::is_integral<T>::value`,
`std::is_unsigned<T>::value`, `std::remove_cv_t<T>` ... become MSL's `metal::` traits of the same
names (<metal_type_traits>) with the same values; a trait Metal lacks stays refused at its line."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port, require_tool
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port, require_tool

# a Huffman decoder's bit reader templated on its word type (the shape of jpeggpu's decode_huffman.cu):
# the traits pick the shift at compile time
FIXTURE = """
#include <type_traits>
template <typename T>
__device__ T take_bits(T word, int n) {
    static_assert(std::is_integral<T>::value && std::is_unsigned<T>::value, "unsigned words only");
    typedef typename std::remove_cv<const T>::type W;
    return std::is_same<W, T>::value ? (W)(word >> n) : (W)0;
}
template <typename T>
__device__ float scale_of(T v) {
    return std::is_floating_point<T>::value ? 1.0f : (std::is_signed<T>::value ? -1.0f : 2.0f);
}
__global__ void k(unsigned int *w, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        w[i] = take_bits(w[i], 3);
        out[i] = scale_of(i) + scale_of(out[i]) + scale_of(w[i]);
    }
}
"""


def test_type_traits_become_metal_traits_and_the_port_checks():
    require_tool("clang")
    text = metal_checked(FIXTURE)
    for name in ("is_integral", "is_unsigned", "remove_cv", "is_same", "is_floating_point", "is_signed"):
        assert f"metal::{name}<" in text, name
    assert "std::" not in text


def test_the_checkers_traits_have_cs_values():
    """The model's traits answer as C++'s do: a static_assert that fails would fail the check."""
    require_tool("clang")
    metal_checked("""
    #include <type_traits>
    static_assert(std::is_integral<const unsigned char>::value && std::is_integral<bool>::value, "");
    static_assert(!std::is_integral<float>::value && std::is_floating_point<float>::value, "");
    static_assert(std::is_signed<int>::value && !std::is_signed<unsigned int>::value, "");
    static_assert(std::is_unsigned<unsigned short>::value && !std::is_unsigned<float>::value, "");
    static_assert(std::is_signed<float>::value && std::is_unsigned<bool>::value, "");
    struct S { int a; };
    static_assert(!std::is_signed<S>::value && !std::is_unsigned<S>::value && !std::is_integral<S>::value, "");
    static_assert(std::is_same<std::remove_cv<const volatile int>::type, int>::value, "");
    __global__ void k(int *a) { a[threadIdx.x] = std::is_signed_v<int> ? 1 : 0; }
    """)


def test_a_trait_metal_lacks_stays_refused_at_its_line():
    require_tool("clang")
    port, _ = metal_port("""
    #include <type_traits>
    template <typename T> __device__ int tag(T) { return std::is_trivially_copyable<T>::value ? 1 : 0; }
    __global__ void k(int *a) { a[threadIdx.x] = tag(a[threadIdx.x]); }
    """)
    assert not port.ok
    assert any(d.code in ("KP223", "KP224") and d.location.line == 3 for d in port.diagnostics), \
        [d.format() for d in port.diagnostics]
