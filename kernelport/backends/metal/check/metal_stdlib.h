// kernelport metal_stdlib.h: a model of the Metal Shading Language (MSL) standard library
// for type-checking generated .metal files on Linux with clang in C++-for-OpenCL mode:
//
//   clang-15 -target spir64 -x clcpp -cl-std=clc++2021 -cl-no-stdinc -fsyntax-only \
//            -Xclang -cl-ext=-cl_khr_fp64,-__opencl_c_fp64,-__opencl_c_program_scope_global_variables,-__opencl_c_device_enqueue \
//            -include metal_stdlib.h kernel.metal
//
// (no double; program-scope and static variables only in `constant`, as in Metal).  Static
// data members and variable templates below are therefore declared `constant`.
//
// kernelport.backends.metal.check strips `#include <metal_*>` lines and MSL [[attributes]] (after
// checking them in Python) before clang reads the file; everything else is this header.
//
// OpenCL's address spaces match Metal's one for one, so the mistakes that matter are real
// compile errors here:  device -> __global, threadgroup -> __local, constant -> __constant,
// thread -> __private.  A pointer without an address space on a kernel parameter, a device
// pointer passed where a threadgroup pointer is expected, a threadgroup variable outside
// kernel scope, `double`, a float atomic on threadgroup memory, a SIMD-group reduction on a
// 64-bit type, an implicit simd_vote -> integer conversion: all are rejected.
//
// Written from the MSL specification (sections 2 "Data types", 4 "Address spaces",
// 6 "Metal standard library": math, integer, relational, geometric, synchronization,
// SIMD-group and atomic functions).  Functions are declarations only: this header is for
// -fsyntax-only, never for code generation.  Forbidden overloads (e.g. a float atomic on
// threadgroup memory) are declared with clang's `unavailable("reason")` attribute: like
// `= delete` they win overload resolution and then fail, but the error also says why.

#ifndef KERNELPORT_METAL_STDLIB_H
#define KERNELPORT_METAL_STDLIB_H

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// A kernel's buffer of a class template instance (`device Big* n` with `typedef BigT<4> Big`) is
// Metal; C++ for OpenCL tests a kernel pointee for standard layout and refuses an instance not yet
// instantiated at the kernel (clang's check reads no definition).  Metal makes no such test.
#pragma OPENCL EXTENSION __cl_clang_non_portable_kernel_param_types : enable

#define __METAL_VERSION__ 310
#define __KERNELPORT_METAL_CHECK__ 1

// ---------------------------------------------------------------------------------------------
// Address spaces and function qualifiers.  `constant` and `kernel` are already keywords of
// OpenCL (= __constant, __kernel; an OpenCL kernel, like a Metal one, must return void).
// ---------------------------------------------------------------------------------------------
#define device __global
#define threadgroup __local
#define thread __private
#define kernel __kernel
// a temporary bound to a `const thread T&` parameter, as Metal binds it (C++ for OpenCL materialises it in
// no address space): the checker wraps what clang names so that the call's later arguments are checked
// (thread_arguments.py)
template <class T> const __private T &__kp_thread_tmp(const T &x);
// a `const thread T&` parameter's default argument, a thread temporary in Metal (thread_params.py)
#define __kpT(...) __kp_thread_tmp(__VA_ARGS__)
// OpenCL's other words, which Metal lacks (a port may name a namespace `global` or a variable `local`,
// as the CUDA source did): plain names here, renamed alike everywhere (the checker's messages say them
// as written)
#define global __kp_opencl_global
#define local __kp_opencl_local
#define generic __kp_opencl_generic
#define pipe __kp_opencl_pipe
#define read_only __kp_opencl_read_only
#define write_only __kp_opencl_write_only
#define read_write __kp_opencl_read_write

// Metal has no double precision at all.  (Unsuffixed literals such as 0.5 are single
// precision because the checker also turns off cl_khr_fp64.)
#define double __kp_metal_has_no_double

#define __KP_FORBID(msg) __attribute__((unavailable(msg)))
#define __KP_NO64 "Metal SIMD-group functions do not accept 64-bit or bool types (long, ulong, size_t, bool); use int/uint/float/half"

// ---------------------------------------------------------------------------------------------
// Scalar types (MSL 2.1)
// ---------------------------------------------------------------------------------------------
typedef unsigned char uchar;

// A member function's `this` points into `thread` memory in MSL (unless the function is qualified
// `device`, ...), but into `__generic` memory in C++ for OpenCL, which no `thread`-only overload
// accepts: `&payload` in a method of a port is `thread T*` to Metal and `__generic T*` here.  The
// byte views of kernelport's memcpy/memset polyfills (templates/metal_polyfills.j2: one overload
// per MSL space) get here the overload that Metal's `thread` one stands for; constness comes
// through T, as in theirs.
template <typename T> __generic uchar* kp_bytes(__generic T* p);
template <typename T> const __generic uchar* kp_cbytes(const __generic T* p);
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long int64_t;
typedef unsigned long uint64_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;

// bfloat (MSL 3.1): a storage/arithmetic type modelled as a class converting to float.
struct bfloat {
  constexpr bfloat() : __bits(0) {}
  constexpr bfloat(float f) : __bits(0) { (void)f; }
  constexpr bfloat(half h) : __bits(0) { (void)h; }
  constexpr bfloat(int i) : __bits(0) { (void)i; }
  constexpr bfloat(uint i) : __bits(0) { (void)i; }
  operator float() const;
  explicit operator half() const;
  ushort __bits;
};

