// Source: pytorch/FBGEMM/fbgemm_gpu/src/quantize_ops/quantize_mx.cuh @c1170607 + include/fbgemm_gpu/fbgemm_cuda_utils.cuh (BSD-3-Clause) — trimmed for the kernelport test corpus
/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 */
// Trimmed: quantize_elemwise_mx4, the mx_common.cuh bit helpers and kWarpSize/kFullWarpMask are
// reduced to minimal local versions; PackedTensorAccessor64 becomes a plain pointer; the dequantize kernel was dropped.
// This is the version before FBGEMM PR #5857 ("Fix ROCm __syncthreads deadlock"): out-of-range
// threads return before the block-wide barriers.
#include <cuda.h>
#include <cstdint>

namespace fbgemm_gpu {

#ifdef USE_ROCM
static constexpr int32_t kWarpSize = 64;
#else
static constexpr int32_t kWarpSize = 32;
#endif
static constexpr uint32_t kFullWarpMask = 0xff'ff'ff'ff;

template <typename T>
__device__ __forceinline__ T shfl_xor(
    const T val,
    int laneMask,
    int width = kWarpSize,
    unsigned shfl_sync_mask = kFullWarpMask) {
#if defined(USE_ROCM) || CUDA_VERSION < 9000
  return __shfl_xor(val, laneMask, width);
#else
  return __shfl_xor_sync(shfl_sync_mask, val, laneMask, width);
#endif
}

template <typename T>
__device__ __forceinline__ T shfl_sync(
    const T val,
    int srcLane = 0,
    int width = kWarpSize,
    unsigned shfl_sync_mask = kFullWarpMask) {
#if defined(USE_ROCM) || CUDA_VERSION < 9000
  return __shfl(val, srcLane, width);
#else
  return __shfl_sync(shfl_sync_mask, val, srcLane, width);
#endif
}

__device__ __forceinline__ void syncwarp() {
#ifdef USE_ROCM
  __threadfence_block();
#else
  __syncwarp();
#endif
}

} // namespace fbgemm_gpu

#define WARP_SIZE 32
#define FULL_WARP_MASK 0xffffffff
#define FLOAT32_EXP_BIAS 127
#define FLOAT32_EXP_MAX 255

__device__ __forceinline__ int get_biased_exponent(const float input) {
  return (__float_as_uint(input) >> 23) & 0xff;
}

__device__ __forceinline__ uint8_t clamp_shared_exp(int shared_exp, const int scale_bits) {
  const int emax = (1 << (scale_bits - 1)) - 1;
  return (uint8_t)(shared_exp > emax + FLOAT32_EXP_BIAS ? FLOAT32_EXP_MAX : shared_exp);
}

__device__ __forceinline__ uint8_t quantize_elemwise_mx4(const float input) {
  return (uint8_t)(__float2int_rn(fminf(fabsf(input), 6.0f)) | (input < 0 ? 8 : 0));
}

//-----------------------------------------------------------------------
// quantize float to mx4 kernel
//-----------------------------------------------------------------------

