// Source: rapidsai/cudf/cpp/include/cudf/detail/valid_if.cuh + detail/utilities/cuda.cuh (Apache-2.0) — trimmed for the kernelport test corpus
/*
 * Copyright (c) 2019, NVIDIA CORPORATION.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
// Trimmed: cudf types and bit helpers are defined locally; single_lane_block_sum_reduce uses a
// shuffle ladder instead of cub::WarpReduce (no hipcub here); the host wrapper is dropped.
#include <cstdint>
#include <cuda_runtime.h>

namespace cudf {
using size_type    = int32_t;
using bitmask_type = uint32_t;

namespace detail {
constexpr int warp_size = 32;

template <typename T>
constexpr __host__ __device__ size_type size_in_bits() { return sizeof(T) * 8; }

template <int32_t block_size, int32_t leader_lane = 0, typename T>
__device__ T single_lane_block_sum_reduce(T lane_value)
{
  static_assert(block_size <= 1024, "Invalid block size.");
  constexpr auto warps_per_block{block_size / warp_size};
  auto const lane_id{threadIdx.x % warp_size};
  auto const warp_id{threadIdx.x / warp_size};
  __shared__ T lane_values[warp_size];

  // Load each lane's value into a shared memory array
  if (lane_id == leader_lane) { lane_values[warp_id] = lane_value; }
  __syncthreads();

  // Use a single warp to do the reduction, result is only defined in
  // threadId.x == 0
  T result{0};
  if (warp_id == 0) {
    lane_value = (lane_id < warps_per_block) ? lane_values[lane_id] : 0;
    for (int offset = warp_size / 2; offset > 0; offset /= 2)
      lane_value += __shfl_down_sync(0xffffffff, lane_value, offset);
    result = lane_value;
  }
  // Shared memory has block scope, so sync here to ensure no data
  // is read from shared memory until all threads are done reading it
  __syncthreads();
  return result;
}
}  // namespace detail

constexpr __host__ __device__ inline size_type word_index(size_type bit_index)
{
  return bit_index / detail::size_in_bits<bitmask_type>();
}

namespace detail {
/**
 * @brief Generate a bitmask where every bit is set for which a predicate is
 * `true` over the elements in `[begin, begin + size)`.
 *
 * Bit `i` in the output mask will be set if `p(*(begin+i)) == true`.
 */
template <size_type block_size, typename InputIterator, typename Predicate>
__global__ void valid_if_kernel(
  bitmask_type* output, InputIterator begin, size_type size, Predicate p, size_type* valid_count)
{
  constexpr size_type leader_lane{0};
  auto const lane_id{threadIdx.x % warp_size};
  size_type i = threadIdx.x + blockIdx.x * blockDim.x;
  size_type warp_valid_count{0};

  auto active_mask = __ballot_sync(0xFFFF'FFFF, i < size);
  while (i < size) {
    bitmask_type ballot = __ballot_sync(active_mask, p(*(begin + i)));
    if (lane_id == leader_lane) {
      output[cudf::word_index(i)] = ballot;
      warp_valid_count += __popc(ballot);
    }
    i += blockDim.x * gridDim.x;
    active_mask = __ballot_sync(active_mask, i < size);
  }

  size_type block_count = single_lane_block_sum_reduce<block_size, leader_lane>(warp_valid_count);
  if (threadIdx.x == 0) { atomicAdd(valid_count, block_count); }
}

struct is_positive {
  __device__ bool operator()(float x) const { return x > 0.0f; }
};

template __global__ void valid_if_kernel<256, const float*, is_positive>(
  bitmask_type*, const float*, size_type, is_positive, size_type*);

}  // namespace detail
}  // namespace cudf