// ---------------------------------------------------------------------------------------------
// Type traits used by the declarations below (MSL's own header uses the same technique).
// ---------------------------------------------------------------------------------------------
namespace __kp {
template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { typedef T type; };
template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;
template <class A, class B> struct is_same { static constexpr constant bool value = false; };
template <class A> struct is_same<A, A> { static constexpr constant bool value = true; };
template <bool B, class T, class F> struct conditional { typedef T type; };
template <class T, class F> struct conditional<false, T, F> { typedef F type; };
template <class T> struct identity { typedef T type; };

template <class T> struct vec_info {
  static constexpr constant bool is_vector = false;
  static constexpr constant int size = 1;
  typedef T scalar;
};
template <class T, int N> struct vec_info<T __attribute__((ext_vector_type(N)))> {
  static constexpr constant bool is_vector = true;
  static constexpr constant int size = N;
  typedef T scalar;
};
template <class T> using scalar_t = typename vec_info<T>::scalar;

template <class T> struct is_fp_scalar { static constexpr constant bool value = false; };
template <> struct is_fp_scalar<float> { static constexpr constant bool value = true; };
template <> struct is_fp_scalar<half> { static constexpr constant bool value = true; };
template <> struct is_fp_scalar<bfloat> { static constexpr constant bool value = true; };

template <class T> struct is_int_scalar { static constexpr constant bool value = false; };
template <> struct is_int_scalar<char> { static constexpr constant bool value = true; };
template <> struct is_int_scalar<signed char> { static constexpr constant bool value = true; };
template <> struct is_int_scalar<uchar> { static constexpr constant bool value = true; };
template <> struct is_int_scalar<short> { static constexpr constant bool value = true; };
template <> struct is_int_scalar<ushort> { static constexpr constant bool value = true; };
template <> struct is_int_scalar<int> { static constexpr constant bool value = true; };
template <> struct is_int_scalar<uint> { static constexpr constant bool value = true; };
template <> struct is_int_scalar<long> { static constexpr constant bool value = true; };
template <> struct is_int_scalar<ulong> { static constexpr constant bool value = true; };
template <> struct is_int_scalar<long long> { static constexpr constant bool value = true; };
template <> struct is_int_scalar<unsigned long long> { static constexpr constant bool value = true; };

template <class T> struct is_64bit_int {
  static constexpr constant bool value = is_same<T, long>::value || is_same<T, ulong>::value ||
                                is_same<T, long long>::value ||
                                is_same<T, unsigned long long>::value;
};

template <class T> constexpr constant bool is_fp = is_fp_scalar<scalar_t<T>>::value;
template <class T> constexpr constant bool is_int = is_int_scalar<scalar_t<T>>::value;
template <class T> constexpr constant bool is_vec = vec_info<T>::is_vector;
template <class T> constexpr constant bool is_arith = is_fp<T> || is_int<T> || is_same<T, bool>::value;
template <class T> constexpr constant bool is_arith_scalar = is_arith<T> && !is_vec<T>;
// T of Table 6.14/6.15: "a scalar or vector of any integer or floating-point type, except
// bool, long, ulong, void, size_t, ptrdiff_t".
template <class T> constexpr constant bool simd_ok = (is_fp<T> || is_int<T>) && !is_64bit_int<scalar_t<T>>::value;
template <class T> constexpr constant bool simd_int_ok = is_int<T> && !is_64bit_int<scalar_t<T>>::value;
template <class T> constexpr constant bool simd_fp_or_int = is_fp<T> || is_int<T>;

// Operand type of a binary math function, as MSL computes it: identical types; a vector and
// a scalar (-> the vector); a floating-point scalar and an integer scalar (-> the
// floating-point type); int and bool (-> int).  Anything else (e.g. uint with int) is no
// match, as in Metal.
template <class T, class U, class E = void> struct binop { typedef void type; };
template <class T> struct binop<T, T, enable_if_t<is_fp<T> || is_int<T>>> { typedef T type; };
template <class T, class U>
struct binop<T, U, enable_if_t<!is_same<T, U>::value && is_vec<T> && is_arith_scalar<U>>> { typedef T type; };
template <class T, class U>
struct binop<T, U, enable_if_t<!is_same<T, U>::value && is_vec<U> && is_arith_scalar<T>>> { typedef U type; };
template <class T, class U>
struct binop<T, U, enable_if_t<!is_same<T, U>::value && is_arith_scalar<T> && is_arith_scalar<U> &&
                               (is_fp<T> != is_fp<U>)>> {
  typedef typename conditional<is_fp<T>, T, U>::type type;
};
template <> struct binop<int, bool, void> { typedef int type; };
template <> struct binop<bool, int, void> { typedef int type; };
template <class T, class U> using binop_t = typename binop<T, U>::type;

template <class T, class U, class V, class E = void> struct ternop { typedef void type; };
template <class T> struct ternop<T, T, T, enable_if_t<is_fp<T> || is_int<T>>> { typedef T type; };
template <class T, class U, class V>
struct ternop<T, U, V, enable_if_t<!(is_same<T, U>::value && is_same<U, V>::value) &&
                                   !is_same<void, binop_t<binop_t<T, U>, V>>::value &&
                                   !is_same<void, binop_t<T, U>>::value>> {
  typedef binop_t<binop_t<T, U>, V> type;
};
template <class T, class U, class V> using ternop_t = typename ternop<T, U, V>::type;

template <class T, class R = T> using if_fp = enable_if_t<is_fp<T>, R>;
template <class T, class R = T> using if_float = enable_if_t<is_same<scalar_t<T>, float>::value, R>;
template <class T, class R = T> using if_int = enable_if_t<is_int<T>, R>;
template <class T, class R = T> using if_num = enable_if_t<is_fp<T> || is_int<T>, R>;
template <class T, class U> using fp_bin_t = enable_if_t<is_fp<binop_t<T, U>>, binop_t<T, U>>;
template <class T, class U> using num_bin_t = enable_if_t<!is_same<void, binop_t<T, U>>::value, binop_t<T, U>>;
template <class T, class U, class V> using fp_tern_t = enable_if_t<is_fp<ternop_t<T, U, V>>, ternop_t<T, U, V>>;
template <class T, class U, class V> using num_tern_t = enable_if_t<!is_same<void, ternop_t<T, U, V>>::value, ternop_t<T, U, V>>;

// n-component bool-like vector for relational results (OpenCL compares yield int vectors).
template <class T> struct rel_result { typedef bool type; };
template <class T, int N> struct rel_result<T __attribute__((ext_vector_type(N)))> {
  typedef int type __attribute__((ext_vector_type(N)));
};
template <class T> using rel_t = typename rel_result<T>::type;
}  // namespace __kp

// ---------------------------------------------------------------------------------------------
// Vector types (MSL 2.2): charN ucharN shortN ushortN intN uintN longN ulongN halfN floatN,
// N = 2, 3, 4, with MSL's constructor syntax: float4(x), float4(a.xy, z, w), float4(int4v).
// A function-like macro per type turns `float4(...)` into a constructor call while leaving
// `float4 v` (no parenthesis) a plain type name; positions in diagnostics are unchanged.
// ---------------------------------------------------------------------------------------------
template <class V, class A, class = __kp::enable_if_t<__kp::is_vec<A> && __kp::vec_info<A>::size == __kp::vec_info<V>::size>>
constexpr V __kp_vconvert(A a) { return __builtin_convertvector(a, V); }

