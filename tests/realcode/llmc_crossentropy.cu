// SPDX-License-Identifier: MIT
// Copyright (c) 2024 Andrej Karpathy (llm.c, MIT License: permission is hereby granted, free of
// charge, to any person obtaining a copy of this software, to deal in the Software without
// restriction, subject to the copyright notice and this permission notice being included).
// SOURCE: github.com/karpathy/llm.c @ f1e2ace651495b74ae22d45d1723443fd00ecd3a, dev/cuda/crossentropy_forward.cu
//         (crossentropy_forward_kernel1): a gather by integer targets, one thread per token.
// Edits: annotations and the scalar reference crossentropy_ref added; nothing else changed.
#include <math.h>
// @kp kernel crossentropy_forward_kernel1
// @kp grid   ceil_div(B * T, 128)
// @kp block  128
// @kp why    one thread per (b, t) token
// @kp arg    losses  out float[B * T]
// @kp arg    probs   in  float[B * T * V] uniform(0.01, 1)
// @kp arg    targets in  int[B * T] integers(0, 50)
// @kp scalar B = 4
// @kp scalar T = 64
// @kp scalar V = 50
// @kp reference crossentropy_ref(losses, probs, targets, B, T, V)
__global__ void crossentropy_forward_kernel1(float* losses,
                            const float* probs, const int* targets,
                            int B, int T, int V) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < B * T) {
        int b = i / T;
        int t = i % T;
        const float* probs_bt = probs + b * T * V + t * V;
        int ix = targets[b * T + t];
        losses[b * T + t] = -logf(probs_bt[ix]);
    }
}

// kernelport: llm.c's crossentropy_forward_cpu.
void crossentropy_ref(float* losses, const float* probs, const int* targets, int B, int T, int V) {
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++)
            losses[b * T + t] = -logf(probs[b * T * V + t * V + targets[b * T + t]]);
}
