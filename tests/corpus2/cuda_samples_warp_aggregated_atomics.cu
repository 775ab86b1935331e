// Source: NVIDIA/cuda-samples/Samples/3_CUDA_Features/warpAggregatedAtomicsCG/warpAggregatedAtomicsCG.cu (BSD-3-Clause) — trimmed for the kernelport test corpus
/* Copyright (c) 2022, NVIDIA CORPORATION. All rights reserved.
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted under the BSD-3-Clause terms of the original file.
 */
// Trimmed: the host drivers (main, mapIndicesToBuckets, calculateMaxInBuckets) are reduced to launchers.

#include <stdio.h>
#include <cuda_runtime.h>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

#define NUM_ELEMS 10000000
#define NUM_THREADS_PER_BLOCK 512

// warp-aggregated atomic increment
__device__ int atomicAggInc(int *counter) {
  cg::coalesced_group active = cg::coalesced_threads();

  // leader does the update
  int res = 0;
  if (active.thread_rank() == 0) {
    res = atomicAdd(counter, active.size());
  }

  // broadcast result
  res = active.shfl(res, 0);

  // each thread computes its own value
  return res + active.thread_rank();
}

__global__ void filter_arr(int *dst, int *nres, const int *src, int n) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;

  for (int i = id; i < n; i += gridDim.x * blockDim.x) {
    if (src[i] > 0) dst[atomicAggInc(nres)] = src[i];
  }
}

// warp-aggregated atomic multi bucket increment
#if __CUDA_ARCH__ >= 700
__device__ int atomicAggIncMulti(const int bucket, int *counter)
{
  cg::coalesced_group active = cg::coalesced_threads();
  // group all threads with same bucket value.
  auto labeledGroup = cg::labeled_partition(active, bucket);

  int res = 0;
  if (labeledGroup.thread_rank() == 0)
  {
    res = atomicAdd(&counter[bucket], labeledGroup.size());
  }

  // broadcast result
  res = labeledGroup.shfl(res, 0);

  // each thread computes its own value
  return res + labeledGroup.thread_rank();
}
#endif

// Places individual value indices into its corresponding buckets.
__global__ void mapToBuckets(const int *srcArr, int *indicesBuckets, int *bucketCounters, const int srcSize, const int numOfBuckets)
{
#if __CUDA_ARCH__ >= 700
  cg::grid_group grid = cg::this_grid();

  for (int i=grid.thread_rank(); i < srcSize; i += grid.size())
  {
    const int bucket = srcArr[i];
    if (bucket < numOfBuckets)
    {
      indicesBuckets[atomicAggIncMulti(bucket, bucketCounters)] = i;
    }
  }
#endif
}

// Warp-aggregated atomic Max in multi bucket
#if __CUDA_ARCH__ >= 700
__device__ void atomicAggMaxMulti(const int bucket, int *counter, const int valueForMax)
{
  cg::coalesced_group active = cg::coalesced_threads();
  // group all threads with same bucket value.
  auto labeledGroup = cg::labeled_partition(active, bucket);

  const int maxValueInGroup = cg::reduce(labeledGroup, valueForMax, cg::greater<int>());

  if (labeledGroup.thread_rank() == 0)
  {
    atomicMax(&counter[bucket], maxValueInGroup);
  }
}
#endif

// Performs max calculation in each buckets.
__global__ void calculateMaxInEachBuckets(const int *srcArr, const int *valueInBuckets, int *bucketsMax, const int srcSize, const int numOfBuckets)
{
#if __CUDA_ARCH__ >= 700
  cg::grid_group grid = cg::this_grid();

  for (int i=grid.thread_rank(); i < srcSize; i += grid.size())
  {
    const int bucket = srcArr[i];
    if (bucket < numOfBuckets)
    {
      atomicAggMaxMulti(bucket, bucketsMax, valueInBuckets[i]);
    }
  }
#endif
}

int launchAll(int *d_filtered_data, int *d_nres, const int *d_data_to_filter,
              int *d_indicesBuckets, int *d_bucketCounters, const int *d_valueInBuckets,
              int *d_bucketsMax, int numOfBuckets)
{
  dim3 dimBlock(NUM_THREADS_PER_BLOCK, 1, 1);
  dim3 dimGrid((NUM_ELEMS / NUM_THREADS_PER_BLOCK) + 1, 1, 1);

  filter_arr<<<dimGrid, dimBlock>>>(d_filtered_data, d_nres, d_data_to_filter,
                                    NUM_ELEMS);

  dim3 dimGrid2((NUM_ELEMS / NUM_THREADS_PER_BLOCK), 1, 1);
  mapToBuckets<<<dimGrid2, dimBlock>>>(d_data_to_filter, d_indicesBuckets, d_bucketCounters, NUM_ELEMS, numOfBuckets);
  calculateMaxInEachBuckets<<<dimGrid2, dimBlock>>>(d_data_to_filter, d_valueInBuckets, d_bucketsMax, NUM_ELEMS, numOfBuckets);
  return cudaDeviceSynchronize() == cudaSuccess ? EXIT_SUCCESS : EXIT_FAILURE;
}