#define __KP_VEC(E)                                                                              \
  typedef E E##2 __attribute__((ext_vector_type(2)));                                            \
  typedef E E##3 __attribute__((ext_vector_type(3)));                                            \
  typedef E E##4 __attribute__((ext_vector_type(4)));                                            \
  typedef E packed_##E##2 __attribute__((ext_vector_type(2)));                                   \
  typedef E packed_##E##3 __attribute__((ext_vector_type(3)));                                   \
  typedef E packed_##E##4 __attribute__((ext_vector_type(4)));                                   \
  typedef E##2 vector_##E##2;                                                                    \
  typedef E##3 vector_##E##3;                                                                    \
  typedef E##4 vector_##E##4;                                                                    \
  constexpr E##2 __kp_make_##E##2(E a) { return (E##2)(a); }                                    \
  constexpr E##2 __kp_make_##E##2(E a, E b) { return (E##2)(a, b); }                             \
  template <class A, class = __kp::enable_if_t<__kp::is_vec<A>>>                                 \
  constexpr E##2 __kp_make_##E##2(A a) { return __kp_vconvert<E##2>(a); }                        \
  constexpr E##3 __kp_make_##E##3(E a) { return (E##3)(a); }                                     \
  constexpr E##3 __kp_make_##E##3(E a, E b, E c) { return (E##3)(a, b, c); }                     \
  E##3 __kp_make_##E##3(E##2 a, E b) { return (E##3)(a, b); }   \
  E##3 __kp_make_##E##3(E a, E##2 b) { return (E##3)(a, b); }   \
  template <class A, class = __kp::enable_if_t<__kp::is_vec<A>>>                                 \
  constexpr E##3 __kp_make_##E##3(A a) { return __kp_vconvert<E##3>(a); }                        \
  constexpr E##4 __kp_make_##E##4(E a) { return (E##4)(a); }                                     \
  constexpr E##4 __kp_make_##E##4(E a, E b, E c, E d) { return (E##4)(a, b, c, d); }            \
  E##4 __kp_make_##E##4(E##2 a, E b, E c) { return (E##4)(a, b, c); }   \
  E##4 __kp_make_##E##4(E a, E##2 b, E c) { return (E##4)(a, b, c); }   \
  E##4 __kp_make_##E##4(E a, E b, E##2 c) { return (E##4)(a, b, c); }   \
  E##4 __kp_make_##E##4(E##2 a, E##2 b) { return (E##4)(a, b); }   \
  E##4 __kp_make_##E##4(E##3 a, E b) { return (E##4)(a, b); }   \
  E##4 __kp_make_##E##4(E a, E##3 b) { return (E##4)(a, b); }   \
  template <class A, class = __kp::enable_if_t<__kp::is_vec<A>>>                                 \
  constexpr E##4 __kp_make_##E##4(A a) { return __kp_vconvert<E##4>(a); }

__KP_VEC(char)
__KP_VEC(uchar)
__KP_VEC(short)
__KP_VEC(ushort)
__KP_VEC(int)
__KP_VEC(uint)
__KP_VEC(long)
__KP_VEC(ulong)
__KP_VEC(half)
__KP_VEC(float)

// boolN: clang has no bool vectors; model them as int vectors (what OpenCL comparisons
// return for 32-bit operands).
typedef int bool2 __attribute__((ext_vector_type(2)));
typedef int bool3 __attribute__((ext_vector_type(3)));
typedef int bool4 __attribute__((ext_vector_type(4)));
constexpr bool2 __kp_make_bool2(bool a) { return (bool2)(a); }
constexpr bool2 __kp_make_bool2(bool a, bool b) { return (bool2)(a, b); }
constexpr bool3 __kp_make_bool3(bool a) { return (bool3)(a); }
constexpr bool3 __kp_make_bool3(bool a, bool b, bool c) { return (bool3)(a, b, c); }
constexpr bool4 __kp_make_bool4(bool a) { return (bool4)(a); }
constexpr bool4 __kp_make_bool4(bool a, bool b, bool c, bool d) { return (bool4)(a, b, c, d); }

#define char2(...) __kp_make_char2(__VA_ARGS__)
#define char3(...) __kp_make_char3(__VA_ARGS__)
#define char4(...) __kp_make_char4(__VA_ARGS__)
#define uchar2(...) __kp_make_uchar2(__VA_ARGS__)
#define uchar3(...) __kp_make_uchar3(__VA_ARGS__)
#define uchar4(...) __kp_make_uchar4(__VA_ARGS__)
#define short2(...) __kp_make_short2(__VA_ARGS__)
#define short3(...) __kp_make_short3(__VA_ARGS__)
#define short4(...) __kp_make_short4(__VA_ARGS__)
#define ushort2(...) __kp_make_ushort2(__VA_ARGS__)
#define ushort3(...) __kp_make_ushort3(__VA_ARGS__)
#define ushort4(...) __kp_make_ushort4(__VA_ARGS__)
#define int2(...) __kp_make_int2(__VA_ARGS__)
#define int3(...) __kp_make_int3(__VA_ARGS__)
#define int4(...) __kp_make_int4(__VA_ARGS__)
#define uint2(...) __kp_make_uint2(__VA_ARGS__)
#define uint3(...) __kp_make_uint3(__VA_ARGS__)
#define uint4(...) __kp_make_uint4(__VA_ARGS__)
#define long2(...) __kp_make_long2(__VA_ARGS__)
#define long3(...) __kp_make_long3(__VA_ARGS__)
#define long4(...) __kp_make_long4(__VA_ARGS__)
#define ulong2(...) __kp_make_ulong2(__VA_ARGS__)
#define ulong3(...) __kp_make_ulong3(__VA_ARGS__)
#define ulong4(...) __kp_make_ulong4(__VA_ARGS__)
#define half2(...) __kp_make_half2(__VA_ARGS__)
#define half3(...) __kp_make_half3(__VA_ARGS__)
#define half4(...) __kp_make_half4(__VA_ARGS__)
#define float2(...) __kp_make_float2(__VA_ARGS__)
#define float3(...) __kp_make_float3(__VA_ARGS__)
#define float4(...) __kp_make_float4(__VA_ARGS__)
#define bool2(...) __kp_make_bool2(__VA_ARGS__)
#define bool3(...) __kp_make_bool3(__VA_ARGS__)
#define bool4(...) __kp_make_bool4(__VA_ARGS__)

