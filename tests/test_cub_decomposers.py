"""A CUB radix sort's decomposer on HIP (kernelport/cub_decomposers.py, HipBackend.decomposer_tuple).

CUB 2.x sorts keys of a user type through a function object whose `operator()(Key&)` returns a libcu++
tuple of references (`cuda::std::tie(k.hi, k.lo)`). hipCUB (ROCm 6.2 and later) takes the same call but
asks for `hipcub::tuple` (rocPRIM's, whose constructors are explicit): `std::tie`, which `cuda::std::tie`
is elsewhere, stops at rocPRIM's "is_tuple_of_references is only implemented for rocprim::tuple".
Checked by hand with hipcc (ROCm 5.2's clang) against hipCUB/rocPRIM's rocm-6.3 headers: the ported
decomposers below compile for gfx90a and gfx1030, `std::tie` does not. Debian's hipCUB (5.2/5.3) has
no decomposer overload at all, so no hipcc run here.
"""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

DECOMPOSED = """#include <cub/cub.cuh>
#include <cuda/std/tuple>
struct Key { unsigned long long hi; unsigned long long lo; };
namespace ns {
struct ByType {
    __host__ __device__ cuda::std::tuple<unsigned long long&, unsigned long long&> operator()(Key& k) const {
        return {k.hi, k.lo};
    }
};
}
struct ByTie {
    __host__ __device__ auto operator()(Key& k) const { return ::cuda::std::tie(k.hi, k.lo); }
};
void sort(void* t, size_t& b, const Key* ki, Key* ko, const int* vi, int* vo, int n, cudaStream_t s) {
    ns::ByType d;
    cub::DeviceRadixSort::SortKeys(t, b, ki, ko, n, d, 0, 128, s);
    cub::DeviceRadixSort::SortPairs(t, b, ki, ko, vi, vo, n, ByTie{}, 0, int(sizeof(Key) * 8), s);
}
"""

# the same function objects' shape, given to no radix sort (a lexicographic key for std algorithms)
LOOKALIKE = """#include <cub/cub.cuh>
#include <cuda/std/tuple>
struct Key { unsigned long long hi; unsigned long long lo; };
struct AsTuple {
    __host__ __device__ auto operator()(Key& k) const { return cuda::std::tie(k.hi, k.lo); }
};
struct Typed {
    __host__ __device__ cuda::std::tuple<unsigned long long&, unsigned long long&> operator()(Key& k) const {
        return {k.hi, k.lo};
    }
};
bool less(Key a, Key b) { return AsTuple{}(a) < Typed{}(b); }
void sort(void* t, size_t& b, const unsigned* ki, unsigned* ko, int n, cudaStream_t s) {
    cub::DeviceRadixSort::SortKeys(t, b, ki, ko, n, 0, 32, s);
}
"""


def test_decomposer_tuples_are_hipcubs():
    port, whole = translate(SourceFile.from_text(DECOMPOSED, "t.cu"), "hip")
    assert port.ok, port.diagnostics
    assert ("__host__ __device__ ::hipcub::tuple<unsigned long long&, unsigned long long&> operator()(Key& k) const {\n"
            "        return ::hipcub::tuple<unsigned long long&, unsigned long long&>{k.hi, k.lo};") in whole, whole
    assert "return ::hipcub::tuple<decltype((k.hi)), decltype((k.lo))>{k.hi, k.lo}; }" in whole, whole
    assert "hipcub::DeviceRadixSort::SortPairs(t, b, ki, ko, vi, vo, n, ByTie{}, 0," in whole, whole
    assert "std::tie" not in whole and "cuda::" not in whole, whole


def test_tuples_no_radix_sort_is_given_stay_the_cpp_librarys():
    port, whole = translate(SourceFile.from_text(LOOKALIKE, "t.cu"), "hip")
    assert port.ok, port.diagnostics
    assert "return std::tie(k.hi, k.lo); }" in whole, whole
    assert "__host__ __device__ std::tuple<unsigned long long&, unsigned long long&> operator()" in whole, whole
    assert "        return {k.hi, k.lo};" in whole, whole
    assert "hipcub::tuple" not in whole, whole


def test_metal_has_no_decomposer_spelling():
    from kernelport import backends
    assert backends.get("hip").decomposer_tuple == "::hipcub::tuple"
    assert backends.get("metal").decomposer_tuple is None


def test_block_radix_sort_decomposer_and_a_variable_declared_with_braces():
    src = """#include <cub/cub.cuh>
#include <cuda/std/tuple>
struct Key { float f; int i; };
struct Dec { __host__ __device__ cuda::std::tuple<float&, int&> operator()(Key& k) const { return cuda::std::tie(k.f, k.i); } };
__global__ void k(Key* keys) {
    using Sort = cub::BlockRadixSort<Key, 128, 1>;
    __shared__ typename Sort::TempStorage tmp;
    Key mine[1] = {keys[threadIdx.x]};
    Dec dec{};
    Sort(tmp).Sort(mine, dec);
    keys[threadIdx.x] = mine[0];
}
"""
    port, whole = translate(SourceFile.from_text(src, "t.cu"), "hip")
    assert "::hipcub::tuple<float&, int&> operator()(Key& k) const { return ::hipcub::tuple<decltype((k.f)), " \
           "decltype((k.i))>{k.f, k.i}; }" in whole, whole


def test_a_sort_method_of_another_class_is_no_radix_sort():
    src = """#include <cub/cub.cuh>
#include <cuda/std/tuple>
struct Key { float f; int i; };
struct Dec { __host__ __device__ auto operator()(Key& k) const { return cuda::std::tie(k.f, k.i); } };
struct Sorter { template <class F> void Sort(Key* k, F f) {} };
void host(Key* keys) { Sorter s; s.Sort(keys, Dec{}); }
"""
    port, whole = translate(SourceFile.from_text(src, "t.cu"), "hip")
    assert "return std::tie(k.f, k.i); }" in whole and "hipcub::tuple" not in whole, whole
