// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2020, Argonne National Laboratory (Zheming Jin); Copyright (c) 2020-, Oak Ridge
// National Laboratory (Zheming Jin). All rights reserved. (HeCBench, BSD 3-Clause License:
// redistribution with or without modification is permitted provided this notice is retained.)
// SOURCE: github.com/zjin-lcf/HeCBench @ f27000a5188f8ac79bd43fc95a1b3f890c18823d,
//         src/softmax-online-cuda/main.cu (softmax_forward_online_kernel3) and reference.h
//         (softmax_forward_cpu): online softmax, one block per row, the per-thread (max, sum)
//         pairs from -INFINITY combined by two shared-memory trees (no warp operation).
// Edits: annotations added; nothing else changed.
#include <math.h>

// @kp kernel softmax_forward_online_kernel3
// @kp grid   N
// @kp block  256
// @kp why    the benchmark's block size; the trees halve it, any power of two up to 1024 works
// @kp arg    out out float[N * C]
// @kp arg    inp in  float[N * C] uniform(-4, 4)
// @kp scalar N = 12
// @kp scalar C = 700
// @kp reference softmax_forward_cpu(out, inp, N, C)
__global__ void softmax_forward_online_kernel3(float* __restrict__ out, const float* __restrict__ inp, int N, int C) {
  __shared__ float smem[1024];

  int row = blockIdx.x;
  if (row >= N) return;

  const float* x = inp + row * C;
  float* y = out + row * C;
  float maxval = -INFINITY;
  float sumval = 0.0f;

  int tid = threadIdx.x;
  for (int i = tid; i < C; i += blockDim.x) {
      float v = x[i];
      if (v > maxval) {
          sumval *= expf(maxval - v);
          maxval = v;
      }
      sumval += expf(v - maxval);
  }

  smem[tid] = maxval;
  __syncthreads();

  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
      if (tid < stride) {
          smem[tid] = fmaxf(smem[tid], smem[tid + stride]);
      }
      __syncthreads();
  }

  float row_max = smem[0];
  __syncthreads();

  smem[tid] = sumval * expf(maxval - row_max);
  __syncthreads();

  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
      if (tid < stride) {
          smem[tid] += smem[tid + stride];
      }
      __syncthreads();
  }
  float row_sum = smem[0];
  __syncthreads();

  for (int i = tid; i < C; i += blockDim.x) {
      y[i] = expf(x[i] - row_max) / row_sum;
  }
}

void softmax_forward_cpu(float* out, const float* inp, int N, int C) {
    // inp is (N, C)
    // out is (N, C), each row of inp will get softmaxed
    for (int i = 0; i < N; i++) {
        const float* inp_row = inp + i * C;
        float* out_row = out + i * C;

        float maxval = -INFINITY;
        for (int j = 0; j < C; j++) {
            if (inp_row[j] > maxval) {
                maxval = inp_row[j];
            }
        }
        // Note: since we want to ensure that the CUDA-kernels are accurate,
        // we do this accumulation in higher precision, so we can be assured
        // that our ground-truth is of high quality.
        double sum = 0.0;
        for (int j = 0; j < C; j++) {
            out_row[j] = expf(inp_row[j] - maxval);
            sum += out_row[j];
        }
        float norm = 1.f / (float)sum;
        for (int j = 0; j < C; j++) {
            out_row[j] *= norm;
        }
    }
}