// ---------------------------------------------------------------------------------------------
// namespace metal
// ---------------------------------------------------------------------------------------------
namespace metal {

template <class T, int N> using vec = T __attribute__((ext_vector_type(N)));

// --- type traits (MSL's <metal_type_traits>, C++14's of the same names) ---------------------------
template <class T, T v> struct integral_constant {
  static constexpr constant T value = v;
  typedef T value_type;
  typedef integral_constant type;
  constexpr operator value_type() const { return value; }
  constexpr value_type operator()() const { return value; }
};
template <bool B> using bool_constant = integral_constant<bool, B>;
typedef bool_constant<true> true_type;
typedef bool_constant<false> false_type;
using __kp::enable_if;
using __kp::enable_if_t;
using __kp::is_same;
using __kp::conditional;
template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;
template <class T> struct remove_const { typedef T type; };
template <class T> struct remove_const<const T> { typedef T type; };
template <class T> struct remove_volatile { typedef T type; };
template <class T> struct remove_volatile<volatile T> { typedef T type; };
template <class T> struct remove_cv { typedef typename remove_volatile<typename remove_const<T>::type>::type type; };
template <class T> using remove_cv_t = typename remove_cv<T>::type;
// scalar classification, as C++'s: a cv-qualified scalar is classified as the scalar; bool is integral
// and unsigned; half and bfloat are floating-point (MSL 2.1); a vector is none of these
template <class T> struct is_integral
    : bool_constant<__kp::is_int_scalar<remove_cv_t<T>>::value || __kp::is_same<remove_cv_t<T>, bool>::value> {};
template <class T> struct is_floating_point : bool_constant<__kp::is_fp_scalar<remove_cv_t<T>>::value> {};
template <class T, bool = is_integral<T>::value || is_floating_point<T>::value> struct __kp_signed {
  static constexpr constant bool value = remove_cv_t<T>(-1) < remove_cv_t<T>(0);
};
template <class T> struct __kp_signed<T, false> { static constexpr constant bool value = false; };
template <class T> struct is_signed : bool_constant<__kp_signed<T>::value> {};
template <class T> struct is_unsigned : bool_constant<is_integral<T>::value && !__kp_signed<T>::value> {};
template <class T> constexpr constant bool is_integral_v = is_integral<T>::value;
template <class T> constexpr constant bool is_floating_point_v = is_floating_point<T>::value;
template <class T> constexpr constant bool is_signed_v = is_signed<T>::value;
template <class T> constexpr constant bool is_unsigned_v = is_unsigned<T>::value;
template <class A, class B> constexpr constant bool is_same_v = is_same<A, B>::value;

// --- limits and constants ---------------------------------------------------------------------
template <class T> struct numeric_limits {
  static constexpr constant bool is_specialized = false;
};
#define __KP_LIMITS(T, LO, HI, LOWEST, EPS, INTEGER)                                             \
  template <> struct numeric_limits<T> {                                                         \
    static constexpr constant bool is_specialized = true;                                                 \
    static constexpr constant bool is_integer = INTEGER;                                                  \
    static constexpr T min() { return LO; }                                                      \
    static constexpr T max() { return HI; }                                                      \
    static constexpr T lowest() { return LOWEST; }                                               \
    static constexpr T epsilon() { return EPS; }                                                 \
    static constexpr T infinity();                                                               \
    static constexpr T quiet_NaN();                                                              \
  };
__KP_LIMITS(float, 0x1p-126f, 0x1.fffffep+127f, -0x1.fffffep+127f, 0x1p-23f, false)
__KP_LIMITS(half, (half)0x1p-14f, (half)65504.0f, (half)-65504.0f, (half)0x1p-10f, false)
__KP_LIMITS(char, -128, 127, -128, 0, true)
__KP_LIMITS(uchar, 0, 255, 0, 0, true)
__KP_LIMITS(short, -32768, 32767, -32768, 0, true)
__KP_LIMITS(ushort, 0, 65535, 0, 0, true)
__KP_LIMITS(int, -2147483647 - 1, 2147483647, -2147483647 - 1, 0, true)
__KP_LIMITS(uint, 0u, 4294967295u, 0u, 0u, true)
__KP_LIMITS(long, -9223372036854775807L - 1, 9223372036854775807L, -9223372036854775807L - 1, 0, true)
__KP_LIMITS(ulong, 0ul, 18446744073709551615ul, 0ul, 0ul, true)
#undef __KP_LIMITS

// --- synchronization (6.9.1) --------------------------------------------------------------------
enum class mem_flags {
  mem_none = 0,
  mem_device = 1,
  mem_threadgroup = 2,
  mem_texture = 4,
  mem_threadgroup_imageblock = 8,
  mem_object_data = 16,
};
constexpr mem_flags operator|(mem_flags a, mem_flags b) { return static_cast<mem_flags>(static_cast<int>(a) | static_cast<int>(b)); }
constexpr mem_flags operator&(mem_flags a, mem_flags b) { return static_cast<mem_flags>(static_cast<int>(a) & static_cast<int>(b)); }
constexpr mem_flags operator^(mem_flags a, mem_flags b) { return static_cast<mem_flags>(static_cast<int>(a) ^ static_cast<int>(b)); }
constexpr mem_flags operator~(mem_flags a) { return static_cast<mem_flags>(~static_cast<int>(a)); }

void threadgroup_barrier(mem_flags flags);
void simdgroup_barrier(mem_flags flags);

// --- SIMD-group functions (6.9.2) ---------------------------------------------------------------
// simd_vote wraps a 64-bit mask; it converts to its integer only explicitly:
//   uint m = simd_ballot(p);                              // error
//   ulong m = (simd_vote::vote_t)simd_ballot(p);          // ok
class simd_vote {
 public:
  typedef uint64_t vote_t;
  explicit constexpr simd_vote(vote_t v = 0) : __v(v) {}
  explicit constexpr operator vote_t() const { return __v; }
  bool all() const;
  bool any() const;

