// Source: NVIDIA/cuda-samples/Samples/0_Introduction/simpleVoteIntrinsics/simpleVote_kernel.cuh + simpleVoteIntrinsics.cu (BSD-3-Clause) — trimmed for the kernelport test corpus
/* Copyright (c) 2022, NVIDIA CORPORATION. All rights reserved.
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted under the BSD-3-Clause terms of the original file.
 */
// Trimmed: host launch code reduced to the launches; the CPU checks were dropped.
#include <cuda_runtime.h>

#define VOTE_DATA_GROUP 4

////////////////////////////////////////////////////////////////////////////////
// Vote Any/All intrinsic kernel function tests are supported only by CUDA
// capable devices that are CUDA hardware that has SM1.2 or later
// Vote Functions (refer to section 4.4.5 in the CUDA Programming Guide)
////////////////////////////////////////////////////////////////////////////////

// Kernel #1 tests the across-the-warp vote(any) intrinsic.
// If ANY one of the threads (within the warp) of the predicated condition
// returns a non-zero value, then all threads within this warp will return a
// non-zero value
__global__ void VoteAnyKernel1(unsigned int *input, unsigned int *result,
                               int size) {
  int tx = threadIdx.x;

  int mask = 0xffffffff;
  result[tx] = __any_sync(mask, input[tx]);
}

// Kernel #2 tests the across-the-warp vote(all) intrinsic.
// If ALL of the threads (within the warp) of the predicated condition returns
// a non-zero value, then all threads within this warp will return a non-zero
// value
__global__ void VoteAllKernel2(unsigned int *input, unsigned int *result,
                               int size) {
  int tx = threadIdx.x;

  int mask = 0xffffffff;
  result[tx] = __all_sync(mask, input[tx]);
}

// Kernel #3 is a directed test for the across-the-warp vote(all) intrinsic.
// This kernel will test for conditions across warps, and within half warps
__global__ void VoteAnyKernel3(bool *info, int warp_size) {
  int tx = threadIdx.x;
  unsigned int mask = 0xffffffff;
  bool *offs = info + (tx * 3);

  // The following should hold true for the second and third warp
  *offs = __any_sync(mask, (tx >= (warp_size * 3) / 2));
  // The following should hold true for the "upper half" of the second warp,
  // and all of the third warp
  *(offs + 1) = (tx >= (warp_size * 3) / 2 ? true : false);

  // The following should hold true for the third warp only
  if (__all_sync(mask, (tx >= (warp_size * 3) / 2))) {
    *(offs + 2) = true;
  }
}

void run_vote_tests(unsigned int *d_input, unsigned int *d_result, bool *dinfo) {
  int warp_size = 32;  // corpus: the original reads deviceProp.warpSize; many callers hardcode 32
  int size = warp_size * VOTE_DATA_GROUP;
  dim3 gridBlock(1, 1);
  dim3 threadBlock(warp_size, 1);
  VoteAnyKernel1<<<gridBlock, threadBlock>>>(d_input, d_result, size);
  VoteAllKernel2<<<gridBlock, threadBlock>>>(d_input, d_result, size);
  VoteAnyKernel3<<<1, warp_size * 3>>>(dinfo, warp_size);
  cudaDeviceSynchronize();
}
