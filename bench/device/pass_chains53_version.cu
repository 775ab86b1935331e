// Stop 53 (h/hip53) probe, kernelport/pass_branches.py + version_branches.py + device_pass.py. Lead's device run:
//     python3 -m kernelport verify bench/device/pass_chains53_NAME.cu --device cuda --oracle original
// The GPU row passes only if nvcc's device pass takes the branch the emulator's original takes.
// A version-only test in code both passes compile: CUDART_VERSION is the toolkit's on both passes.
#include <cuda_runtime.h>
#if CUDART_VERSION >= 11000
#define SCALE 3.0f
#else
#define SCALE 1.0f
#endif

__host__ __device__ float scale(float v)
{
#if defined(CUDART_VERSION) && CUDART_VERSION < 9000
    return v + 1.0f;
#else
    return v * 2.0f;
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
    if (i < n) out[i] = scale(x[i]) * SCALE;
}
