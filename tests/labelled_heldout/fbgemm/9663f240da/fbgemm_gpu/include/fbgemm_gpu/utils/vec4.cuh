/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 */

#pragma once

#include <ATen/ATen.h>
#include <ATen/AccumulateType.h>
#include "fbgemm_gpu/utils/float.cuh"

namespace fbgemm_gpu {

////////////////////////////////////////////////////////////////////////////////
// Vec4T Base
////////////////////////////////////////////////////////////////////////////////

// Customized 4-element vector data types (with element type Half, or float).
template <typename T>
struct Vec4BaseT {
  float4 acc;

  DEVICE_INLINE Vec4BaseT() {
    acc.x = 0;
    acc.y = 0;
    acc.z = 0;
    acc.w = 0;
  }

  DEVICE_INLINE T vmin() const {
    T min_val = acc.x;
    min_val = min(acc.y, min_val);
    min_val = min(acc.z, min_val);
    min_val = min(acc.w, min_val);
    return min_val;
  }

  DEVICE_INLINE T vmax() const {
    T max_val = acc.x;
    max_val = max(acc.y, max_val);
    max_val = max(acc.z, max_val);
    max_val = max(acc.w, max_val);
    return max_val;
  }
};

template <typename T>
struct Vec4T {};

// A wrapper for Vec4T with acc_type
template <typename T>
using Vec4TAcc = Vec4T<at::acc_type<T, true>>;

////////////////////////////////////////////////////////////////////////////////
// Vec4T<float>
////////////////////////////////////////////////////////////////////////////////

template <>
struct Vec4T<float> : public Vec4BaseT<float> {
  DEVICE_INLINE Vec4T() {}

  DEVICE_INLINE Vec4T(const float* p) {
    load(p);
  }

  DEVICE_INLINE Vec4T(const at::Half* p) {
    load(p);
  }

  DEVICE_INLINE Vec4T(const at::BFloat16* p) {
    load(p);
  }

  DEVICE_INLINE void load(const float* p) {
    acc = *((const float4*)p);
  }

  DEVICE_INLINE void load(const at::Half* p) {
#ifdef USE_ROCM
    union U {
      half2 h[2];
      uint2 ui;
    } tmp_out;

    // uint2 = 2 uints = 8 bytes
    tmp_out.ui = *reinterpret_cast<uint2 const*>(p);

    float2 a = __half22float2(tmp_out.h[0]);
    float2 b = __half22float2(tmp_out.h[1]);

    acc.x = a.x;
    acc.y = a.y;
    acc.z = b.x;
    acc.w = b.y;
#else
    Half4 out;
    asm("ld.global.v2.u32 {%0, %1}, [%2];"
        : "=r"(__HALF2_TO_UI(out.a)), "=r"(__HALF2_TO_UI(out.b))
        : "l"(p));

    float2 a = __half22float2(out.a);
    float2 b = __half22float2(out.b);

    acc.x = a.x;
    acc.y = a.y;
    acc.z = b.x;
    acc.w = b.y;
#endif
  }

  DEVICE_INLINE void load(const at::BFloat16* p) {
#ifdef USE_ROCM
    union {
      at::BFloat16 bf[4];
      uint2 ui;
    } tmp;
    tmp.ui = *reinterpret_cast<const uint2*>(p);
    acc.x = tmp.bf[0];
    acc.y = tmp.bf[1];
    acc.z = tmp.bf[2];
    acc.w = tmp.bf[3];
#else
    acc.x = p[0];
    acc.y = p[1];
    acc.z = p[2];
    acc.w = p[3];
#endif
  }

  DEVICE_INLINE void load(const at::Float8_e4m3fnuz* p) {
    const __nv_fp8x4_e4m3* fp8_ptr =
        reinterpret_cast<const __nv_fp8x4_e4m3*>(p);
    acc = static_cast<float4>(fp8_ptr[0]);
  }

  DEVICE_INLINE void load(const at::Float8_e4m3fn* p) {
    const __nv_fp8x4_e4m3* fp8_ptr =
        reinterpret_cast<const __nv_fp8x4_e4m3*>(p);
    acc = static_cast<float4>(fp8_ptr[0]);
  }

  DEVICE_INLINE void load(const uint8_t* p) {
    CUDA_KERNEL_ASSERT(false);
  }

  DEVICE_INLINE void store(float* p) const {
    *((float4*)p) = acc;
  }