 private:
  vote_t __v;
};
typedef simd_vote quad_vote;

simd_vote simd_ballot(bool expr);
simd_vote simd_active_threads_mask();
bool simd_all(bool expr);
bool simd_any(bool expr);
bool simd_is_first();
bool simd_is_helper_thread();
simd_vote quad_ballot(bool expr);
simd_vote quad_active_threads_mask();
bool quad_all(bool expr);
bool quad_any(bool expr);
bool quad_is_first();

#define __KP_SIMD1(name, OK, MSG)                                                                \
  template <class T, class = __kp::enable_if_t<OK<T>>> T name(T data);                          \
  template <class T, class = __kp::enable_if_t<!OK<T>>, class = void> T name(T data) __KP_FORBID(MSG);
#define __KP_SIMD2(name, OK, MSG, P2)                                                            \
  template <class T, class = __kp::enable_if_t<OK<T>>> T name(T data, P2);                      \
  template <class T, class = __kp::enable_if_t<!OK<T>>, class = void> T name(T data, P2) __KP_FORBID(MSG);
#define __KP_SIMD3(name, OK, MSG, P3)                                                            \
  template <class T, class = __kp::enable_if_t<OK<T>>> T name(T data, T filling_data, P3);      \
  template <class T, class = __kp::enable_if_t<OK<T>>> T name(T data, T filling_data, P3, ushort modulo); \
  template <class T, class = __kp::enable_if_t<!OK<T>>, class = void> T name(T data, T filling_data, P3) __KP_FORBID(MSG);

#define __KP_SIMD_INT_MSG "bitwise SIMD-group functions need a 32-bit-or-narrower integer scalar or vector"

__KP_SIMD2(simd_shuffle, __kp::simd_ok, __KP_NO64, ushort simd_lane_id)
__KP_SIMD2(simd_shuffle_up, __kp::simd_ok, __KP_NO64, ushort delta)
__KP_SIMD2(simd_shuffle_down, __kp::simd_ok, __KP_NO64, ushort delta)
// The specification writes Ti for simd_shuffle_xor, but Metal compilers accept floats and
// real code relies on it, so any non-64-bit T is accepted.
__KP_SIMD2(simd_shuffle_xor, __kp::simd_ok, __KP_NO64, ushort mask)
__KP_SIMD2(simd_shuffle_rotate_up, __kp::simd_ok, __KP_NO64, ushort delta)
__KP_SIMD2(simd_shuffle_rotate_down, __kp::simd_ok, __KP_NO64, ushort delta)
__KP_SIMD2(simd_broadcast, __kp::simd_ok, __KP_NO64, ushort broadcast_lane_id)
__KP_SIMD1(simd_broadcast_first, __kp::simd_ok, __KP_NO64)
__KP_SIMD3(simd_shuffle_and_fill_up, __kp::simd_ok, __KP_NO64, ushort delta)
__KP_SIMD3(simd_shuffle_and_fill_down, __kp::simd_ok, __KP_NO64, ushort delta)
__KP_SIMD1(simd_sum, __kp::simd_ok, __KP_NO64)
__KP_SIMD1(simd_product, __kp::simd_ok, __KP_NO64)
__KP_SIMD1(simd_min, __kp::simd_ok, __KP_NO64)
__KP_SIMD1(simd_max, __kp::simd_ok, __KP_NO64)
__KP_SIMD1(simd_prefix_inclusive_sum, __kp::simd_ok, __KP_NO64)
__KP_SIMD1(simd_prefix_exclusive_sum, __kp::simd_ok, __KP_NO64)
__KP_SIMD1(simd_prefix_inclusive_product, __kp::simd_ok, __KP_NO64)
__KP_SIMD1(simd_prefix_exclusive_product, __kp::simd_ok, __KP_NO64)
__KP_SIMD1(simd_and, __kp::simd_int_ok, __KP_SIMD_INT_MSG)
__KP_SIMD1(simd_or, __kp::simd_int_ok, __KP_SIMD_INT_MSG)
__KP_SIMD1(simd_xor, __kp::simd_int_ok, __KP_SIMD_INT_MSG)
__KP_SIMD2(quad_shuffle, __kp::simd_ok, __KP_NO64, ushort quad_lane_id)
__KP_SIMD2(quad_shuffle_up, __kp::simd_ok, __KP_NO64, ushort delta)
__KP_SIMD2(quad_shuffle_down, __kp::simd_ok, __KP_NO64, ushort delta)
__KP_SIMD2(quad_shuffle_xor, __kp::simd_ok, __KP_NO64, ushort mask)
__KP_SIMD2(quad_broadcast, __kp::simd_ok, __KP_NO64, ushort broadcast_lane_id)
__KP_SIMD1(quad_sum, __kp::simd_ok, __KP_NO64)
__KP_SIMD1(quad_min, __kp::simd_ok, __KP_NO64)
__KP_SIMD1(quad_max, __kp::simd_ok, __KP_NO64)
#undef __KP_SIMD1
#undef __KP_SIMD2
#undef __KP_SIMD3

// --- atomics (6.15) -------------------------------------------------------------------------------
// atomic_int/atomic_uint/atomic_bool on device and threadgroup memory; atomic_float on device
// memory only (Metal 3: load, store, exchange, compare-exchange, fetch_add, fetch_sub; no
// min/max); atomic_ulong only with atomic_min/max_explicit on device memory (Metal 3.1).
// Atomic functions take memory_order_relaxed (other orders: Metal 4.1+); fences (Metal 3.2)
// take any order and a thread_scope.
enum memory_order {
  memory_order_relaxed = 0,
  memory_order_acquire = 2,
  memory_order_release = 3,
  memory_order_acq_rel = 4,
  memory_order_seq_cst = 5,
};
enum thread_scope {
  thread_scope_thread = 0,
  thread_scope_simdgroup = 1,
  thread_scope_threadgroup = 2,
  thread_scope_device = 3,
  thread_scope_system = 4,
};
void atomic_thread_fence(mem_flags flags, memory_order order, thread_scope scope = thread_scope_device);

// OpenCL 2.0 predeclares atomic_int, atomic_uint, atomic_float, atomic_long and
// atomic_ulong as _Atomic types; macros route the Metal spellings to Metal's model instead.
// (Plain structs, not a class template: OpenCL rejects kernel parameters that point to a
// template specialization.)
struct __kp_atomic_int { int __s; };
struct __kp_atomic_uint { uint __s; };
struct __kp_atomic_bool { bool __s; };
struct __kp_atomic_float { float __s; };
struct __kp_atomic_ulong { ulong __s; };
struct __kp_atomic_long { long __s; };
#define atomic_int __kp_atomic_int
#define atomic_uint __kp_atomic_uint
#define atomic_bool __kp_atomic_bool
#define atomic_float __kp_atomic_float
#define atomic_ulong __kp_atomic_ulong
#define atomic_long __kp_atomic_long
template <class T> struct __atomic_of {};
template <> struct __atomic_of<int> { typedef atomic_int type; };
template <> struct __atomic_of<uint> { typedef atomic_uint type; };
template <> struct __atomic_of<bool> { typedef atomic_bool type; };
template <> struct __atomic_of<float> { typedef atomic_float type; };
template <> struct __atomic_of<ulong> { typedef atomic_ulong type; };
template <> struct __atomic_of<long> { typedef atomic_long type; };
template <class T> using atomic = typename __atomic_of<T>::type;

namespace __atom {
template <class A> struct value { static constexpr constant bool is_atomic = false; typedef void type; };
template <> struct value<atomic_int> { static constexpr constant bool is_atomic = true; typedef int type; };
template <> struct value<atomic_uint> { static constexpr constant bool is_atomic = true; typedef uint type; };
template <> struct value<atomic_bool> { static constexpr constant bool is_atomic = true; typedef bool type; };
template <> struct value<atomic_float> { static constexpr constant bool is_atomic = true; typedef float type; };
template <> struct value<atomic_ulong> { static constexpr constant bool is_atomic = true; typedef ulong type; };
template <> struct value<atomic_long> { static constexpr constant bool is_atomic = true; typedef long type; };
template <class A> using T = typename value<A>::type;
template <class A> constexpr constant bool any = value<A>::is_atomic;
template <class A> constexpr constant bool i32 = __kp::is_same<T<A>, int>::value || __kp::is_same<T<A>, uint>::value;
template <class A> constexpr constant bool f32 = __kp::is_same<T<A>, float>::value;
template <class A> constexpr constant bool b = __kp::is_same<T<A>, bool>::value;
template <class A> constexpr constant bool x64 = __kp::is_64bit_int<T<A>>::value;
}  // namespace __atom

#define __KP_MSG_TG_FLOAT "Metal has no atomic float operations on threadgroup memory (atomic_float exists only in device memory): use a compare-and-swap loop on the bits (atomic_uint + as_type)"
#define __KP_MSG_64 "Metal has no 64-bit atomic arithmetic (atomic_ulong supports only atomic_min_explicit/atomic_max_explicit on device memory)"
#define __KP_MSG_FLOAT_OP "Metal's atomic_float supports only load, store, exchange, compare-exchange, fetch_add and fetch_sub"
#define __KP_MSG_BOOL_OP "atomic_bool supports only load, store, exchange and compare-exchange"

// One read-modify-write operation on one address space: the allowed atomic types, then the
// forbidden ones, each with the reason.
#define __KP_ATOMIC_RMW(name, AS, OK, FLOAT_MSG)                                                 \
  template <class A, class U, __kp::enable_if_t<__atom::any<A> && (OK), int> = 0>               \
  __atom::T<A> name(volatile AS A* object, U operand, memory_order order);                      \
  template <class A, class U, __kp::enable_if_t<__atom::f32<A> && !(OK), int> = 0>              \
  __atom::T<A> name(volatile AS A* object, U operand, memory_order order) __KP_FORBID(FLOAT_MSG); \
  template <class A, class U, __kp::enable_if_t<__atom::x64<A>, int> = 0>                       \
  __atom::T<A> name(volatile AS A* object, U operand, memory_order order) __KP_FORBID(__KP_MSG_64); \
  template <class A, class U, __kp::enable_if_t<__atom::b<A>, int> = 0>                         \
  __atom::T<A> name(volatile AS A* object, U operand, memory_order order) __KP_FORBID(__KP_MSG_BOOL_OP);

#define __KP_ATOMIC_LS(AS, OK, FLOAT_MSG)                                                        \
  template <class A, __kp::enable_if_t<__atom::any<A> && (OK), int> = 0>                        \
  __atom::T<A> atomic_load_explicit(const volatile AS A* object, memory_order order);           \
  template <class A, __kp::enable_if_t<__atom::any<A> && !(OK), int> = 0>                       \
  __atom::T<A> atomic_load_explicit(const volatile AS A* object, memory_order order) __KP_FORBID(FLOAT_MSG); \
  template <class A, class U, __kp::enable_if_t<__atom::any<A> && (OK), int> = 0>               \
  void atomic_store_explicit(volatile AS A* object, U desired, memory_order order);             \
  template <class A, class U, __kp::enable_if_t<__atom::any<A> && !(OK), int> = 0>              \
  void atomic_store_explicit(volatile AS A* object, U desired, memory_order order) __KP_FORBID(FLOAT_MSG); \
  template <class A, class U, __kp::enable_if_t<__atom::any<A> && (OK), int> = 0>               \
  __atom::T<A> atomic_exchange_explicit(volatile AS A* object, U desired, memory_order order);  \
  template <class A, class U, __kp::enable_if_t<__atom::any<A> && !(OK), int> = 0>              \
  __atom::T<A> atomic_exchange_explicit(volatile AS A* object, U desired, memory_order order) __KP_FORBID(FLOAT_MSG); \
  template <class A, class U, __kp::enable_if_t<__atom::any<A> && (OK), int> = 0>               \
  bool atomic_compare_exchange_weak_explicit(volatile AS A* object, thread __atom::T<A>* expected, U desired, memory_order success, memory_order failure); \
  template <class A, class U, __kp::enable_if_t<__atom::any<A> && !(OK), int> = 0>              \
  bool atomic_compare_exchange_weak_explicit(volatile AS A* object, thread __atom::T<A>* expected, U desired, memory_order success, memory_order failure) __KP_FORBID(FLOAT_MSG);

// device memory
__KP_ATOMIC_LS(device, __atom::i32<A> || __atom::b<A> || __atom::f32<A>, __KP_MSG_64)
__KP_ATOMIC_RMW(atomic_fetch_add_explicit, device, __atom::i32<A> || __atom::f32<A>, __KP_MSG_FLOAT_OP)
__KP_ATOMIC_RMW(atomic_fetch_sub_explicit, device, __atom::i32<A> || __atom::f32<A>, __KP_MSG_FLOAT_OP)
__KP_ATOMIC_RMW(atomic_fetch_and_explicit, device, __atom::i32<A>, __KP_MSG_FLOAT_OP)
__KP_ATOMIC_RMW(atomic_fetch_or_explicit, device, __atom::i32<A>, __KP_MSG_FLOAT_OP)
__KP_ATOMIC_RMW(atomic_fetch_xor_explicit, device, __atom::i32<A>, __KP_MSG_FLOAT_OP)
__KP_ATOMIC_RMW(atomic_fetch_min_explicit, device, __atom::i32<A>, __KP_MSG_FLOAT_OP)
__KP_ATOMIC_RMW(atomic_fetch_max_explicit, device, __atom::i32<A>, __KP_MSG_FLOAT_OP)
// threadgroup memory: no float atomics at all
__KP_ATOMIC_LS(threadgroup, __atom::i32<A> || __atom::b<A>, __KP_MSG_TG_FLOAT)
__KP_ATOMIC_RMW(atomic_fetch_add_explicit, threadgroup, __atom::i32<A>, __KP_MSG_TG_FLOAT)
__KP_ATOMIC_RMW(atomic_fetch_sub_explicit, threadgroup, __atom::i32<A>, __KP_MSG_TG_FLOAT)
__KP_ATOMIC_RMW(atomic_fetch_and_explicit, threadgroup, __atom::i32<A>, __KP_MSG_TG_FLOAT)
__KP_ATOMIC_RMW(atomic_fetch_or_explicit, threadgroup, __atom::i32<A>, __KP_MSG_TG_FLOAT)
__KP_ATOMIC_RMW(atomic_fetch_xor_explicit, threadgroup, __atom::i32<A>, __KP_MSG_TG_FLOAT)
__KP_ATOMIC_RMW(atomic_fetch_min_explicit, threadgroup, __atom::i32<A>, __KP_MSG_TG_FLOAT)
__KP_ATOMIC_RMW(atomic_fetch_max_explicit, threadgroup, __atom::i32<A>, __KP_MSG_TG_FLOAT)
#undef __KP_ATOMIC_RMW
#undef __KP_ATOMIC_LS

// 64-bit min/max without a return value (MSL 3.1, device memory)
void atomic_min_explicit(volatile device atomic_ulong* object, ulong operand, memory_order order);
void atomic_max_explicit(volatile device atomic_ulong* object, ulong operand, memory_order order);

// --- math (6.5): float and half, scalars and vectors -----------------------------------------
#define __KP_FP1(name) template <class T> __kp::if_fp<T> name(T x);
#define __KP_FP2(name) template <class T, class U> __kp::fp_bin_t<T, U> name(T x, U y);
#define __KP_FP3(name) template <class T, class U, class V> __kp::fp_tern_t<T, U, V> name(T a, U b, V c);
#define __KP_MATH_FUNCS                                                                          \
  __KP_FP1(acos) __KP_FP1(acosh) __KP_FP1(asin) __KP_FP1(asinh) __KP_FP1(atan) __KP_FP1(atanh)   \
  __KP_FP1(ceil) __KP_FP1(cos) __KP_FP1(cosh) __KP_FP1(cospi) __KP_FP1(exp) __KP_FP1(exp2)      \
  __KP_FP1(exp10) __KP_FP1(fabs) __KP_FP1(floor) __KP_FP1(fract) __KP_FP1(log) __KP_FP1(log2)   \
  __KP_FP1(log10) __KP_FP1(rint) __KP_FP1(round) __KP_FP1(rsqrt) __KP_FP1(sin) __KP_FP1(sinh)    \
  __KP_FP1(sinpi) __KP_FP1(sqrt) __KP_FP1(tan) __KP_FP1(tanh) __KP_FP1(tanpi) __KP_FP1(trunc)   \
  __KP_FP1(saturate) __KP_FP1(sign)                       \
  __KP_FP2(atan2) __KP_FP2(copysign) __KP_FP2(fdim) __KP_FP2(fmax) __KP_FP2(fmin) __KP_FP2(fmod) \
  __KP_FP2(pow) __KP_FP2(powr) __KP_FP2(step) __KP_FP2(nextafter) __KP_FP2(divide)              \
  __KP_FP3(fma) __KP_FP3(mad) __KP_FP3(mix) __KP_FP3(smoothstep)                                 \
  template <class T> __kp::if_fp<T> sincos(T x, thread T& cosval);                              \
  template <class T> __kp::if_fp<T> sincos(T x, thread T* cosval);                              \
  template <class T> __kp::if_fp<T> modf(T x, thread T& intval);                                 \
  template <class T, class I> __kp::if_fp<T> frexp(T x, thread I& exponent);                     \
  template <class T, class I> __kp::if_fp<T> ldexp(T x, I k);

__KP_MATH_FUNCS

// Explicitly fast or IEEE-accurate variants (float only).
namespace fast {
#undef __KP_FP1
#undef __KP_FP2
#undef __KP_FP3
#define __KP_FP1(name) template <class T> __kp::if_float<T> name(T x);
#define __KP_FP2(name) template <class T, class U> __kp::if_float<__kp::fp_bin_t<T, U>> name(T x, U y);
#define __KP_FP3(name) template <class T, class U, class V> __kp::if_float<__kp::fp_tern_t<T, U, V>> name(T a, U b, V c);
__KP_MATH_FUNCS
template <class T, class U> __kp::if_float<__kp::fp_bin_t<T, U>> max(T x, U y);
template <class T, class U> __kp::if_float<__kp::fp_bin_t<T, U>> min(T x, U y);
template <class T, class U, class V> __kp::if_float<__kp::fp_tern_t<T, U, V>> clamp(T x, U lo, V hi);
template <class T> __kp::if_float<T> length(T x);
template <class T> __kp::if_float<T> normalize(T x);
}  // namespace fast
namespace precise {
__KP_MATH_FUNCS
template <class T, class U> __kp::if_float<__kp::fp_bin_t<T, U>> max(T x, U y);
template <class T, class U> __kp::if_float<__kp::fp_bin_t<T, U>> min(T x, U y);
template <class T, class U, class V> __kp::if_float<__kp::fp_tern_t<T, U, V>> clamp(T x, U lo, V hi);
template <class T> __kp::if_float<T> length(T x);
template <class T> __kp::if_float<T> normalize(T x);
}  // namespace precise
#undef __KP_FP1
#undef __KP_FP2
#undef __KP_FP3
#undef __KP_MATH_FUNCS

// --- common / integer (6.4, 6.6): int or floating point ------------------------------------------
template <class T, class U> __kp::num_bin_t<T, U> min(T x, U y);
template <class T, class U> __kp::num_bin_t<T, U> max(T x, U y);
template <class T, class U, class V> __kp::num_tern_t<T, U, V> clamp(T x, U lo, V hi);
template <class T> __kp::if_num<T> abs(T x);
template <class T, class U> __kp::num_bin_t<T, U> absdiff(T x, U y);
template <class T> __kp::if_int<T> popcount(T x);
template <class T> __kp::if_int<T> clz(T x);
template <class T> __kp::if_int<T> ctz(T x);
template <class T> __kp::if_int<T> reverse_bits(T x);
template <class T> __kp::if_int<T> extract_bits(T x, uint offset, uint bits);
template <class T> __kp::if_int<T> insert_bits(T base, T insert, uint offset, uint bits);
template <class T, class U> __kp::enable_if_t<__kp::is_int<__kp::num_bin_t<T, U>>, __kp::num_bin_t<T, U>> mulhi(T x, U y);
template <class T, class U> __kp::enable_if_t<__kp::is_int<__kp::num_bin_t<T, U>>, __kp::num_bin_t<T, U>> mul24(T x, U y);
template <class T, class U, class V> __kp::enable_if_t<__kp::is_int<__kp::num_tern_t<T, U, V>>, __kp::num_tern_t<T, U, V>> mad24(T x, U y, V z);
template <class T, class U> __kp::enable_if_t<__kp::is_int<__kp::num_bin_t<T, U>>, __kp::num_bin_t<T, U>> hadd(T x, U y);
template <class T, class U> __kp::enable_if_t<__kp::is_int<__kp::num_bin_t<T, U>>, __kp::num_bin_t<T, U>> rhadd(T x, U y);
template <class T, class U> __kp::enable_if_t<__kp::is_int<__kp::num_bin_t<T, U>>, __kp::num_bin_t<T, U>> addsat(T x, U y);
template <class T, class U> __kp::enable_if_t<__kp::is_int<__kp::num_bin_t<T, U>>, __kp::num_bin_t<T, U>> subsat(T x, U y);
template <class T, class U> __kp::enable_if_t<__kp::is_int<__kp::num_bin_t<T, U>>, __kp::num_bin_t<T, U>> rotate(T v, U i);
template <class T, class U, class V> __kp::enable_if_t<__kp::is_int<__kp::num_tern_t<T, U, V>>, __kp::num_tern_t<T, U, V>> madhi(T a, U b, V c);
template <class T, class U, class V> __kp::enable_if_t<__kp::is_int<__kp::num_tern_t<T, U, V>>, __kp::num_tern_t<T, U, V>> madsat(T a, U b, V c);

// --- relational (6.7) ------------------------------------------------------------------------------
template <class T> __kp::enable_if_t<__kp::is_fp<T>, __kp::rel_t<T>> isnan(T x);
template <class T> __kp::enable_if_t<__kp::is_fp<T>, __kp::rel_t<T>> isinf(T x);
template <class T> __kp::enable_if_t<__kp::is_fp<T>, __kp::rel_t<T>> isfinite(T x);
template <class T> __kp::enable_if_t<__kp::is_fp<T>, __kp::rel_t<T>> isnormal(T x);
template <class T> __kp::enable_if_t<__kp::is_fp<T>, __kp::rel_t<T>> signbit(T x);
template <class T, class U> __kp::enable_if_t<__kp::is_fp<__kp::fp_bin_t<T, U>>, __kp::rel_t<__kp::fp_bin_t<T, U>>> isunordered(T x, U y);
template <class T, class U> __kp::enable_if_t<__kp::is_fp<__kp::fp_bin_t<T, U>>, __kp::rel_t<__kp::fp_bin_t<T, U>>> isordered(T x, U y);
bool all(bool x);
bool any(bool x);
template <class T, class = __kp::enable_if_t<__kp::is_vec<T>>> bool all(T x);
template <class T, class = __kp::enable_if_t<__kp::is_vec<T>>> bool any(T x);
template <class T, class C> T select(T a, T b, C c);

// --- geometric (6.8) ---------------------------------------------------------------------------
template <class T, class = __kp::enable_if_t<__kp::is_vec<T> && __kp::is_fp<T>>> __kp::scalar_t<T> dot(T x, T y);
template <class T, class = __kp::enable_if_t<__kp::is_vec<T> && __kp::is_fp<T> && __kp::vec_info<T>::size == 3>> T cross(T x, T y);
template <class T, class = __kp::enable_if_t<__kp::is_fp<T>>> __kp::scalar_t<T> length(T x);
template <class T, class = __kp::enable_if_t<__kp::is_fp<T>>> __kp::scalar_t<T> length_squared(T x);
template <class T, class = __kp::enable_if_t<__kp::is_fp<T>>> __kp::scalar_t<T> distance(T x, T y);
template <class T, class = __kp::enable_if_t<__kp::is_fp<T>>> __kp::scalar_t<T> distance_squared(T x, T y);
template <class T, class = __kp::enable_if_t<__kp::is_fp<T>>> T normalize(T x);
template <class T, class = __kp::enable_if_t<__kp::is_fp<T>>> T faceforward(T n, T i, T nref);
template <class T, class = __kp::enable_if_t<__kp::is_fp<T>>> T reflect(T i, T n);

// --- reinterpretation (2.19) -----------------------------------------------------------------------
template <class T, class U> T as_type(U x) {
  static_assert(sizeof(T) == sizeof(U), "as_type<T>(x): T and the type of x must have the same size");
  if constexpr (sizeof(T) == sizeof(U)) return __builtin_bit_cast(T, x);
  else return T();
}

// --- metal::array (2.12) -----------------------------------------------------------------------------
template <class T, size_t N> struct array {
  T __elems[N > 0 ? N : 1];
  constexpr size_t size() const { return N; }
  T& operator[](size_t i);
  const T& operator[](size_t i) const;
};

}  // namespace metal