// TO DO: make flush_fp32_subnorms template argument
template <typename T, bool has_multiple_warps_in_group>
__global__ void quantize_float_to_mx4_kernel(
    const T* input,
    const int group_size,
    const uint32_t total_elems,
    // const bool flush_fp32_subnorms,
    const int rounding_mode,
    uint8_t* output,
    const uint32_t num_warps_in_group,
    const uint32_t smem_stride) {
  const auto linear_group_id = (blockIdx.x * blockDim.y) + threadIdx.y;
  const auto linear_tid = linear_group_id * group_size + threadIdx.x;
  if (linear_tid >= total_elems)
    return;

  // MX4 values
  constexpr int scale_bits = 8;
  constexpr int elem_emax = 2;

  const T elem = input[linear_tid];

  extern __shared__ __align__(16) float smem[];
  const uint32_t group_offset_in_block = threadIdx.y * smem_stride;
  // set smem base address for each group
  int* smem_base = reinterpret_cast<int*>(smem + group_offset_in_block);

  // // allreduce to get the max value in each group size
  int shared_exp = get_biased_exponent(elem);

  const uint32_t half_group_size = group_size / 2;

  // find max shared_exp for each warp
  for (uint32_t mask = half_group_size; mask > 0; mask /= 2) {
    int temp_shared_exp = fbgemm_gpu::shfl_xor(shared_exp, mask);
    shared_exp = max(temp_shared_exp, shared_exp);
  }

  // find max shared_exp between warps in the group
  if (has_multiple_warps_in_group) {
    const uint32_t rep_tid = threadIdx.x / 32;
    const bool is_rep_tid = (threadIdx.x % 32 == 0);
    // put the max shared exp of each warp in shared memory
    if (is_rep_tid) {
      smem_base[rep_tid] = shared_exp;
    }
    __syncthreads();

    // find max shared_exp across warps in the group
    // let thread `i` store max shared_exp of warp `i`
    if (threadIdx.x < num_warps_in_group) {
      shared_exp = smem_base[threadIdx.x];
    }
    fbgemm_gpu::syncwarp();
    // find max shared_exp
    for (uint32_t s = num_warps_in_group; s > 0; s /= 2) {
      int temp_shared_exp = fbgemm_gpu::shfl_xor(shared_exp, s);
      shared_exp = max(temp_shared_exp, shared_exp);
    }

    // strore shared_exp in shared_mem
    if (threadIdx.x == 0) {
      *smem_base = shared_exp;
    }
    __syncthreads();

    // representative thread in each warp in the group reads the max
    // shared_memory
    if (is_rep_tid) {
      shared_exp = *smem_base;
    }
    // broadcast max shared_exp to every thread
    shared_exp =
        fbgemm_gpu::shfl_sync(shared_exp, 0, WARP_SIZE, FULL_WARP_MASK);
  }

  // Offset shared exponent by elem_emax, preserve NaNs
  shared_exp =
      (shared_exp != FLOAT32_EXP_MAX) ? shared_exp - elem_emax : shared_exp;

  // Clamp to scale_bits range
  const uint8_t clamped_shared_exp = clamp_shared_exp(shared_exp, scale_bits);

  const T scaled_in =
      scalbn(elem, (clamped_shared_exp - FLOAT32_EXP_BIAS) * -1);

  // convert to FP4 -> there is 16 possible values
  // bit pattern of the uint8 result is `0000 xxxx`
  const uint8_t quantized_val = quantize_elemwise_mx4(scaled_in);

  // Store 2 `quantized_val` in one uint8
  // let even threads store their 4-bit quantized_val on the left (position 4-7)
  // and odd threads store on right (position 0-3)
  uint8_t* stored_8bit =
      reinterpret_cast<uint8_t*>(smem_base) + (threadIdx.x / 2);
  const auto is_even_tid = threadIdx.x % 2 == 0;

  // even thread work on the left side
  if (is_even_tid) {
    // the 4 bits are on the rightmost, need to shift 4 bit
    // this becomes `xxxx 0000`
    *stored_8bit = (quantized_val << 4);
  }
  __syncthreads();

  // odd threads work on the right side (position 0-3)
  if (!is_even_tid) {
    // 4 bits are already on the rightmost, so just `bitwise OR` to combine
    *stored_8bit |= quantized_val;
  }
  __syncthreads();

  // Let each thread write 1 byte of output data
  if (threadIdx.x < half_group_size) {
    // write data output using uint8_t (1 bytes)

    uint8_t* smem_ptr = reinterpret_cast<uint8_t*>(smem_base);
    const uint32_t start_output_idx = (half_group_size + 1) * linear_group_id;
    uint8_t* output_base = &output[start_output_idx];

    output_base[threadIdx.x] = smem_ptr[threadIdx.x];

    // write share exp
    if (threadIdx.x == 0) {
      // shared_exp_idx is stored after data
      // need to offset with start_output + output data
      output_base[half_group_size] = clamped_shared_exp;
    }
  }
}

template __global__ void quantize_float_to_mx4_kernel<float, true>(
    const float*, const int, const uint32_t, const int, uint8_t*, const uint32_t, const uint32_t);
template __global__ void quantize_float_to_mx4_kernel<float, false>(
    const float*, const int, const uint32_t, const int, uint8_t*, const uint32_t, const uint32_t);