  DEVICE_INLINE void store(float4* p) const {
    *p = acc;
  }

  DEVICE_INLINE void store(at::Half* p) const {
    float2 a;
    a.x = acc.x;
    a.y = acc.y;

    float2 b;
    b.x = acc.z;
    b.y = acc.w;

    Half4 out;
    out.a = __float22half2_rn(a);
    out.b = __float22half2_rn(b);
    out.store(p);
  }

  DEVICE_INLINE void store(at::BFloat16* p) const {
#ifdef USE_ROCM
    union {
      at::BFloat16 bf[4];
      uint2 ui;
    } tmp;
    tmp.bf[0] = acc.x;
    tmp.bf[1] = acc.y;
    tmp.bf[2] = acc.z;
    tmp.bf[3] = acc.w;
    *reinterpret_cast<uint2*>(p) = tmp.ui;
#else
    p[0] = acc.x;
    p[1] = acc.y;
    p[2] = acc.z;
    p[3] = acc.w;
#endif
  }

  DEVICE_INLINE void store(at::Float8_e4m3fn* p) const {
    __nv_fp8x4_e4m3* fp8_ptr = reinterpret_cast<__nv_fp8x4_e4m3*>(p);
    fp8_ptr[0] = static_cast<__nv_fp8x4_e4m3>(acc);
  }

  DEVICE_INLINE void store(at::Float8_e4m3fnuz* p) const {
    __nv_fp8x4_e4m3* fp8_ptr = reinterpret_cast<__nv_fp8x4_e4m3*>(p);
    fp8_ptr[0] = static_cast<__nv_fp8x4_e4m3>(acc);
  }

  DEVICE_INLINE void store(uint8_t* p) const {
    CUDA_KERNEL_ASSERT(false);
  }

  DEVICE_INLINE static void copy(const float* src, float* dst) {
    *((float4*)dst) = *((const float4*)src);
  }

  // this <- this + a * b
  DEVICE_INLINE void fma_(const Vec4T<float>& a, const float b) {
    acc.x = __fmaf_rn(a.acc.x, b, acc.x);
    acc.y = __fmaf_rn(a.acc.y, b, acc.y);
    acc.z = __fmaf_rn(a.acc.z, b, acc.z);
    acc.w = __fmaf_rn(a.acc.w, b, acc.w);
  }

  // this <- this + a
  DEVICE_INLINE void add_(const Vec4T<float>& a) {
    acc.x += a.acc.x;
    acc.y += a.acc.y;
    acc.z += a.acc.z;
    acc.w += a.acc.w;
  }

  // this <- this * scale
  DEVICE_INLINE void mul_(float scale) {
    acc.x *= scale;
    acc.y *= scale;
    acc.z *= scale;
    acc.w *= scale;
  }

  DEVICE_INLINE void sq_() {
    acc.x *= acc.x;
    acc.y *= acc.y;
    acc.z *= acc.z;
    acc.w *= acc.w;
  }

  // this <- this element-wise mul a
  DEVICE_INLINE void element_wise_mul_(const Vec4T<float>& a) {
    acc.x *= a.acc.x;
    acc.y *= a.acc.y;
    acc.z *= a.acc.z;
    acc.w *= a.acc.w;
  }
};

////////////////////////////////////////////////////////////////////////////////
// Vec4T<at::Half>
////////////////////////////////////////////////////////////////////////////////

template <>
struct Vec4T<at::Half> : public Vec4BaseT<at::Half> {
  DEVICE_INLINE Vec4T() {}

  DEVICE_INLINE Vec4T(const at::Half* p) {
    load(p);
  }

  DEVICE_INLINE Vec4T(const at::BFloat16* p) {
    load(p);
  }

  DEVICE_INLINE Vec4T(const float* p) {
    load(p);
  }

  DEVICE_INLINE void load(const at::Half* p) {
#ifdef USE_ROCM
    union U {
      half2 h[2];
      uint2 ui;
    } tmp_out;

    // uint2 = 2 uints = 8 bytes
    tmp_out.ui = *reinterpret_cast<uint2 const*>(p);

    float2 a = __half22float2(tmp_out.h[0]);
    float2 b = __half22float2(tmp_out.h[1]);

    acc.x = a.x;
    acc.y = a.y;
    acc.z = b.x;
    acc.w = b.y;
#else
    Half4 out;
    asm("ld.global.v2.u32 {%0, %1}, [%2];"
        : "=r"(__HALF2_TO_UI(out.a)), "=r"(__HALF2_TO_UI(out.b))
        : "l"(p));

    float2 a = __half22float2(out.a);
    float2 b = __half22float2(out.b);

    acc.x = a.x;
    acc.y = a.y;
    acc.z = b.x;
    acc.w = b.y;
#endif
  }

