// SPDX-License-Identifier: MIT
// Copyright (c) 2024 Andrej Karpathy (llm.c, MIT License: permission is hereby granted, free of
// charge, to any person obtaining a copy of this software, to deal in the Software without
// restriction, subject to the copyright notice and this permission notice being included).
// SOURCE: github.com/karpathy/llm.c @ f1e2ace651495b74ae22d45d1723443fd00ecd3a, dev/cuda/layernorm_forward.cu (mean_kernel):
//         a block per row, a shared-memory tree of block_size partial sums.
// Edits: annotations and the scalar reference mean_ref added; nothing else changed.
// @kp kernel mean_kernel
// @kp grid   N
// @kp block  block_size
// @kp why    a block per row; a power of two for the shared-memory tree
// @kp shared block_size * sizeof(float)
// @kp arg    mean out float[N]
// @kp arg    inp  in  float[N * C] uniform(-2, 2)
// @kp scalar N = 40
// @kp scalar C = 300
// @kp scalar block_size = 128
// @kp reference mean_ref(mean, inp, N, C)
__global__ void mean_kernel(float* mean, const float* inp, int N, int C, int block_size) {
    extern __shared__ float shared[];
    int idx = blockIdx.x; // range [0, B*T)
    int tid = threadIdx.x; // range [0, block_size)
    const float* x = inp + idx * C;
    // thread coarsening
    float sum = 0.0f;
    for (int i = tid; i < C; i += block_size) {
        sum += x[i];
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
        mean[idx] = shared[0] / C;
    }
}

// kernelport: the row mean, as in llm.c's layernorm_forward_cpu.
void mean_ref(float* mean, const float* inp, int N, int C) {
    for (int r = 0; r < N; r++) {
        float m = 0.0f;
        for (int i = 0; i < C; i++) m += inp[r * C + i];
        mean[r] = m / C;
    }
}
