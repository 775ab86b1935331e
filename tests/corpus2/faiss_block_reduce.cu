// Source: facebookresearch/faiss/faiss/gpu/utils/DeviceDefs.cuh + PtxUtils.cuh + WarpShuffles.cuh + Reductions.cuh (MIT) — trimmed for the kernelport test corpus
/**
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 */
// Trimmed: the pointer/half shuffle overloads and the multi-value blockReduceAll were dropped;
// Sum<T> and utils::divUp are minimal local copies; sumRows is a minimal caller (not in faiss).
#include <cuda.h>

namespace faiss {
namespace gpu {

#ifdef USE_AMD_ROCM

#if __AMDGCN_WAVEFRONT_SIZE == 32u
constexpr int kWarpSize = 32;
#else
constexpr int kWarpSize = 64;
#endif

// This is a memory barrier for intra-warp writes to shared memory.
__forceinline__ __device__ void warpFence() {
    __threadfence_block();
}

#else // USE_AMD_ROCM

// We validate this against the actual architecture in device initialization
constexpr int kWarpSize = 32;

// This is a memory barrier for intra-warp writes to shared memory.
__forceinline__ __device__ void warpFence() {
#if CUDA_VERSION >= 9000
    __syncwarp();
#else
    // For the time being, assume synchronicity.
    //  __threadfence_block();
#endif
}

#endif // USE_AMD_ROCM

namespace utils {
template <typename U, typename V>
constexpr __host__ __device__ auto divUp(U a, V b) -> decltype(a + b) {
    return (a + b - 1) / b;
}
} // namespace utils

template <typename T>
struct Sum {
    __device__ inline T operator()(T a, T b) const { return a + b; }
    inline __device__ T identity() const { return T(0); }
};

__device__ __forceinline__ int getLaneId() {
    int laneId;
    asm("mov.u32 %0, %%laneid;" : "=r"(laneId));
    return laneId;
}

template <typename T>
inline __device__ T shfl(const T val, int srcLane, int width = kWarpSize) {
#if CUDA_VERSION >= 9000
    return __shfl_sync(0xffffffff, val, srcLane, width);
#else
    return __shfl(val, srcLane, width);
#endif
}

template <typename T>
inline __device__ T shfl_xor(const T val, int laneMask, int width = kWarpSize) {
#if CUDA_VERSION >= 9000
    return __shfl_xor_sync(0xffffffff, val, laneMask, width);
#else
    return __shfl_xor(val, laneMask, width);
#endif
}

template <typename T, typename Op, int ReduceWidth = kWarpSize>
__device__ inline T warpReduceAll(T val, Op op) {
#pragma unroll
    for (int mask = ReduceWidth / 2; mask > 0; mask >>= 1) {
        val = op(val, shfl_xor(val, mask));
    }

    return val;
}

/// Sums a register value across all warp threads
template <typename T, int ReduceWidth = kWarpSize>
__device__ inline T warpReduceAllSum(T val) {
    return warpReduceAll<T, Sum<T>, ReduceWidth>(val, Sum<T>());
}

/// Performs a block-wide reduction
template <typename T, typename Op, bool BroadcastAll, bool KillWARDependency>
__device__ inline T blockReduceAll(T val, Op op, T* smem) {
    int laneId = getLaneId();
    int warpId = threadIdx.x / kWarpSize;

    val = warpReduceAll<T, Op>(val, op);
    if (laneId == 0) {
        smem[warpId] = val;
    }
    __syncthreads();

    if (warpId == 0) {
        val = laneId < utils::divUp(blockDim.x, kWarpSize) ? smem[laneId]
                                                           : op.identity();
        val = warpReduceAll<T, Op>(val, op);

        if (BroadcastAll) {
            __threadfence_block();

            if (laneId == 0) {
                smem[0] = val;
            }
        }
    }

    if (BroadcastAll) {
        __syncthreads();
        val = smem[0];
    }

    if (KillWARDependency) {
        __syncthreads();
    }

    return val;
}

/// Sums a register value across the entire block
template <typename T, bool BroadcastAll, bool KillWARDependency>
__device__ inline T blockReduceAllSum(T val, T* smem) {
    return blockReduceAll<T, Sum<T>, BroadcastAll, KillWARDependency>(
            val, Sum<T>(), smem);
}

// Not in faiss: a minimal caller (faiss's callers take Tensor<> views). One block per row;
// smem holds one slot per warp, sized like faiss's callers do (kMaxThreads / kWarpSize).
constexpr int kMaxThreads = 1024;

__global__ void sumRows(const float* in, float* out, int cols) {
    __shared__ float smem[kMaxThreads / kWarpSize];
    float v = 0;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        v += in[blockIdx.x * cols + c];
    }
    v = blockReduceAllSum<float, false, true>(v, smem);
    if (threadIdx.x == 0) {
        out[blockIdx.x] = v;
    }
}

} // namespace gpu
} // namespace faiss

void runSumRows(const float* in, float* out, int rows, int cols) {
    faiss::gpu::sumRows<<<rows, 256>>>(in, out, cols);
}
