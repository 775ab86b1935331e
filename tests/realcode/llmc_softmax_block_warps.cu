// SPDX-License-Identifier: MIT
// Copyright (c) 2024 Andrej Karpathy (llm.c, MIT License: permission is hereby granted, free of
// charge, to any person obtaining a copy of this software, to deal in the Software without
// restriction, subject to the copyright notice and this permission notice being included).
// SOURCE: github.com/karpathy/llm.c @ f1e2ace651495b74ae22d45d1723443fd00ecd3a, dev/cuda/softmax_forward.cu (softmax_forward_kernel4)
//         and dev/cuda/common.h (warpReduceSum).  Any block size, warps of 32 (threadIdx.x / 32)
//         reduced by ladders from 16, then across warps through shared memory by thread 0.
// Edits: annotations and the scalar reference softmax_ref added; comments shortened; one
//        __syncthreads() added (marked): kernelport verify found a shared-memory race in the
//        original (warp 0 lane 0 writes shared[0], the sum slot, with no barrier after the other
//        warps read the max from it; wrong numbers under the interleaved-warps schedule).
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

// @kp kernel softmax_forward_kernel4
// @kp grid   N
// @kp block  128
// @kp why    a block per row; 4 NVIDIA warps (2 CDNA waves) whose partials thread 0 combines
// @kp shared 4 * sizeof(float)
// @kp arg    out out float[N * C]
// @kp arg    inp in  float[N * C] uniform(-4, 4)
// @kp scalar N = 16
// @kp scalar C = 300
// @kp reference softmax_ref(out, inp, N, C)
__global__ void softmax_forward_kernel4(float* out, const float* inp, int N, int C) {
    // out is (N, C) just like inp. Each row of inp will get softmaxed.
    // same as kernel3, but can handle any block size (multiple of 32)
    extern __shared__ float shared[];
    int idx = blockIdx.x;
    int tid = threadIdx.x;
    int warpId = threadIdx.x / 32; // warp index within a block
    int laneId = threadIdx.x % 32; // thread index within a warp

    // the number of warps per block. recall that blockDim.x is block_size
    int warpsPerBlock = blockDim.x / 32;

    // shared[] must be allocated to have warpsPerBlock elements
    float* max_or_sum_storage = shared;

    // one row of inp, i.e. inp[idx, :] of shape (C,)
    const float* x = inp + idx * C;

    // first, thread coarsening by directly accessing global memory in series
    float maxval = -INFINITY;
    for (int i = tid; i < C; i += blockDim.x) {
        maxval = fmaxf(maxval, x[i]);
    }
    // now within-warp reductions for maxval
    maxval = warpReduceMax(maxval);

    // the 0th thread of each warp writes the maxval of that warp to shared memory
    if (laneId == 0) max_or_sum_storage[warpId] = maxval;
    __syncthreads();

    // now the 0th thread of the block reduces the max values in shared memory, i.e. across warps
    if (tid == 0) {
        float val = max_or_sum_storage[tid];
        for (int i = 1; i < warpsPerBlock; i++) {
            val = fmaxf(val, max_or_sum_storage[i]);
        }
        // store the final max in the first position
        max_or_sum_storage[0] = val;
    }
    __syncthreads();
    // broadcast the max to all threads
    float offset = max_or_sum_storage[0];

    // compute expf and write the result to global memory
    for (int i = tid; i < C; i += blockDim.x) {
        out[idx * C + i] = expf(x[i] - offset);
    }

    // thread coarsening for sum
    x = out + idx * C;
    float sumval = 0.0f;
    for (int i = tid; i < C; i += blockDim.x) {
        sumval += x[i];
    }
    // within-warp reduction for sumval
    sumval = warpReduceSum(sumval);

    // write sumval to shared memory
    __syncthreads();  // kernelport edit: a barrier the original lacks (thread 0 would overwrite
                      // shared[0] while other warps may still read the max from it)
    if (laneId == 0) max_or_sum_storage[warpId] = sumval;
    __syncthreads();

    // inter-thread reduction of sum
    if (tid == 0) {
        float val = max_or_sum_storage[tid];
        for (int i = 1; i < warpsPerBlock; ++i) {
            val += max_or_sum_storage[i];
        }
        max_or_sum_storage[0] = val;
    }
    __syncthreads();
    // broadcast the sum to all threads
    float sum = max_or_sum_storage[0];

    // divide the whole row by the sum
    for (int i = tid; i < C; i += blockDim.x) {
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
