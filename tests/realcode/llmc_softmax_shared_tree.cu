// SPDX-License-Identifier: MIT
// Copyright (c) 2024 Andrej Karpathy (llm.c, MIT License: permission is hereby granted, free of
// charge, to any person obtaining a copy of this software, to deal in the Software without
// restriction, subject to the copyright notice and this permission notice being included).
// SOURCE: github.com/karpathy/llm.c @ f1e2ace651495b74ae22d45d1723443fd00ecd3a, dev/cuda/softmax_forward.cu (softmax_forward_kernel2):
//         a block per row, max and sum by a shared-memory tree over the whole block.
// Edits: annotations and the scalar reference softmax_ref added; nothing else changed.
#include <math.h>
// @kp kernel softmax_forward_kernel2
// @kp grid   N
// @kp block  64
// @kp why    a block per row; a power of two for the shared-memory tree
// @kp shared 64 * sizeof(float)
// @kp arg    out out float[N * C]
// @kp arg    inp in  float[N * C] uniform(-4, 4)
// @kp scalar N = 16
// @kp scalar C = 200
// @kp reference softmax_ref(out, inp, N, C)
__global__ void softmax_forward_kernel2(float* out, const float* inp, int N, int C) {
    // inp is (N, C)
    // in each row of C elements, first calculates maxval, then returns expf(val - maxval)
    extern __shared__ float shared[];
    int idx = blockIdx.x; // ranges [0, N)
    int tid = threadIdx.x; // ranges [0, block_size)
    int block_size = blockDim.x;
    const float* x = inp + idx * C; // idx-th row of inp
    // thread coarsening
    float maxval = -INFINITY;
    for (int i = tid; i < C; i += block_size) {
        maxval = fmaxf(maxval, x[i]);
    }
    shared[tid] = maxval;
    // reductions
    for (int stride = block_size / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (tid < stride) {
            shared[tid] = fmaxf(shared[tid], shared[tid + stride]);
        }
    }
    __syncthreads();
    float offset = shared[0];
    // compute expf and write the result to global memory
    for (int i = tid; i < C; i += block_size) {
        out[idx * C + i] = expf(x[i] - offset);
    }
    __syncthreads();
    // thread coarsening again, for the sum
    x = out + idx * C; // idx-th row of out
    float sumval = 0.0f;
    for (int i = tid; i < C; i += block_size) {
        sumval += x[i];
    }
    shared[tid] = sumval;
    // reductions
    for (int stride = block_size / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        if (tid < stride) {
            shared[tid] += shared[tid + stride];
        }
    }
    // broadcast the sum to all threads in the block
    __syncthreads();
    float sum = shared[0];
    // divide the input values by the sum
    for (int i = tid; i < C; i += block_size) {
        out[idx * C + i] = x[i] / sum;
    }
}

// kernelport: scalar reference (row max, sum of exp, divide), as llm.c's softmax_forward_cpu.
void softmax_ref(float* out, const float* inp, int N, int C) {
    for (int i = 0; i < N; i++) {
        const float* x = inp + i * C;
        float m = -INFINITY, s = 0.0f;
        for (int j = 0; j < C; j++) m = x[j] > m ? x[j] : m;
        for (int j = 0; j < C; j++) s += expf(x[j] - m);
        for (int j = 0; j < C; j++) out[i * C + j] = expf(x[j] - m) / s;
    }
}