// ---------------------------------------------------------------------------------------------
// Math constants (MSL 6.5)
// ---------------------------------------------------------------------------------------------
#define MAXFLOAT 0x1.fffffep+127f
#define HUGE_VALF __builtin_huge_valf()
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define FLT_MAX 0x1.fffffep+127f
#define FLT_MIN 0x1p-126f
#define FLT_EPSILON 0x1p-23f
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define HALF_MAX ((half)65504.0f)
#define HALF_MIN ((half)0x1p-14f)
#define HALF_EPSILON ((half)0x1p-10f)
#define CHAR_BIT 8
#define SCHAR_MAX 127
#define SCHAR_MIN (-128)
#define UCHAR_MAX 255
#define SHRT_MAX 32767
#define SHRT_MIN (-32768)
#define USHRT_MAX 65535
#define INT_MAX 2147483647
#define INT_MIN (-2147483647 - 1)
#define UINT_MAX 0xffffffffu
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL - 1)
#define ULONG_MAX 0xfffffffffffffffful
#define M_E_F 2.71828182845904523536f
#define M_LOG2E_F 1.44269504088896340736f
#define M_LOG10E_F 0.434294481903251827651f
#define M_LN2_F 0.693147180559945309417f
#define M_LN10_F 2.30258509299404568402f
#define M_PI_F 3.14159265358979323846f
#define M_PI_2_F 1.57079632679489661923f
#define M_PI_4_F 0.785398163397448309616f
#define M_1_PI_F 0.318309886183790671538f
#define M_2_PI_F 0.636619772367581343076f
#define M_2_SQRTPI_F 1.12837916709551257390f
#define M_SQRT2_F 1.41421356237309504880f
#define M_SQRT1_2_F 0.707106781186547524401f

