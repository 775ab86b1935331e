"""Overloads HIP declares that CUDA does not, seen from a helper header of a sequence-alignment
project: (1) ROCm 5.2 declares every integer atomic for `unsigned long`, which uint64_t and size_t
are on LP64 Linux, so a header's forwarding `std::uint64_t atomicAdd(std::uint64_t*, std::uint64_t)`
is a redefinition there: it goes from the port under `#if 0` (soundness.drop_target_overloads, the
HIP backend's `own_overloads`); (2) HIP overloads `__ffsll` for long long and unsigned long long,
CUDA declares only the first, so `__ffsll(uint64_t)` is ambiguous to hipcc: the port converts the
argument to CUDA's parameter type (soundness.cast_overloaded_arguments, `argument_types`), never where
the port renamed the callee (a widened ballot mask's `__ffs` that became `__ffsll`)."""
from __future__ import annotations

from port_support import ported


def hip(code: str):
    return ported(code)[0].body


_ATOMICS = """
#include <cstdint>
__device__ __forceinline__ std::uint64_t atomicAdd(std::uint64_t* address, std::uint64_t val) {
    return atomicAdd(reinterpret_cast<unsigned long long*>(address), static_cast<unsigned long long>(val));
}
__device__ __forceinline__ std::uint64_t atomicCAS(std::uint64_t* a, std::uint64_t c, std::uint64_t v) {
    return atomicCAS(reinterpret_cast<unsigned long long*>(a), static_cast<unsigned long long>(c),
                     static_cast<unsigned long long>(v));
}
__device__ std::uint32_t atomicAdd(std::uint32_t* address, std::uint64_t val) { return 0; }
__device__ std::uint64_t atomicXor(std::uint64_t* address, uint64_t val) {
    return atomicXor(reinterpret_cast<unsigned long long*>(address), static_cast<unsigned long long>(val));
}
__device__ std::uint64_t atomicOr(std::uint64_t* address, unsigned long long val) { return 0; }
__global__ void k(std::uint64_t* c) { atomicAdd(c, 1); }
"""


def test_a_headers_uint64_atomics_go_from_the_port_other_signatures_stay():
    text = hip(_ATOMICS)
    assert "#if 0  // kernelport: HIP declares atomicAdd(std::uint64_t*, std::uint64_t) itself" in text
    assert "#if 0  // kernelport: HIP declares atomicCAS(std::uint64_t*, std::uint64_t, std::uint64_t) itself" in text
    # gpuPairHMM's helper spells one type two ways (`std::uint64_t*`, `uint64_t`): still HIP's own
    assert "#if 0  // kernelport: HIP declares atomicXor(std::uint64_t*, uint64_t) itself" in text
    # look-alikes: 32-bit pointer with a 64-bit value, and `unsigned long*` with `unsigned long long`
    # (LP64: two types): no HIP declaration
    assert text.count("#if 0") == 3
    assert "atomicAdd(c, 1);" in text


_FFSLL = """
#include <cstdint>
__device__ int first(std::uint64_t x) { return __ffsll(x); }
__device__ int first32(unsigned x) { return __ffs(x); }
__global__ void k(int* out, std::uint64_t* in) { out[0] = first(in[0]) + first32(7); }
"""


def test_an_ffsll_argument_is_converted_to_cudas_parameter_type():
    text = hip(_FFSLL)
    assert "return __ffsll((long long)(x));" in text
    assert "return __ffs(x);" in text  # a 32-bit parameter: a conversion could cut a value the port widened


def test_a_widened_ballots_ffs_is_not_converted():
    text = hip("""
    __global__ void k(int* out, int* in) {
        int mask = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
        out[0] = __ffs(mask) - 1;
    }
    """)
    assert "(int)(" not in text and "(long long)(" not in text, text


def test_a_projects_own_ffsll_is_its_own():
    text = hip("""
    __device__ int __ffsll(unsigned long x) { return 0; }
    __global__ void k(int* out, unsigned long v) { out[0] = __ffsll(v); }
    """)
    assert "__ffsll(v)" in text
