"""`typename` before a dependent qualified type in P0634's contexts, for clang 15 (kernelport/implicit_typename.py).

cuinterval's tests_rounding.cu (heldout53) writes `using T = I::value_type;` in a member template: nvcc -std=c++20
takes it (P0634), ROCm 5.2's clang 15 stops ("missing 'typename' prior to dependent type name").  The HIP port
writes `typename` in every context where C++20 lets it be left out, where the name is dependent; it compiles
for gfx90a and gfx1030.  Look-alikes kept: a value member `T::value`, a non-dependent qualified type, one
already spelled `typename`, block scope (an expression there), a plain function's parameter and a template
argument (P0634 keeps `typename` required there, so nvcc never saw them without it), and Metal (no data)."""
from __future__ import annotations

from kernelport import backends

from conftest import hip_compiles
from port_support import ported

SRC = """#include <cstddef>
namespace lib { struct plain { using size_type = int; }; }

template <typename T> struct traits { using value_type = T; using ref = T &; static constexpr int value = 2; };

template <typename I>
struct box {
    using T = I::value_type;
    I::value_type first;
    static constexpr int n = I::value;
    __device__ I::value_type get(I::value_type scale) const;
    __device__ auto twice() const -> I::value_type { return static_cast<I::value_type>(first * 2); }
    lib::plain::size_type count;
    typename I::value_type last;
};

template <typename I>
__device__ I::value_type box<I>::get(I::value_type scale) const { return first * scale; }

template <typename I, typename V = I::value_type>
__device__ V scaled(const I &, V x) { return x * I::value; }

template <typename I> I::value_type namespace_scope(typename I::value_type *p);  // (a plain function's parameter: P0634 keeps typename)

struct fn {
    template <typename I, int N = 2>
    __device__ I operator()(const I &x) const
    {
        using T = I::value_type;
        T y = x.lb;
        for (int i = 0; i < N; i++) y = y * I::value;
        return I{y};
    }
};

struct iv { using value_type = float; static constexpr int value = 3; float lb; };

__global__ void k(float *out)
{
    box<traits<float>> b{1.f, 0, 3.f};
    out[threadIdx.x] = b.get(2.f) + b.twice() + scaled(traits<float>{}, 1.f) + fn{}(iv{out[0]}).lb;
}
"""


def test_each_p0634_context_gets_typename():
    port, body = ported(SRC, dedent=False)
    for line in ("    using T = typename I::value_type;",
                 "    typename I::value_type first;",
                 "    __device__ typename I::value_type get(typename I::value_type scale) const;",
                 "    __device__ auto twice() const -> typename I::value_type { return static_cast<typename I::value_type>(first * 2); }",
                 "__device__ typename I::value_type box<I>::get(typename I::value_type scale) const { return first * scale; }",
                 "template <typename I, typename V = typename I::value_type>",
                 "template <typename I> typename I::value_type namespace_scope(typename I::value_type *p);  // (a plain function's parameter: P0634 keeps typename)",
                 "        using T = typename I::value_type;"):
        assert line in body.splitlines(), line
    assert sum("P0634" in n.why for n in port.notes) == 11


def test_values_non_dependent_names_and_written_typename_are_kept():
    _, body = ported(SRC, dedent=False)
    assert "    static constexpr int n = I::value;" in body
    assert "y = y * I::value;" in body and "return x * I::value;" in body
    assert "    lib::plain::size_type count;" in body
    assert "    typename I::value_type last;" in body and "typename typename" not in body


def test_block_scope_plain_parameters_and_template_arguments_are_not_p0634_contexts():
    src = """template <typename T> struct holder { T v; };
template <typename T> __device__ int f(int y) { T::value * y; return holder<typename T::type>{}.v; }
template <typename T> __device__ void g(typename T::type x);
"""
    _, body = ported(src, dedent=False)
    assert "{ T::value * y;" in body and "holder<typename T::type>" in body and "typename typename" not in body
    assert body.count("typename") == src.count("typename")


def test_a_backend_whose_compiler_takes_p0634_keeps_the_source():
    assert backends.get("metal").typename_required is None
    assert backends.get("portable").typename_required == backends.get("hip").typename_required
    _, body = ported(SRC, to="portable", dedent=False)
    assert "using T = typename I::value_type;" in body


def test_the_port_compiles_for_both_waves(tmp_path):
    _, body = ported(SRC, dedent=False)
    hip_compiles(tmp_path, body, extra_args=("-std=c++20",))


CAST = """
struct Field { typedef unsigned storage; static __device__ unsigned make(unsigned v) { return v + 1; } unsigned val; };
struct Other { enum { width = 4 }; typedef int mixed; };
struct Third { static __device__ int mixed() { return 1; } };
template <class FD> __device__ unsigned pick(bool c, unsigned v) {
    const auto a = c ? FD::make(v) : FD::storage();
    const auto b = FD::storage{};
    const unsigned d = Field::storage();
    return a + b + d + FD::make(2) + Other::width;
}
template <class T> __device__ int other() { return T::mixed(); }
__global__ void k(unsigned *o) { o[threadIdx.x] = pick<Field>(threadIdx.x & 1, o[threadIdx.x]) + other<Third>(); }
"""


def test_a_dependent_functional_cast_gets_typename_and_compiles(tmp_path):
    """era-bellman-cuda's ntt_kernels.cu (heldout30): `cond ? get_inv_size<FD>(log_n) : FD::storage()`, where
    ff_dispatch_st's `storage` is a typedef: nvcc takes the value-initialisation without `typename`, clang 15
    stops at each instance ("missing 'typename' prior to dependent type name").  Only where every member of
    that name the file and its headers show is a type: `FD::make(v)` (a static function), `T::mixed()` (a type
    in one class, a function in another) and the non-dependent `Field::storage()` keep their text."""
    _, body = ported(CAST, dedent=False)
    assert "c ? FD::make(v) : typename FD::storage();" in body
    assert "const auto b = typename FD::storage{};" in body
    assert "const unsigned d = Field::storage();" in body
    assert "FD::make(2)" in body and "typename FD::make" not in body
    assert "return T::mixed();" in body
    hip_compiles(tmp_path, body)

