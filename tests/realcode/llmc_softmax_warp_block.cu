// SPDX-License-Identifier: MIT
// Copyright (c) 2024 Andrej Karpathy (llm.c, MIT License: permission is hereby granted, free of
// charge, to any person obtaining a copy of this software, to deal in the Software without
// restriction, subject to the copyright notice and this permission notice being included).
// SOURCE: github.com/karpathy/llm.c @ f1e2ace651495b74ae22d45d1723443fd00ecd3a, dev/cuda/softmax_forward.cu (softmax_forward_kernel3)
//         and dev/cuda/common.h (warpReduceSum).  One 32-thread block per row: a one-warp block
//         whose xor/down ladders start at 16 (on a 64-wide wave the block is half a wave).
// Edits: annotations and the scalar reference softmax_ref added; nothing else changed.
#include <math.h>
__device__ float warpReduceSum(float val) {
    for (int offset = 16; offset > 0; offset /= 2) {
        val += __shfl_xor_sync(0xFFFFFFFF, val, offset);
    }
    return val;
}

// warp-level reduction for finding the maximum value
__device__ float warpReduceMax(float val) {
    for (int offset = 16; offset > 0; offset /= 2) {
        val = fmaxf(val, __shfl_down_sync(0xFFFFFFFF, val, offset));
    }
    return val;
}

// @kp kernel softmax_forward_kernel3
// @kp grid   N
// @kp block  32
// @kp why    "kernel must use block size of 32": one warp per row
// @kp shared 32 * sizeof(float)
// @kp arg    out out float[N * C]
// @kp arg    inp in  float[N * C] uniform(-4, 4)
// @kp scalar N = 24
// @kp scalar C = 100
// @kp reference softmax_ref(out, inp, N, C)
__global__ void softmax_forward_kernel3(float* out, const float* inp, int N, int C) {
    // kernel must use block size of 32
    extern __shared__ float shared[];
    int idx = blockIdx.x;
    int tid = threadIdx.x;
    const float* x = inp + idx * C;

    // Thread coarsening and within-warp reduction for maxval
    float maxval = -INFINITY;
    for (int i = tid; i < C; i += blockDim.x) {
        maxval = fmaxf(maxval, x[i]);
    }
    maxval = warpReduceMax(maxval);

    // Broadcast maxval within the warp
    float offset = __shfl_sync(0xFFFFFFFF, maxval, 0);

    // Compute expf and write the result to global memory
    for (int i = tid; i < C; i += blockDim.x) {
        out[idx * C + i] = expf(x[i] - offset);
    }

    // Thread coarsening and within-warp reduction for sumval
    x = out + idx * C;
    float sumval = 0.0f;
    for (int i = tid; i < C; i += blockDim.x) {
        sumval += x[i];
    }
    // No need to broadcast sumval since all threads in the warp will have the same value
    // (due to the fact that we're using __shfl_xor_sync)
    sumval = warpReduceSum(sumval);

    // Divide the input values by the sum
    for (int i = tid; i < C; i += blockDim.x) {
        out[idx * C + i] = x[i] / sumval;
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
