// Source: pytorch/pytorch/aten/src/ATen/native/cuda/SortingRadixSelect.cuh + ATen/cuda/DeviceUtils.cuh + ATen/cuda/AsmUtils.cuh (BSD-3-Clause) — trimmed for the kernelport test corpus
// Copyright (c) 2016- Facebook, Inc (Adam Paszke) and PyTorch contributors. BSD-3-Clause.
// Trimmed: the CUDA (non-ROCm) branch of countRadixUsingMask with the helpers it uses, types
// simplified (Bitfield/TopKTypeConfig replaced by plain shifts on uint32_t), one instantiation.
#include <cstdint>
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned int WARP_BALLOT(int predicate, unsigned int mask = 0xffffffff)
{
  return __ballot_sync(mask, predicate);
}

__device__ __forceinline__ int getLaneId() {
  int laneId;
  asm("mov.s32 %0, %%laneid;" : "=r"(laneId) );
  return laneId;
}

// This function counts the distribution of all input values in a
// slice we are selecting by radix digit at `radixDigitPos`, but only
// those that pass the filter `((v & desiredMask) == desired)`.
// This produces and broadcasts the seen counts for a single block only.
// `smem` must have at least `RadixSize` elements.
template <
    typename scalar_t,
    typename bitwise_t,
    typename index_t,
    typename CountType,
    int RadixSize,
    int RadixBits>
__device__ void countRadixUsingMask(
    CountType counts[RadixSize],
    CountType* smem,
    bitwise_t desired,
    bitwise_t desiredMask,
    int radixDigitPos,
    index_t sliceSize,
    index_t withinSliceStride,
    const scalar_t* data) {
  // Clear out per-thread counts from a previous round
#pragma unroll
  for (int i = 0; i < RadixSize; ++i) {
    counts[i] = 0;
  }

  if (threadIdx.x < RadixSize) {
    smem[threadIdx.x] = 0;
  }
  __syncthreads();

  // Scan over all the data. Upon a read, the warp will accumulate
  // counts per each digit in the radix using warp voting.
  // Must be called outside of loop to ensure all threads participate
  unsigned mask = WARP_BALLOT(threadIdx.x < sliceSize);
  for (index_t i = threadIdx.x; i < sliceSize;) {
    bitwise_t val = data[i * withinSliceStride];

    bool hasVal = ((val & desiredMask) == desired);
    bitwise_t digitInRadix = (val >> radixDigitPos) & ((1u << RadixBits) - 1);

#pragma unroll
    for (uint32_t j = 0; j < RadixSize; ++j) {
      bool vote = hasVal && (digitInRadix == j);
      counts[j] += __popc(WARP_BALLOT(vote, mask));
    }
    i += blockDim.x;
    mask = WARP_BALLOT(i < sliceSize, mask);
  }

  // Now, for each warp, sum values
  if (getLaneId() == 0) {
#pragma unroll
    for (uint32_t i = 0; i < RadixSize; ++i) {
      atomicAdd(&smem[i], counts[i]);
    }
  }

  __syncthreads();

  // For each thread, read in the total counts
#pragma unroll
  for (uint32_t i = 0; i < RadixSize; ++i) {
    counts[i] = smem[i];
  }

  __syncthreads();
}

// Corpus addition: one block per slice.
__global__ void radixCountKernel(const uint32_t* data, int* out, uint32_t desired,
                                 uint32_t desiredMask, int pos, int sliceSize) {
  __shared__ int smem[4];
  int counts[4];
  countRadixUsingMask<uint32_t, uint32_t, int, int, 4, 2>(
      counts, smem, desired, desiredMask, pos, sliceSize, 1, data + blockIdx.x * sliceSize);
  if (threadIdx.x < 4) out[blockIdx.x * 4 + threadIdx.x] = counts[threadIdx.x];
}
