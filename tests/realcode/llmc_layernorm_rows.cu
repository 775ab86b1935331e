// SPDX-License-Identifier: MIT
// Copyright (c) 2024 Andrej Karpathy (llm.c, MIT License: permission is hereby granted, free of
// charge, to any person obtaining a copy of this software, to deal in the Software without
// restriction, subject to the copyright notice and this permission notice being included).
// SOURCE: github.com/karpathy/llm.c @ f1e2ace651495b74ae22d45d1723443fd00ecd3a, dev/cuda/layernorm_forward.cu (layernorm_forward_kernel1):
//         one thread per row (no warp-level code: the same on every width).
// Edits: annotations and the scalar reference layernorm_ref (llm.c's layernorm_forward_cpu,
//        float accumulation) added; nothing else changed.
#include <math.h>
// @kp kernel layernorm_forward_kernel1
// @kp grid   ceil_div(N, 64)
// @kp block  64
// @kp why    one thread per row; 64 threads make one CDNA wave or two NVIDIA warps
// @kp arg    out    out float[N * C]
// @kp arg    mean   out float[N]
// @kp arg    rstd   out float[N]
// @kp arg    inp    in  float[N * C] uniform(-2, 2)
// @kp arg    weight in  float[C] uniform(0.5, 1.5)
// @kp arg    bias   in  float[C] uniform(-0.5, 0.5)
// @kp scalar N = 100
// @kp scalar C = 48
// @kp reference layernorm_ref(out, mean, rstd, inp, weight, bias, N, C)
__global__ void layernorm_forward_kernel1(float* out, float* mean, float* rstd,
                                 const float* inp, const float* weight, const float* bias,
                                 int N, int C) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    float eps = 1e-5f;

    if (idx < N) {
        // seek to the input position inp[idx,:]
        const float* x = inp + idx * C;
        // calculate the mean
        float m = 0.0f;
        for (int i = 0; i < C; i++) {
            m += x[i];
        }
        m = m / C;
        // calculate the variance (without any bias correction)
        float v = 0.0f;
        for (int i = 0; i < C; i++) {
            float xshift = x[i] - m;
            v += xshift * xshift;
        }
        v = v / C;
        // calculate the rstd
        float s = 1.0f / sqrtf(v + eps);
        // seek to the output position in out[idx,:]
        float* out_idx = out + idx * C;
        for (int i = 0; i < C; i++) {
            float n = (s * (x[i] - m)); // normalized output
            float o = n * weight[i] + bias[i]; // scale and shift it
            out_idx[i] = o; // write
        }
        // cache the mean and rstd for the backward pass later
        mean[idx] = m;
        rstd[idx] = s;
    }
}

// kernelport: llm.c's layernorm_forward_cpu (dev/cuda/layernorm_forward.cu), B*T folded into N.
void layernorm_ref(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                   const float* bias, int N, int C) {
    float eps = 1e-5f;
    for (int r = 0; r < N; r++) {
        const float* x = inp + r * C;
        float m = 0.0f;
        for (int i = 0; i < C; i++) m += x[i];
        m = m / C;
        float v = 0.0f;
        for (int i = 0; i < C; i++) { float xs = x[i] - m; v += xs * xs; }
        v = v / C;
        float s = 1.0f / sqrtf(v + eps);
        for (int i = 0; i < C; i++) out[r * C + i] = (s * (x[i] - m)) * weight[i] + bias[i];
        mean[r] = m;
        rstd[r] = s;
    }
}
