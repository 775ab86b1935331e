// kp_warp.h: the thin portability header of kernelport's portable ports (kernelport 0.1.0).
// kernelport-checksum: 917ea49968849006
//
// One kernel source builds unchanged with nvcc (NVIDIA, 32-wide warps) and with hipcc for AMD
// CDNA (gfx9, 64-wide waves) and RDNA (gfx10-12, 32-wide waves). Kernel bodies reach the
// platform only through the names below. Two traps are avoided on purpose:
//   - every lane mask and ballot is 64 bits (kp_lanemask_t) on every platform: a 32-bit ballot
//     silently drops lanes 32-63 of a CDNA wave;
//   - the wave width is never derived from an architecture macro (__AMDGCN_WAVEFRONT_SIZE is
//     deprecated since ROCm 6.3, and it and __GFX9__ are wrong on the generic amdgcnspirv
//     target, where the width is only known when the code is finalised for a device). Code gets
//     a compile-time BOUND (KP_WAVE_MAX, valid everywhere) and the run-time width (kp_wave_size()).
// Shuffles and votes take CUDA's mask, widened to 64 bits: on NVIDIA it names the lanes that take
// part; on AMD the lanes executing the call take part, which is what a full mask (KP_FULL_MASK)
// or one from kp_activemask() means. kernelport refuses to port a mask that may name only some
// lanes, whose meaning no AMD operation keeps.
#ifndef KP_WARP_H
#define KP_WARP_H

// ---- wave width ---------------------------------------------------------------------------
// KP_WAVE_MAX: an upper bound of the wave width on every supported device. Size per-lane and
// per-warp arrays with it (a block of up to 1024 threads has at most 1024 / 32 = 32 warps, and a
// wave has at most 64 lanes).
#define KP_WAVE_MAX 64

// kp_lanemask_t: one bit per lane of a wave, 64 bits everywhere; KP_FULL_MASK: every lane.
typedef unsigned long long kp_lanemask_t;
#define KP_FULL_MASK (~0ull)

// kp_linear_tid(): this thread's index in its block, x fastest (how lanes are assigned to waves).
#define kp_linear_tid() ((int)((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x))

#if defined(__HIP__) || defined(__HIP_PLATFORM_AMD__)
// ==== AMD, through HIP ========================================================================
#include <hip/hip_runtime.h>

// kp_wave_size(): the wave width of the device running the code (64 on CDNA, 32 on RDNA).
#define kp_wave_size() warpSize
// kp_lane_id() / kp_warp_id(): this thread's lane in its wave, and its wave in the block.
#define kp_lane_id() ((int)__lane_id())
#define kp_warp_id() (kp_linear_tid() / kp_wave_size())

// kp_shfl*_sync(mask, value, lane_or_delta[, width]): read `value` from another lane of the wave
// (or of a segment of `width` lanes). Out-of-range sources return the caller's own value, as on
// CUDA. The mask is not needed here: the executing lanes take part.
#define kp_shfl_sync(mask, v, lane, ...) __shfl((v), (lane), ##__VA_ARGS__)
#define kp_shfl_up_sync(mask, v, delta, ...) __shfl_up((v), (delta), ##__VA_ARGS__)
#define kp_shfl_down_sync(mask, v, delta, ...) __shfl_down((v), (delta), ##__VA_ARGS__)
#define kp_shfl_xor_sync(mask, v, lanemask, ...) __shfl_xor((v), (lanemask), ##__VA_ARGS__)

// kp_ballot_sync(mask, p): one bit per lane whose predicate is true, as a 64-bit mask.
#define kp_ballot_sync(mask, p) ((kp_lanemask_t)__ballot(p))
// kp_any_sync / kp_all_sync(mask, p): whether any / all taking part have a true predicate.
#define kp_any_sync(mask, p) __any(p)
#define kp_all_sync(mask, p) __all(p)
// kp_activemask(): the lanes executing this statement.
#define kp_activemask() ((kp_lanemask_t)__ballot(1))
// kp_lanemask_lt(): the lanes below this one.
#define kp_lanemask_lt() ((kp_lanemask_t)__lanemask_lt())

// kp_syncwarp(): orders the wave's lanes and their shared-memory accesses (CUDA's __syncwarp()):
// a wave barrier between wavefront-scope release and acquire fences (__syncwarp is ROCm 6+ only).
__device__ inline void kp_syncwarp()
{
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
    __builtin_amdgcn_wave_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}

#define KP_RUNTIME_HIP 1
#elif defined(__CUDACC__)
// ==== NVIDIA, through CUDA ====================================================================
#include <cuda_runtime.h>

#define kp_wave_size() warpSize
#define kp_lane_id() (kp_linear_tid() % kp_wave_size())
#define kp_warp_id() (kp_linear_tid() / kp_wave_size())

// CUDA's operations take 32-bit masks: KP_FULL_MASK becomes 0xffffffff, a warp's every lane.
#define kp_shfl_sync(mask, v, lane, ...) __shfl_sync((unsigned)(mask), (v), (lane), ##__VA_ARGS__)
#define kp_shfl_up_sync(mask, v, delta, ...) __shfl_up_sync((unsigned)(mask), (v), (delta), ##__VA_ARGS__)
#define kp_shfl_down_sync(mask, v, delta, ...) __shfl_down_sync((unsigned)(mask), (v), (delta), ##__VA_ARGS__)
#define kp_shfl_xor_sync(mask, v, lanemask, ...) __shfl_xor_sync((unsigned)(mask), (v), (lanemask), ##__VA_ARGS__)