  DEVICE_INLINE void load(const at::BFloat16* p) {
#ifdef USE_ROCM
    union {
      at::BFloat16 bf[4];
      uint2 ui;
    } tmp;
    tmp.ui = *reinterpret_cast<const uint2*>(p);
    acc.x = tmp.bf[0];
    acc.y = tmp.bf[1];
    acc.z = tmp.bf[2];
    acc.w = tmp.bf[3];
#else
    acc.x = p[0];
    acc.y = p[1];
    acc.z = p[2];
    acc.w = p[3];
#endif
  }

  DEVICE_INLINE void load(const float* p) {
    acc = *((const float4*)p);
  }

  DEVICE_INLINE void load(const uint8_t* p) {
    CUDA_KERNEL_ASSERT(false);
  }

  DEVICE_INLINE void store(at::Half* p) const {
    float2 a;
    a.x = acc.x;
    a.y = acc.y;

    float2 b;
    b.x = acc.z;
    b.y = acc.w;

    Half4 out;
    out.a = __float22half2_rn(a);
    out.b = __float22half2_rn(b);
    out.store(p);
  }

  DEVICE_INLINE void store(at::BFloat16* p) const {
#ifdef USE_ROCM
    union {
      at::BFloat16 bf[4];
      uint2 ui;
    } tmp;
    tmp.bf[0] = acc.x;
    tmp.bf[1] = acc.y;
    tmp.bf[2] = acc.z;
    tmp.bf[3] = acc.w;
    *reinterpret_cast<uint2*>(p) = tmp.ui;
#else
    p[0] = acc.x;
    p[1] = acc.y;
    p[2] = acc.z;
    p[3] = acc.w;
#endif
  }

  DEVICE_INLINE void store(float* p) const {
    *((float4*)p) = acc;
  }

  DEVICE_INLINE void store(uint8_t* p) const {
    CUDA_KERNEL_ASSERT(false);
  }

  DEVICE_INLINE static void copy(const at::Half* src, at::Half* dst) {
#ifdef USE_ROCM
    *reinterpret_cast<uint2*>(dst) = *reinterpret_cast<const uint2*>(src);
#else
    Half4 out;
    asm("ld.global.v2.u32 {%0, %1}, [%2];"
        : "=r"(__HALF2_TO_UI(out.a)), "=r"(__HALF2_TO_UI(out.b))
        : "l"(src));
    asm("st.v2.u32 [%0], {%1, %2};"
        :
        : "l"(dst), "r"(__HALF2_TO_UI(out.a)), "r"(__HALF2_TO_UI(out.b)));
#endif
  }

  // this <- this + a * b
  DEVICE_INLINE void fma_(const Vec4T<at::Half>& a, const float b) {
    acc.x = __fmaf_rn(a.acc.x, b, acc.x);
    acc.y = __fmaf_rn(a.acc.y, b, acc.y);
    acc.z = __fmaf_rn(a.acc.z, b, acc.z);
    acc.w = __fmaf_rn(a.acc.w, b, acc.w);
  }

  DEVICE_INLINE void fma_(const Vec4T<float>& a, const float b) {
    acc.x = __fmaf_rn(a.acc.x, b, acc.x);
    acc.y = __fmaf_rn(a.acc.y, b, acc.y);
    acc.z = __fmaf_rn(a.acc.z, b, acc.z);
    acc.w = __fmaf_rn(a.acc.w, b, acc.w);
  }

  // this <- this + a
  DEVICE_INLINE void add_(const Vec4T<float>& a) {
    acc.x += a.acc.x;
    acc.y += a.acc.y;
    acc.z += a.acc.z;
    acc.w += a.acc.w;
  }

  // this <- this + a
  DEVICE_INLINE void add_(const Vec4T<at::Half>& a) {
    acc.x += a.acc.x;
    acc.y += a.acc.y;
    acc.z += a.acc.z;
    acc.w += a.acc.w;
  }

