// SPDX-License-Identifier: MIT
// Copyright (c) 2024 Andrej Karpathy (llm.c, MIT License: permission is hereby granted, free of
// charge, to any person obtaining a copy of this software, to deal in the Software without
// restriction, subject to the copyright notice and this permission notice being included).
// SOURCE: github.com/karpathy/llm.c @ f1e2ace651495b74ae22d45d1723443fd00ecd3a, dev/cuda/encoder_forward.cu (encoder_forward_kernel2):
//         token + position embedding, one thread per output element, a gather by token id.
// Edits: annotations and the scalar reference encoder_ref added; floatX is float (common.h's
//        typedef without ENABLE_BF16/ENABLE_FP16), written as the typedef.
typedef float floatX;
// @kp kernel encoder_forward_kernel2
// @kp grid   ceil_div(B * T * C, 256)
// @kp block  256
// @kp why    one thread per (b, t, c) output element
// @kp arg    out out float[B * T * C]
// @kp arg    inp in  int[B * T] integers(0, 64)
// @kp arg    wte in  float[64 * C] uniform(-1, 1)
// @kp arg    wpe in  float[T * C] uniform(-1, 1)
// @kp scalar B = 2
// @kp scalar T = 16
// @kp scalar C = 48
// @kp reference encoder_ref(out, inp, wte, wpe, B, T, C)
__global__ void encoder_forward_kernel2(floatX* out,
                               const int* inp, const floatX* wte, const floatX* wpe,
                               int B, int T, int C) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int N = B * T * C;

    if (idx < N) {
        int bt = idx / C;
        int b = bt / T;
        int t = bt % T;
        int c = idx % C;

        int ix = inp[b * T + t];

        floatX* out_btc = out + b * T * C + t * C + c;
        const floatX* wte_ix = wte + ix * C + c;
        const floatX* wpe_tc = wpe + t * C + c;
        *out_btc = (floatX)((float)*wte_ix + (float)*wpe_tc);
    }
}

// kernelport: llm.c's encoder_forward_cpu.
void encoder_ref(float* out, const int* inp, const float* wte, const float* wpe, int B, int T, int C) {
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++)
            for (int i = 0; i < C; i++)
                out[b * T * C + t * C + i] = wte[inp[b * T + t] * C + i] + wpe[t * C + i];
}
