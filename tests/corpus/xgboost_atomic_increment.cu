// Source: dmlc/xgboost/src/tree/gpu_hist/row_partitioner.cuh (Apache-2.0) — trimmed for the kernelport test corpus
/*!
 * Copyright 2017-2019 XGBoost contributors
 */
// Trimmed: the RowPartitioner class is replaced by a small kernel that calls AtomicIncrement
// the way UpdatePosition's device lambda does.
#include <cstdint>
#include <cuda_runtime.h>

namespace xgboost {
namespace tree {

/*! \brief Count how many rows are assigned to left node. */
__forceinline__ __device__ void AtomicIncrement(int64_t* d_count, bool increment) {
#if __CUDACC_VER_MAJOR__ > 8
  int mask = __activemask();
  unsigned ballot = __ballot_sync(mask, increment);
  int leader = __ffs(mask) - 1;
  if (threadIdx.x % 32 == leader) {
    atomicAdd(reinterpret_cast<unsigned long long*>(d_count),    // NOLINT
              static_cast<unsigned long long>(__popc(ballot)));  // NOLINT
  }
#else
  unsigned ballot = __ballot(increment);
  if (threadIdx.x % 32 == 0) {
    atomicAdd(reinterpret_cast<unsigned long long*>(d_count),    // NOLINT
              static_cast<unsigned long long>(__popc(ballot)));  // NOLINT
  }
#endif
}

// Corpus addition: one thread per row, as in RowPartitioner::UpdatePosition.
__global__ void UpdatePositionKernel(const int* d_position, int64_t* d_left_count,
                                     int left_nidx, size_t n) {
  size_t idx = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (idx >= n) return;
  AtomicIncrement(d_left_count, d_position[idx] == left_nidx);
}

};  // namespace tree
};  // namespace xgboost