// ---------------------------------------------------------------------------------------------
// MSL 2.9, 2.10, 6.12: texture1d, texture2d, texture3d and sampler.
// ---------------------------------------------------------------------------------------------
namespace metal {
enum class access { sample, read, write };
struct sampler { int __kp_state; };
template <class T, access A = access::sample> struct texture1d {
  typedef T __kp_v4 __attribute__((ext_vector_type(4)));
  int __kp_handle;
  __kp_v4 sample(sampler, float) const;
  __kp_v4 read(uint) const;
  uint get_width() const;
};
template <class T, access A = access::sample> struct texture2d {
  typedef T __kp_v4 __attribute__((ext_vector_type(4)));
  int __kp_handle;
  __kp_v4 sample(sampler, float2) const;
  __kp_v4 read(uint2) const;
  uint get_width() const;
  uint get_height() const;
};
template <class T, access A = access::sample> struct texture3d {
  typedef T __kp_v4 __attribute__((ext_vector_type(4)));
  int __kp_handle;
  __kp_v4 sample(sampler, float3) const;
  __kp_v4 read(uint3) const;
  uint get_width() const;
  uint get_height() const;
  uint get_depth() const;
};
// (clang: a kernel parameter of struct type)
template struct texture1d<float>;
template struct texture2d<float>;
template struct texture3d<float>;
template struct texture1d<half>;
template struct texture2d<half>;
template struct texture3d<half>;
template struct texture1d<uint>;
template struct texture2d<uint>;
template struct texture1d<int>;
template struct texture2d<int>;
}  // namespace metal

#endif  // KERNELPORT_METAL_STDLIB_H
