// vector_add.cu - element-wise vector addition, c[i] = a[i] + b[i].
//
// The "hello world" of CUDA: one thread per element, a bounds guard for the last block,
// and a small host launcher that shows the usual cudaMalloc / cudaMemcpy / <<< >>> dance.
// Nothing here depends on the warp size.

#include <cuda_runtime.h>

// @kp kernel     vector_add
// @kp grid       ceil_div(n, 256)
// @kp block      256
// @kp why        256 threads: a multiple of every wave width (32 and 64) and small enough that
// @kp why        several blocks stay resident per SM/CU to hide global-memory latency
// @kp arg        a   in   float[n]   uniform(-1, 1)
// @kp arg        b   in   float[n]   uniform(-1, 1)
// @kp arg        c   out  float[n]
// @kp scalar     n = (1 << 18) + 7
// @kp reference  vector_add_ref(a, b, c, n)
// @kp tolerance  exact
// @kp targets    hip, metal
__global__ void vector_add(const float* __restrict__ a,
                           const float* __restrict__ b,
                           float* __restrict__ c,
                           int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    // The grid is rounded up to whole blocks, so the last block has threads past the end.
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

// Host launcher: copies the inputs to the device, runs the kernel, copies the result back.
// Returns the first CUDA error seen (cudaSuccess when everything worked).
cudaError_t vector_add_host(const float* h_a, const float* h_b, float* h_c, int n)
{
    float* d_a = NULL;
    float* d_b = NULL;
    float* d_c = NULL;
    size_t bytes = (size_t)n * sizeof(float);

    cudaMalloc((void**)&d_a, bytes);
    cudaMalloc((void**)&d_b, bytes);
    cudaMalloc((void**)&d_c, bytes);

    cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice);

    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    vector_add<<<blocks, threads>>>(d_a, d_b, d_c, n);
    cudaError_t err = cudaGetLastError();

    cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost);

    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_c);
    return err;
}

// Scalar CPU reference (plain C99).
void vector_add_ref(const float* a, const float* b, float* c, int n)
{
    int i;
    for (i = 0; i < n; ++i) {
        c[i] = a[i] + b[i];
    }
}
