// `#if __CUDA_ARCH__` in code both of nvcc's passes compile (kernelport/pass_branches.py, stop 52): a
// `__host__ __device__` function's body, a file-scope `#define` and constant under a test that also reads
// the toolkit's version (`CUDART_VERSION`, the CUDA backend's toolkit_versions).  The device pass computes
// `v * 2 * 3 + 48`, the host pass (`__CUDA_ARCH__` undefined) `(v + 1) * 1 + 16`; the HIP port writes both
// under `#if defined(__HIP_DEVICE_COMPILE__)`.  The lead's device run:
//     python3 -m kernelport translate bench/device/pass_branches52.cu --to hip -o bench/device
//     python3 -m kernelport verify bench/device/pass_branches52.cu --device cuda --oracle original
// The GPU row passes only if nvcc's device pass took the branches the emulator's original takes (CUDA 13's
// newest architecture, CUDART_VERSION 13000).  On main (bca5b6e5) the HIP port computed the host's values on the GPU.
#if (__CUDA_ARCH__ >= 700) && (CUDART_VERSION >= 11000)
#define SCALE 3.0f
#else
#define SCALE 1.0f
#endif

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 200)
const int SHM = 48;
#else
const int SHM = 16;
#endif

__host__ __device__ float scale(float v)
{
#if __CUDA_ARCH__ >= 700
    return v * 2.0f;
#else
    return v + 1.0f;
#endif
}

// @kp kernel k
// @kp grid ceil_div(n, 256)
// @kp block 256
// @kp why 8 NVIDIA warps / 4 CDNA waves; no warp-level code
// @kp arg x in float[n] uniform(-1, 1)
// @kp arg out out float[n]
// @kp scalar n = 1000
// @kp targets hip
__global__ void k(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = scale(x[i]) * SCALE + SHM;
}
