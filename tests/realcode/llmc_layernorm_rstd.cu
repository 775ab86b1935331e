// SPDX-License-Identifier: MIT
// Copyright (c) 2024 Andrej Karpathy (llm.c, MIT License: permission is hereby granted, free of
// charge, to any person obtaining a copy of this software, to deal in the Software without
// restriction, subject to the copyright notice and this permission notice being included).
// SOURCE: github.com/karpathy/llm.c @ f1e2ace651495b74ae22d45d1723443fd00ecd3a, dev/cuda/layernorm_forward.cu (rstd_kernel): a block
//         per row, the sum of squared deviations by a shared-memory tree, 1/sqrt at thread 0.
// Edits: annotations and the scalar reference rstd_ref added; nothing else changed.
#include <math.h>
// @kp kernel rstd_kernel
// @kp grid   N
// @kp block  block_size
// @kp why    a block per row; a power of two for the shared-memory tree
// @kp shared block_size * sizeof(float)
// @kp arg    rstd out float[N]
// @kp arg    inp  in  float[N * C] uniform(-2, 2)
// @kp arg    mean in  float[N] uniform(-0.1, 0.1)
// @kp scalar N = 40
// @kp scalar C = 300
// @kp scalar block_size = 64
// @kp reference rstd_ref(rstd, inp, mean, N, C)
__global__ void rstd_kernel(float* rstd, const float* inp, const float* mean, int N, int C, int block_size) {
    extern __shared__ float shared[];
    int idx = blockIdx.x; // range [0, B*T)
    int tid = threadIdx.x; // range [0, block_size)
    const float* x = inp + idx * C;
    float m = mean[idx];
    // thread coarsening
    float sum = 0.0f;
    for (int i = tid; i < C; i += block_size) {
        float diff = x[i] - m;
        sum += diff * diff;
    }
    shared[tid] = sum;
    __syncthreads();
    // reductions
    for (int stride = block_size / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (tid < stride) {
            shared[tid] += shared[tid + stride];
        }
    }
    // write the final result (at thread 0) to global memory
    if (tid == 0) {
        rstd[idx] = 1.0f / sqrtf(shared[0] / C + 1e-5f);
    }
}

// kernelport: the rstd of llm.c's layernorm_forward_cpu, from the given mean.
void rstd_ref(float* rstd, const float* inp, const float* mean, int N, int C) {
    for (int r = 0; r < N; r++) {
        float v = 0.0f;
        for (int i = 0; i < C; i++) { float d = inp[r * C + i] - mean[r]; v += d * d; }
        rstd[r] = 1.0f / sqrtf(v / C + 1e-5f);
    }
}
