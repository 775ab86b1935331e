"""libcu++'s names that HIP's port writes as the C++ library's (HipBackend.qualified_names): each header
row of the API table that maps `<cuda/std/X>` to `<X>` (scripts/gen_hip_api.py) names what its header
holds here.  clang's HIP takes constexpr functions and members as host and device, and type traits,
integer sequences and variable templates are compile-time only, so the C++ library's names mean in device
code what libcu++'s do.  A name not listed (`cuda::std::atomic`, whose scopes are libcu++'s; C++20's
`remove_cvref`, which a C++17 build lacks) stays as written and is refused (KP209)."""
from __future__ import annotations

# <type_traits> (row <cuda/std/type_traits>): C++17's traits, the predicates with their `_v` and the
# transformations with their `_t`
_PREDICATES = (
    "is_same", "is_void", "is_null_pointer", "is_integral", "is_floating_point", "is_array", "is_enum", "is_union",
    "is_class", "is_function", "is_pointer", "is_lvalue_reference", "is_rvalue_reference", "is_member_pointer",
    "is_fundamental", "is_arithmetic", "is_scalar", "is_object", "is_compound", "is_reference", "is_const",
    "is_volatile", "is_trivial", "is_trivially_copyable", "is_standard_layout", "is_empty", "is_polymorphic",
    "is_abstract", "is_final", "is_aggregate", "is_signed", "is_unsigned", "is_constructible",
    "is_trivially_constructible", "is_nothrow_constructible", "is_default_constructible",
    "is_trivially_default_constructible", "is_nothrow_default_constructible", "is_copy_constructible",
    "is_trivially_copy_constructible", "is_move_constructible", "is_trivially_move_constructible", "is_assignable",
    "is_copy_assignable", "is_move_assignable", "is_destructible", "is_trivially_destructible", "is_base_of",
    "is_convertible", "is_invocable", "is_invocable_r", "has_unique_object_representations", "conjunction",
    "disjunction", "negation")
_TRANSFORMS = (
    "enable_if", "conditional", "remove_cv", "remove_const", "remove_volatile", "add_cv", "add_const", "add_volatile",
    "remove_reference", "add_lvalue_reference", "add_rvalue_reference", "remove_pointer", "add_pointer",
    "remove_extent", "remove_all_extents", "make_signed", "make_unsigned", "decay", "common_type", "underlying_type",
    "invoke_result", "aligned_storage")
TYPE_TRAITS = (*_PREDICATES, *(f"{n}_v" for n in _PREDICATES if n not in ("conjunction", "disjunction", "negation")),
               "conjunction_v", "disjunction_v", "negation_v", *_TRANSFORMS, *(f"{n}_t" for n in _TRANSFORMS),
               "integral_constant", "bool_constant", "true_type", "false_type", "void_t", "alignment_of", "rank",
               "extent", "alignment_of_v", "rank_v", "extent_v")

LIBCXX_NAMES = {
    # <cuda/std/limits>, <cuda/std/cstdint> and <cuda/std/array> (rows <limits>, <cstdint>, <array>)
    "cuda::std::numeric_limits": "std::numeric_limits", "cuda::std::array": "std::array",
    **{f"cuda::std::{t}": f"std::{t}" for t in (
        "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
        "intptr_t", "uintptr_t", "intmax_t", "uintmax_t")},
    # <cuda/std/complex>, <cuda/std/tuple>, <cuda/std/utility> (rows <complex>, <tuple>, <utility>): clang's
    # HIP compiles std::complex's arithmetic and functions in device code (its complex builtins) and takes
    # tuple's and pair's constexpr members as host and device
    **{f"cuda::std::{n}": f"std::{n}" for n in (
        "complex", "conj", "norm", "abs", "arg", "polar", "real", "imag", "proj", "exp", "log",
        "log10", "pow", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan",
        "asinh", "acosh", "atanh", "tuple", "make_tuple", "tie", "get", "tuple_size", "tuple_size_v",
        "tuple_element", "tuple_element_t", "forward_as_tuple", "tuple_cat", "apply", "ignore", "pair", "make_pair",
        # <utility>'s constexpr casts and compile-time integer sequences (declval: unevaluated)
        "forward", "move", "declval", "integer_sequence", "make_integer_sequence", "index_sequence",
        "make_index_sequence", "index_sequence_for",
        # <cuda/std/span>: C++20's std::span (the prologue stops a pre-C++20 build with an #error)
        "span", "dynamic_extent",
        # <cuda/std/functional> and <cuda/functional> (rows <functional>): the function objects,
        # whose constexpr operator() clang's HIP takes as host and device
        "plus", "minus", "multiplies", "divides", "modulus", "negate", "equal_to", "not_equal_to",
        "greater", "less", "greater_equal", "less_equal", "logical_and", "logical_or",
        "logical_not", "bit_and", "bit_or", "bit_xor", "bit_not", *TYPE_TRAITS)},
    # rocThrust's thrust/system/hip/error.h: Thrust's CUDA error category is its hip_category
    "thrust::cuda_category": "thrust::hip_category",
    "thrust::system::cuda_category": "thrust::system::hip_category"}

# CUDA's extended floating types (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h ...), which libcu++ specializes its
# numeric_limits and complex for (`cuda::std::numeric_limits<__half>::max()` is 65504) and the C++ library
# does not: its primary numeric_limits gives 0 for max(), lowest(), epsilon() ... (is_specialized false), a port
# that compiles with hipcc and computes another value; complex of them is unspecified.  Refused (KP209).
EXTENDED_FLOATS = r"\b(?:__)?half2?\b|\b(?:__)?nv_bfloat162?\b|\b__half_raw\b|\b__nv_bfloat16_raw\b|\b__nv_fp[468]\w*"
LIBCXX_ARGUMENTS = {"cuda::std::numeric_limits": EXTENDED_FLOATS, "cuda::std::complex": EXTENDED_FLOATS}
