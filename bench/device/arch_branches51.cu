// Which `#if __CUDA_ARCH__` branch the GPU runs, against the emulator's original (which defines
// `__CUDA_ARCH__` as the newest of the CUDA backend's device_archs) and the HIP port, which takes that
// branch alone (kernelport/arch_branches.py, stop 51).  The branches compute differently on purpose:
// sm_90 and newer `v * 2`, sm_80..sm_89 `v * 3`, older `v + 1`.  The lead's device run:
//     python3 -m kernelport translate bench/device/arch_branches51.cu --to hip -o bench/device
//     python3 -m kernelport verify bench/device/arch_branches51.cu --device cuda --oracle original
// On an H100 (sm_90) the device row passes only if verify's nvcc build targets sm_90 or newer (a
// compute_75 PTX build would run the `#else`): the row says which branch the GPU's build took.
__device__ float scale(float v)
{
#if __CUDA_ARCH__ >= 900
    return v * 2.0f;
#elif __CUDA_ARCH__ >= 800
    return v * 3.0f;
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
    if (i < n) out[i] = scale(x[i]);
}
