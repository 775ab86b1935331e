// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2020, Argonne National Laboratory (Zheming Jin); Copyright (c) 2020-, Oak Ridge
// National Laboratory (Zheming Jin). All rights reserved. (HeCBench, BSD 3-Clause License:
// redistribution with or without modification is permitted provided this notice is retained.)
// SOURCE: github.com/zjin-lcf/HeCBench @ f27000a5188f8ac79bd43fc95a1b3f890c18823d,
//         src/softmax-online-cuda/main.cu (softmax_forward_online_kernel2) and reference.h
//         (softmax_forward_cpu): online softmax, one warpSize-lane warp per row, max and sum merged
//         by __shfl_down_sync from -INFINITY, then broadcast from lane 0.
// Edits: annotations added; nothing else changed.
#include <math.h>

// @kp kernel softmax_forward_online_kernel2
// @kp grid   ceil_div(N * warpSize, 256)
// @kp block  256
// @kp why    the benchmark's block size: 256 / warpSize rows per block
// @kp arg    out out float[N * C]
// @kp arg    inp in  float[N * C] uniform(-4, 4)
// @kp scalar N = 40
// @kp scalar C = 300
// @kp reference softmax_forward_cpu(out, inp, N, C)

__global__ void softmax_forward_online_kernel2(float* out, const float* inp, int N, int C) {
  int tid = threadIdx.x;
  if (tid >= C) return;

  int warpId = tid / warpSize;
  const int warpsPerBlock = blockDim.x / warpSize;
  int row = blockIdx.x * warpsPerBlock + warpId;

  if (row >= N) return;

  int laneId = tid % warpSize;
  const float* x = inp + row * C;
  float* const y = out + row * C;

  // merge calculating maxval and sumval in one loop
  // which is an arithmetic improvment from online softmax over normal softmax
  float maxval = -INFINITY, sumval = 0.0f, bigger;
  for (int i = laneId; i < C; i += warpSize) {
    // when updating the maxval, dynamically updates the previous sumval by
    // multiplying e^{previous_maxval - current_maxval}
    bigger = fmaxf(maxval, x[i]);
    sumval = sumval * expf(maxval - bigger) + expf(x[i] - bigger);
    maxval = bigger;
  }

  // use warp functions instead of cooperative groups for better readibility
  // calculate the warp wised maxval and sumval
  float offsetMaxval, offsetSumval;
  for (int offset = warpSize / 2; offset > 0; offset >>= 1) {
    __syncwarp();
    offsetMaxval = __shfl_down_sync(0xFFFFFFFF, maxval, offset);
    offsetSumval = __shfl_down_sync(0xFFFFFFFF, sumval, offset);
    if (offsetMaxval > maxval) {
      sumval *= expf(maxval - offsetMaxval);
      maxval = offsetMaxval;
    } else {
      offsetSumval *= expf(offsetMaxval - maxval);
    }
    sumval += offsetSumval;
  }

  // sync the warp wised maxval and sumval
  // which are also the maxval and sumval of one row in C
  maxval = __shfl_sync(0xFFFFFFFF, maxval, 0);
  sumval = __shfl_sync(0xFFFFFFFF, sumval, 0);

  for (int i = laneId; i < C; i += warpSize) {
    y[i] = expf(x[i] - maxval) / sumval;
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
