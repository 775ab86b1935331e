// A fake CUDA runtime for testing generated launchers WITHOUT a GPU (tests/test_bind_behaviour.py).
//
// It compiles the launcher and the kernel source it includes with a plain host C++ compiler:
// __global__ functions become host functions that nothing runs unless a test's launch hook does.
// Every runtime call is logged; the test can make the next launch or synchronise fail, leave an
// error pending, and count frees per pointer. Geometry is validated like CUDA does it (block at
// most 1024 threads and 1024 x 1024 x 64, every dimension at least 1), so a bad geometry
// produces the launch error a real launch would. This proves the generated host logic, not
// the kernels (which `kernelport verify` and the compile tests cover).
#ifndef KP_FAKE_CUDA_RUNTIME_H
#define KP_FAKE_CUDA_RUNTIME_H

#include <stddef.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchFailure = 719
} cudaError_t;

typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3
} cudaMemcpyKind;

struct uint3 { unsigned int x, y, z; };
struct dim3 {
    unsigned int x, y, z;
    dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
};
typedef struct CUstream_st* cudaStream_t;

extern "C" {
extern uint3 threadIdx, blockIdx;
extern dim3 blockDim, gridDim;

cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
cudaError_t cudaDeviceSynchronize(void);
const char* cudaGetErrorString(cudaError_t error);
cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t stream);
cudaError_t cudaMalloc(void** ptr, size_t bytes);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind);

// -- test controls --------------------------------------------------------------------------
void fake_reset(void);
void fake_fail_next_launch(int code);  // the next cudaLaunchKernel returns code (and leaves it pending)
void fake_fail_next_sync(int code);  // the next cudaDeviceSynchronize returns code (a kernel fault)
void fake_set_pending(int code);  // an earlier call's error, left for cudaGetLastError
const char* fake_log(void);  // the runtime calls so far, comma-separated
int fake_free_count(const void* ptr);  // how many times ptr was passed to cudaFree
int fake_live_allocations(void);
typedef void (*fake_launch_hook)(const void* func, dim3 grid, dim3 block, size_t shared, void** args);
void fake_on_launch(fake_launch_hook hook);  // called for every launch that passes validation
}

#endif
