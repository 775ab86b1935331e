// SPDX-License-Identifier: MIT
// Copyright (c) 2024 Andrej Karpathy (llm.c, MIT License: permission is hereby granted, free of
// charge, to any person obtaining a copy of this software, to deal in the Software without
// restriction, subject to the copyright notice and this permission notice being included).
// SOURCE: github.com/karpathy/llm.c @ f1e2ace651495b74ae22d45d1723443fd00ecd3a, dev/cuda/matmul_backward_bias.cu
//         (matmul_backward_bias_kernel4): a column-wise sum; each block owns warpSize adjacent
//         columns (one per lane), its warps stride over the rows, warp 0 adds the warps'
//         partials from shared memory.  The columns a block owns are warpSize wide, so the grid
//         is OC / warpSize: the annotation names warpSize (llm.c's host launches OC / 32, which
//         on a 64-wide wave would cover each column twice and run past OC).
// Edits: annotations and the scalar reference bias_ref added; floatX is float (common.h's
//        typedef without ENABLE_BF16/ENABLE_FP16), written as the typedef.
typedef float floatX;
// @kp kernel matmul_backward_bias_kernel4
// @kp grid   OC / warpSize
// @kp block  128
// @kp why    a block per warpSize columns; 4 NVIDIA warps (2 CDNA waves) stride over the rows
// @kp shared 128 * sizeof(float)
// @kp arg    dbias inout float[OC] uniform(-1, 1)
// @kp arg    dout  in    float[B * T * OC] uniform(-1, 1)
// @kp scalar B = 2
// @kp scalar T = 24
// @kp scalar OC = 256
// @kp reference bias_ref(dbias, dout, B, T, OC)
__global__ void matmul_backward_bias_kernel4(floatX* dbias, const floatX* dout, int B, int T, int OC) {
    // this kernel is launched with 1D grid_dim of OC/32
    // for example let's say block_size is 128
    extern __shared__ float smem[]; // of size block_size (128)
    const int warp_id = threadIdx.x / warpSize; // warp index in the block, 0,1,2,3
    const int lane_id = threadIdx.x % warpSize; // thread index in the warp, 0,1,2,...,31
    const int tl = blockIdx.x * warpSize; // pointer to the start column for this block
    const int vstep = blockDim.x / warpSize; // number of warps in a block, e.g. 4

    // pointer to the start of the column for one lane of threads
    // so e.g. 4 (`vstep`) threads (of the same lane_id) will reduce this one column
    const floatX* dout_col = dout + tl + lane_id;

    // column reductions by looping through the rows
    // each of the 4 threads offsets by its warp_id and then skips by vstep
    // together these 4 threads cover all B*T rows of this (lane_id) column
    // importantly, consecutive threads (in threadId) are processing adjacent columns,
    // leading to a coalesced memory access pattern
    float dout_sum = 0.0f;
    for (int row = warp_id; row < B * T; row += vstep) {
        dout_sum += (float)dout_col[row * OC];
    }
    smem[lane_id + warp_id * warpSize] = dout_sum;
    __syncthreads();

    // warp_id 0 reduces the shared memory column-wise, linearly
    dout_sum = 0.0f;
    if (warp_id == 0) {
        for (int j = 0; j < vstep; j++) {
            dout_sum += smem[lane_id + j * warpSize];
        }
        dbias[tl + lane_id] = (float)dbias[tl + lane_id] + dout_sum;
    }
}

// kernelport: dbias += dout.sum((0, 1)), as llm.c's matmul_backward_bias CPU reference.
void bias_ref(float* dbias, const float* dout, int B, int T, int OC) {
    for (int o = 0; o < OC; o++) {
        float s = 0.0f;
        for (int bt = 0; bt < B * T; bt++) s += dout[bt * OC + o];
        dbias[o] += s;
    }
}
