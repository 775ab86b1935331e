"""libcu++'s `<cuda/std/type_traits>` and a namespace alias of `cuda::std` on HIP (issue 11, heldout95's
wenssir-fa: `namespace cxx = cuda::std;` then `cxx::is_same_v`, `cxx::tuple_size_v`, `cxx::make_index_sequence`).
The header row names the C++ library's <type_traits> (kernelport/backends/hip_libcxx.py: C++17's traits,
compile-time only), and the alias names `std` where each use of it in the file is a listed name
(kernelport/library_namespaces.py); a use of another (`cxx::atomic`) is KP209 at the use, naming the alias
and its line.  An alias of a project's own namespace, and a project's own `namespace cuda`, stay."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_cuda_std_limits import compiles_werror

ALIASED = """#include <cuda_runtime.h>
#include <cuda/std/type_traits>
#include <cuda/std/tuple>
#include <cuda/std/utility>
namespace cxx = cuda::std;
namespace cx2 = ::cuda::std;
template <class T> struct is_frag : cxx::false_type {};
template <> struct is_frag<float4> : cxx::bool_constant<true> {};
template <unsigned long... I> __device__ int sum(cxx::index_sequence<I...>) { return (int(I) + ... + 0); }
template <class T, class = cxx::enable_if_t<cxx::is_floating_point_v<T>>>
__device__ T twice(T x) { return cxx::forward<T>(x) * T(2); }
__global__ void k(float* o) {
    auto t = cxx::make_tuple(1.0f, 2);
    static_assert(cxx::is_same_v<cxx::remove_cv_t<const float>, float>, "same");
    static_assert(cx2::is_same_v<cx2::remove_reference_t<int&>, int>, "same");
    o[threadIdx.x] = twice(cxx::get<0>(t)) + cxx::tuple_size_v<decltype(t)> + sum(cxx::make_index_sequence<4>{})
                     + !is_frag<int>::value + is_frag<float4>::value;
}
"""


def _port(code: str):
    return translate(SourceFile.from_text(code, "t.cu"), "hip")


def test_an_alias_of_cuda_std_names_the_cpp_library_and_compiles_under_cpp17(tmp_path):
    port, whole = _port(ALIASED)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#include <type_traits>" in whole and "cuda/std" not in whole and "cuda::" not in whole, whole
    assert "namespace cxx = std;" in whole and "namespace cx2 = std;" in whole, whole
    assert "cxx::is_same_v<cxx::remove_cv_t<const float>, float>" in whole, whole  # the uses as written
    compiles_werror(tmp_path, whole)


def test_a_use_of_a_name_the_library_lacks_is_refused_at_the_use_naming_the_alias():
    port, _ = _port(ALIASED.replace("struct is_frag : cxx::false_type {}", "struct is_frag : cxx::atomic<int> {}"))
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert [(d.code, d.location.line) for d in errors] == [("KP209", 7)], [d.format() for d in errors]
    assert "`cxx::atomic` is libcu++'s `cuda::std::atomic` (through the namespace alias `namespace cxx = " \
           "cuda::std;` at line 5)" in errors[0].message, errors[0].message


def test_cpp20_traits_are_not_listed():  # look-alike: C++20's remove_cvref, which a C++17 build lacks
    port, _ = _port(ALIASED.replace("cxx::remove_cv_t<const float>", "cxx::remove_cvref_t<const float&>"))
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP209", 14)], \
        [d.format() for d in port.diagnostics]


def test_aliases_of_other_namespaces_stay():  # look-alikes: a project's namespaces, its own `cuda`
    own = "namespace proj { namespace detail { template <class T> struct is_same { static const bool value = false; }; } }\n" \
          "namespace pd = proj::detail;\nbool f() { return pd::is_same<int>::value; }\n"
    port, whole = _port(own)
    assert port.ok and "namespace pd = proj::detail;" in whole, whole
    mine = "namespace cuda { namespace std { struct atomic {}; } }\nnamespace cxx = cuda::std;\ncxx::atomic a;\n"
    port, whole = _port(mine)
    assert port.ok and "namespace cxx = cuda::std;" in whole, [d.format() for d in port.diagnostics]
