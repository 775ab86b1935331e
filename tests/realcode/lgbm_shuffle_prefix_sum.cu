// SPDX-License-Identifier: MIT
// Copyright (c) 2021 Microsoft Corporation. All rights reserved. (LightGBM, MIT License: permission
// is granted to deal in the Software provided this notice is included; tests/labelled/lightgbm/LICENSE.)
// SOURCE: github.com/microsoft/LightGBM @ 4c37695319f1e10db2f188c8f50c804d9abc574d (the parent of a0fde1b00d, "[ROCm] add support for
//         ROCm/HIP device"): include/LightGBM/cuda/cuda_algorithms.hpp (ShufflePrefixSum) and
//         src/cuda/cuda_algorithms.cu (ShufflePrefixSumGlobalKernel): a block-wide inclusive scan by
//         __shfl_up_sync over warpSize lanes, the warp totals in a 32-slot shared buffer that every
//         lane of warp 0 writes.  On a 64-lane wave lanes 32-63 write past its end; the fix sized
//         the buffer by the warp size.
// Edits: the #include of LightGBM's headers replaced by the two standard headers and the one
//         macro the code uses; namespace LightGBM { } left out; annotations and prefix_ref added.
#include <stdint.h>
#include <stddef.h>
#define GLOBAL_PREFIX_SUM_BLOCK_SIZE (1024)

template <typename T>
__device__ __forceinline__ T ShufflePrefixSum(T value, T* shared_mem_buffer) {
  const uint32_t mask = 0xffffffff;
  const uint32_t warpLane = threadIdx.x % warpSize;
  const uint32_t warpID = threadIdx.x / warpSize;
  const uint32_t num_warp = blockDim.x / warpSize;
  for (uint32_t offset = 1; offset < warpSize; offset <<= 1) {
    const T other_value = __shfl_up_sync(mask, value, offset);
    if (warpLane >= offset) {
      value += other_value;
    }
  }
  if (warpLane == warpSize - 1) {
    shared_mem_buffer[warpID] = value;
  }
  __syncthreads();
  if (warpID == 0) {
    T warp_sum = (warpLane < num_warp ? shared_mem_buffer[warpLane] : 0);
    for (uint32_t offset = 1; offset < warpSize; offset <<= 1) {
      const T other_warp_sum = __shfl_up_sync(mask, warp_sum, offset);
      if (warpLane >= offset) {
        warp_sum += other_warp_sum;
      }
    }
    shared_mem_buffer[warpLane] = warp_sum;
  }
  __syncthreads();
  const T warp_base = warpID == 0 ? 0 : shared_mem_buffer[warpID - 1];
  return warp_base + value;
}

// @kp kernel ShufflePrefixSumGlobalKernel
// @kp instantiate <uint32_t>
// @kp grid   ceil_div(len, 1024)
// @kp block  1024
// @kp why    LightGBM's block size for the global prefix sum
// @kp arg    values inout uint32_t[len] integers(0, 1000)
// @kp arg    block_prefix_sum_buffer out uint32_t[ceil_div(len, 1024)]
// @kp scalar len = 4096
// @kp tolerance exact
// @kp reference prefix_ref(values, len, block_prefix_sum_buffer)
template <typename T>
__global__ void ShufflePrefixSumGlobalKernel(T* values, size_t len, T* block_prefix_sum_buffer) {
  __shared__ T shared_mem_buffer[32];
  const size_t index = static_cast<size_t>(threadIdx.x + blockIdx.x * blockDim.x);
  T value = 0;
  if (index < len) {
    value = values[index];
  }
  const T prefix_sum_value = ShufflePrefixSum<T>(value, shared_mem_buffer);
  values[index] = prefix_sum_value;
  if (threadIdx.x == blockDim.x - 1) {
    block_prefix_sum_buffer[blockIdx.x] = prefix_sum_value;
  }
}

// kernelport: the inclusive prefix sum inside each block of 1024, and each block's total.
void prefix_ref(uint32_t* values, size_t len, uint32_t* block_prefix_sum_buffer) {
  for (size_t b = 0; b * 1024 < len; b++) {
    uint32_t s = 0;
    for (size_t i = b * 1024; i < (b + 1) * 1024 && i < len; i++) { s += values[i]; values[i] = s; }
    block_prefix_sum_buffer[b] = s;
  }
}
