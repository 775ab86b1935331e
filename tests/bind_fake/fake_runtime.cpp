// The fake CUDA runtime's implementation (see cuda_runtime.h). Host memory stands in for device
// memory; no STL, so the object links into a C or Rust program without libstdc++.
#include "cuda_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
uint3 threadIdx, blockIdx;
dim3 blockDim, gridDim;
}

namespace {
const int kMaxPointers = 1024;
struct Record { const void* ptr; int live; int frees; };
Record records[kMaxPointers];
int nrecords = 0;
cudaError_t pending = cudaSuccess;
int fail_launch = 0, fail_sync = 0;
char log_text[8192];
fake_launch_hook hook = 0;

void note(const char* call)
{
    size_t n = strlen(log_text);
    snprintf(log_text + n, sizeof log_text - n, "%s%s", n ? "," : "", call);
}

Record* find(const void* p)
{
    for (int i = 0; i < nrecords; ++i)
        if (records[i].ptr == p) return &records[i];
    return 0;
}
}  // namespace

extern "C" {

void fake_reset(void)
{
    for (int i = 0; i < nrecords; ++i)
        if (records[i].live) free((void*)records[i].ptr);
    nrecords = 0;
    pending = cudaSuccess;
    fail_launch = fail_sync = 0;
    log_text[0] = 0;
    hook = 0;
}

void fake_fail_next_launch(int code) { fail_launch = code; }
void fake_fail_next_sync(int code) { fail_sync = code; }
void fake_set_pending(int code) { pending = (cudaError_t)code; }
const char* fake_log(void) { return log_text; }
void fake_on_launch(fake_launch_hook h) { hook = h; }

int fake_free_count(const void* ptr)
{
    Record* r = find(ptr);
    return r ? r->frees : 0;
}

int fake_live_allocations(void)
{
    int n = 0;
    for (int i = 0; i < nrecords; ++i) n += records[i].live;
    return n;
}

cudaError_t cudaGetLastError(void)
{
    note("GetLastError");
    cudaError_t e = pending;
    pending = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    note("PeekAtLastError");
    return pending;
}

cudaError_t cudaDeviceSynchronize(void)
{
    note("DeviceSynchronize");
    if (fail_sync) {
        cudaError_t e = (cudaError_t)fail_sync;
        fail_sync = 0;
        return e;
    }
    return cudaSuccess;
}

const char* cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    }
    return "unrecognized error code";
}

cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t)
{
    note("LaunchKernel");
    cudaError_t e = cudaSuccess;
    unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z || block.x > 1024 || block.y > 1024 ||
        block.z > 64 || threads > 1024 || grid.y > 65535 || grid.z > 65535 || grid.x > 0x7fffffffu)
        e = cudaErrorInvalidConfiguration;
    else if (shared > 48 * 1024)
        e = cudaErrorInvalidValue;
    else if (fail_launch)
        e = (cudaError_t)fail_launch;
    fail_launch = 0;
    if (e != cudaSuccess) {
        pending = e;  // like CUDA: a launch error is also the last error
        return e;
    }
    if (hook) hook(func, grid, block, shared, args);
    return cudaSuccess;
}

cudaError_t cudaMalloc(void** ptr, size_t bytes)
{
    note("Malloc");
    if (nrecords == kMaxPointers) return cudaErrorMemoryAllocation;
    *ptr = malloc(bytes ? bytes : 1);
    Record* r = find(*ptr);  // an address the allocator hands out again: a new allocation
    if (!r) r = &records[nrecords++];
    r->ptr = *ptr;
    r->live = 1;
    r->frees = 0;
    return cudaSuccess;
}

cudaError_t cudaFree(void* ptr)
{
    note("Free");
    if (!ptr) return cudaSuccess;
    Record* r = find(ptr);
    if (!r) return cudaErrorInvalidValue;
    r->frees += 1;
    if (!r->live) return cudaErrorInvalidValue;  // a double free: counted, reported, not performed
    r->live = 0;
    free(ptr);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind)
{
    note("Memcpy");
    memcpy(dst, src, bytes);
    return cudaSuccess;
}

}  // extern "C"
