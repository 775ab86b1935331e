// cuRAND's XORWOW on the GPU against the emulator's model (kernelport/emulator/xorwow.py,
// emulator/frontend/curand_model.py): every lane its own (seed, subsequence, offset), then each
// draw kind.  The lead's device run:
//     python3 -m kernelport verify bench/device/curand_draws.cu --device cuda --format json
// (no annotation: the original at wave 32 is the oracle; the device row compares the GPU's outputs
// with the emulator's run of it on the same inputs).
#include <cuda_runtime.h>
#include <curand_kernel.h>

__global__ void draws(unsigned int* words, float* f, double* d, unsigned long long seed, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    curandState s;
    curand_init(seed + (unsigned long long)(i % 3) * 0x9E3779B97F4A7C15ULL, (unsigned long long)(i * 7919 % 1000003),
                (unsigned long long)(i % 5) * 777ULL, &s);
    words[2 * i] = curand(&s);
    words[2 * i + 1] = curand(&s);
    f[4 * i] = curand_uniform(&s);
    f[4 * i + 1] = curand_normal(&s);
    f[4 * i + 2] = curand_normal(&s);
    f[4 * i + 3] = curand_normal(&s);
    d[2 * i] = curand_uniform_double(&s);
    d[2 * i + 1] = curand_normal_double(&s);
}

int main() {
    const int n = 256;
    unsigned int* words;
    float* f;
    double* d;
    cudaMalloc(&words, 2 * n * sizeof(unsigned int));
    cudaMalloc(&f, 4 * n * sizeof(float));
    cudaMalloc(&d, 2 * n * sizeof(double));
    draws<<<(n + 127) / 128, 128>>>(words, f, d, 1234ULL, n);
    cudaDeviceSynchronize();
    cudaFree(words);
    cudaFree(f);
    cudaFree(d);
    return 0;
}