  // this <- this element-wise mul a
  DEVICE_INLINE void element_wise_mul_(const Vec4T<float>& a) {
    acc.x *= a.acc.x;
    acc.y *= a.acc.y;
    acc.z *= a.acc.z;
    acc.w *= a.acc.w;
  }

  // this <- this element-wise mul a
  DEVICE_INLINE void element_wise_mul_(const Vec4T<at::Half>& a) {
    acc.x *= a.acc.x;
    acc.y *= a.acc.y;
    acc.z *= a.acc.z;
    acc.w *= a.acc.w;
  }

  // this <- this * scale
  DEVICE_INLINE void mul_(float scale) {
    acc.x *= scale;
    acc.y *= scale;
    acc.z *= scale;
    acc.w *= scale;
  }

  DEVICE_INLINE void sq_() {
    acc.x *= acc.x;
    acc.y *= acc.y;
    acc.z *= acc.z;
    acc.w *= acc.w;
  }
};

////////////////////////////////////////////////////////////////////////////////
// Vec4T<at::BFloat16>
////////////////////////////////////////////////////////////////////////////////

template <>
struct Vec4T<at::BFloat16> : public Vec4BaseT<at::BFloat16> {
  DEVICE_INLINE Vec4T() {}

  DEVICE_INLINE Vec4T(const at::BFloat16* p) {
    load(p);
  }

  DEVICE_INLINE Vec4T(const at::Half* p) {
    load(p);
  }

  DEVICE_INLINE Vec4T(const float* p) {
    load(p);
  }

  DEVICE_INLINE void load(const at::BFloat16* p) {
#ifdef USE_ROCM
    union {
      at::BFloat16 bf[4];
      uint2 ui;
    } tmp;
    tmp.ui = *reinterpret_cast<const uint2*>(p);
    acc.x = tmp.bf[0];
    acc.y = tmp.bf[1];
    acc.z = tmp.bf[2];
    acc.w = tmp.bf[3];
#else
    acc.x = p[0];
    acc.y = p[1];
    acc.z = p[2];
    acc.w = p[3];
#endif
  }

  DEVICE_INLINE void load(const at::Half* p) {
#ifdef USE_ROCM
    union U {
      half2 h[2];
      uint2 ui;
    } tmp_out;

    // uint2 = 2 uints = 8 bytes
    tmp_out.ui = *reinterpret_cast<uint2 const*>(p);

    float2 a = __half22float2(tmp_out.h[0]);
    float2 b = __half22float2(tmp_out.h[1]);

    acc.x = a.x;
    acc.y = a.y;
    acc.z = b.x;
    acc.w = b.y;
#else
    Half4 out;
    asm("ld.global.v2.u32 {%0, %1}, [%2];"
        : "=r"(__HALF2_TO_UI(out.a)), "=r"(__HALF2_TO_UI(out.b))
        : "l"(p));

    float2 a = __half22float2(out.a);
    float2 b = __half22float2(out.b);

    acc.x = a.x;
    acc.y = a.y;
    acc.z = b.x;
    acc.w = b.y;
#endif
  }

  DEVICE_INLINE void load(const float* p) {
    acc = *((const float4*)p);
  }

  DEVICE_INLINE void load(const uint8_t* p) {
    CUDA_KERNEL_ASSERT(false);
  }

  DEVICE_INLINE void store(at::Half* p) const {
    float2 a;
    a.x = acc.x;
    a.y = acc.y;

    float2 b;
    b.x = acc.z;
    b.y = acc.w;

    Half4 out;
    out.a = __float22half2_rn(a);
    out.b = __float22half2_rn(b);
    out.store(p);
  }

  DEVICE_INLINE void store(at::BFloat16* p) const {
#ifdef USE_ROCM
    union {
      at::BFloat16 bf[4];
      uint2 ui;
    } tmp;
    tmp.bf[0] = acc.x;
    tmp.bf[1] = acc.y;
    tmp.bf[2] = acc.z;
    tmp.bf[3] = acc.w;
    *reinterpret_cast<uint2*>(p) = tmp.ui;
#else
    p[0] = acc.x;
    p[1] = acc.y;
    p[2] = acc.z;
    p[3] = acc.w;
#endif
  }

  DEVICE_INLINE void store(float* p) const {
    *((float4*)p) = acc;
  }

  DEVICE_INLINE void store(uint8_t* p) const {
    CUDA_KERNEL_ASSERT(false);
  }