#define kp_ballot_sync(mask, p) ((kp_lanemask_t)__ballot_sync((unsigned)(mask), (p)))
#define kp_any_sync(mask, p) __any_sync((unsigned)(mask), (p))
#define kp_all_sync(mask, p) __all_sync((unsigned)(mask), (p))
#define kp_activemask() ((kp_lanemask_t)__activemask())
#define kp_lanemask_lt() ((((kp_lanemask_t)1) << kp_lane_id()) - 1)

#define kp_syncwarp() __syncwarp()

#define KP_RUNTIME_CUDA 1
#else
#error "kp_warp.h: compile with nvcc (CUDA) or hipcc (HIP for AMD)"
#endif

// ---- lane masks -------------------------------------------------------------------------------
// Bit counts of a 64-bit lane mask: population, first set lane (1-based, 0 if none), leading zeros.
#define kp_popc_mask(m) __popcll((kp_lanemask_t)(m))
#define kp_ffs_mask(m) __ffsll((long long)(m))
#define kp_clz_mask(m) __clzll((long long)(m))

// ---- runtime API ------------------------------------------------------------------------------
// Host code calls kpX for the runtime's cudaX / hipX.
#if defined(KP_RUNTIME_HIP)
#define kpMalloc hipMalloc
#define kpMallocManaged hipMallocManaged
#define kpMallocHost hipHostMalloc
#define kpFree hipFree
#define kpFreeHost hipHostFree
#define kpMemcpy hipMemcpy
#define kpMemcpyAsync hipMemcpyAsync
#define kpMemset hipMemset
#define kpMemsetAsync hipMemsetAsync
#define kpMemcpyHostToDevice hipMemcpyHostToDevice
#define kpMemcpyDeviceToHost hipMemcpyDeviceToHost
#define kpMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define kpMemcpyDefault hipMemcpyDefault
#define kpDeviceSynchronize hipDeviceSynchronize
#define kpGetLastError hipGetLastError
#define kpPeekAtLastError hipPeekAtLastError
#define kpGetErrorString hipGetErrorString
#define kpError_t hipError_t
#define kpSuccess hipSuccess
#define kpStream_t hipStream_t
#define kpStreamCreate hipStreamCreate
#define kpStreamDestroy hipStreamDestroy
#define kpStreamSynchronize hipStreamSynchronize
#define kpEvent_t hipEvent_t
#define kpEventCreate hipEventCreate
#define kpEventRecord hipEventRecord
#define kpEventSynchronize hipEventSynchronize
#define kpEventElapsedTime hipEventElapsedTime
#define kpEventDestroy hipEventDestroy
#define kpGetDevice hipGetDevice
#define kpSetDevice hipSetDevice
#define kpGetDeviceCount hipGetDeviceCount
#define kpDeviceProp hipDeviceProp_t
#define kpGetDeviceProperties hipGetDeviceProperties
#define kpDeviceGetAttribute hipDeviceGetAttribute
#define kpFuncSetAttribute hipFuncSetAttribute
#define kpOccupancyMaxActiveBlocksPerMultiprocessor hipOccupancyMaxActiveBlocksPerMultiprocessor
#define kpLaunchKernel hipLaunchKernel
#define kpMemcpyToSymbol hipMemcpyToSymbol
#define kpDevAttrWarpSize hipDeviceAttributeWarpSize
#else
#define kpMalloc cudaMalloc
#define kpMallocManaged cudaMallocManaged
#define kpMallocHost cudaMallocHost
#define kpFree cudaFree
#define kpFreeHost cudaFreeHost
#define kpMemcpy cudaMemcpy
#define kpMemcpyAsync cudaMemcpyAsync
#define kpMemset cudaMemset
#define kpMemsetAsync cudaMemsetAsync
#define kpMemcpyHostToDevice cudaMemcpyHostToDevice
#define kpMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define kpMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define kpMemcpyDefault cudaMemcpyDefault
#define kpDeviceSynchronize cudaDeviceSynchronize
#define kpGetLastError cudaGetLastError
#define kpPeekAtLastError cudaPeekAtLastError
#define kpGetErrorString cudaGetErrorString
#define kpError_t cudaError_t
#define kpSuccess cudaSuccess
#define kpStream_t cudaStream_t
#define kpStreamCreate cudaStreamCreate
#define kpStreamDestroy cudaStreamDestroy
#define kpStreamSynchronize cudaStreamSynchronize
#define kpEvent_t cudaEvent_t
#define kpEventCreate cudaEventCreate
#define kpEventRecord cudaEventRecord
#define kpEventSynchronize cudaEventSynchronize
#define kpEventElapsedTime cudaEventElapsedTime
#define kpEventDestroy cudaEventDestroy
#define kpGetDevice cudaGetDevice
#define kpSetDevice cudaSetDevice
#define kpGetDeviceCount cudaGetDeviceCount
#define kpDeviceProp cudaDeviceProp
#define kpGetDeviceProperties cudaGetDeviceProperties
#define kpDeviceGetAttribute cudaDeviceGetAttribute
#define kpFuncSetAttribute cudaFuncSetAttribute
#define kpOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define kpLaunchKernel cudaLaunchKernel
#define kpMemcpyToSymbol cudaMemcpyToSymbol
#define kpDevAttrWarpSize cudaDevAttrWarpSize
#endif

// kp_device_wave_size(): the wave width of the current device, asked from the host (the host
// pass cannot know it: one binary runs on CDNA and RDNA).
static inline int kp_device_wave_size()
{
    int device = 0, width = 32;
    if (kpGetDevice(&device) == kpSuccess)
        (void)kpDeviceGetAttribute(&width, kpDevAttrWarpSize, device);
    return width;
}

#endif  // KP_WARP_H