  DEVICE_INLINE static void copy(const at::BFloat16* src, at::BFloat16* dst) {
#ifdef USE_ROCM
    *reinterpret_cast<uint2*>(dst) = *reinterpret_cast<const uint2*>(src);
#else
    dst[0] = src[0];
    dst[1] = src[1];
    dst[2] = src[2];
    dst[3] = src[3];
#endif
  }

  // this <- this + a * b
  DEVICE_INLINE void fma_(const Vec4T<at::Half>& a, const float b) {
    acc.x = __fmaf_rn(a.acc.x, b, acc.x);
    acc.y = __fmaf_rn(a.acc.y, b, acc.y);
    acc.z = __fmaf_rn(a.acc.z, b, acc.z);
    acc.w = __fmaf_rn(a.acc.w, b, acc.w);
  }

  DEVICE_INLINE void fma_(const Vec4T<float>& a, const float b) {
    acc.x = __fmaf_rn(a.acc.x, b, acc.x);
    acc.y = __fmaf_rn(a.acc.y, b, acc.y);
    acc.z = __fmaf_rn(a.acc.z, b, acc.z);
    acc.w = __fmaf_rn(a.acc.w, b, acc.w);
  }

  // this <- this + a
  DEVICE_INLINE void add_(const Vec4T<float>& a) {
    acc.x += a.acc.x;
    acc.y += a.acc.y;
    acc.z += a.acc.z;
    acc.w += a.acc.w;
  }

  // this <- this + a
  DEVICE_INLINE void add_(const Vec4T<at::Half>& a) {
    acc.x += a.acc.x;
    acc.y += a.acc.y;
    acc.z += a.acc.z;
    acc.w += a.acc.w;
  }

  // this <- this element-wise mul a
  DEVICE_INLINE void element_wise_mul_(const Vec4T<float>& a) {
    acc.x *= a.acc.x;
    acc.y *= a.acc.y;
    acc.z *= a.acc.z;
    acc.w *= a.acc.w;
  }

  // this <- this element-wise mul a
  DEVICE_INLINE void element_wise_mul_(const Vec4T<at::Half>& a) {
    acc.x *= a.acc.x;
    acc.y *= a.acc.y;
    acc.z *= a.acc.z;
    acc.w *= a.acc.w;
  }

  // this <- this * scale
  DEVICE_INLINE void mul_(float scale) {
    acc.x *= scale;
    acc.y *= scale;
    acc.z *= scale;
    acc.w *= scale;
  }

  DEVICE_INLINE void sq_() {
    acc.x *= acc.x;
    acc.y *= acc.y;
    acc.z *= acc.z;
    acc.w *= acc.w;
  }
};

////////////////////////////////////////////////////////////////////////////////
// Vec4T Ops
////////////////////////////////////////////////////////////////////////////////

template <typename scalar_t>
DEVICE_INLINE Vec4T<scalar_t> vec4_acc(
    const Vec4T<scalar_t>& lhs,
    const Vec4T<scalar_t>& rhs) {
  Vec4T<scalar_t> s;
  s.acc.x = lhs.acc.x + rhs.acc.x;
  s.acc.y = lhs.acc.y + rhs.acc.y;
  s.acc.z = lhs.acc.z + rhs.acc.z;
  s.acc.w = lhs.acc.w + rhs.acc.w;
  return s;
}

template <typename T>
DEVICE_INLINE Vec4T<T> vec4_load_unaligned(const T* src) {
  // src is not guaranteed to have proper alignment.
  // Create a temporary aligned array on the stack.
  alignas(16) T temp[4];

  // Load values from src into the byte-aligned array
#pragma unroll
  for (auto i = 0; i < 4; i++) {
    temp[i] = src[i];
  }

  // Then load the aligned array values into Vec4T
  return Vec4T<T>(temp);
}

template <typename T>
DEVICE_INLINE void vec4_store_unaligned(const Vec4T<T>& vec, T* dst) {
  // dst is not guaranteed to have proper alignment.
  // Create a temporary aligned array on the stack.
  alignas(16) T temp[4];

  // Store Vec4T values into the byte-aligned array
  vec.store(temp);

  // Then store the aligned array values into dst
#pragma unroll
  for (auto i = 0; i < 4; i++) {
    dst[i] = temp[i];
  }
}

} // namespace fbgemm_gpu
