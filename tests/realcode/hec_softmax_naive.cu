// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2020, Argonne National Laboratory (Zheming Jin); Copyright (c) 2020-, Oak Ridge
// National Laboratory (Zheming Jin). All rights reserved. (HeCBench, BSD 3-Clause License:
// redistribution with or without modification is permitted provided this notice is retained.)
// SOURCE: github.com/zjin-lcf/HeCBench @ f27000a5188f8ac79bd43fc95a1b3f890c18823d, src/softmax-cuda/main.cu (softMax, the naive
//         kernel "derived from the OpenCL kernel"; reference softMax_cpu from the same file):
//         one thread per slice.
// Edits: annotations added; the reference renamed softMax_ref with the kernel's argument order.
// @kp kernel softMax
// @kp grid   ceil_div(numSlice, 64)
// @kp block  64
// @kp why    one thread per slice (the benchmark's BLOCK_SIZE 256 shrunk to the small annotated size)
// @kp arg    src  in  float[numSlice * sliceSize] integers(0, 13)
// @kp arg    dest out float[numSlice * sliceSize]
// @kp scalar numSlice = 100
// @kp scalar sliceSize = 40
// @kp reference softMax_ref(numSlice, sliceSize, src, dest)
__global__
void softMax (const int numSlice, const int sliceSize,
              const float* src, float* dest)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= numSlice) return;
  float max_ = src[i * sliceSize];
  for (int j = 0; j < sliceSize; j++) {
    max_ = max(max_, src[i * sliceSize + j]);
  }
  float sum = 0;
  for (int j = 0; j < sliceSize; j++) {
    sum += expf(src[i * sliceSize + j] - max_);
  }
  for (int j = 0; j < sliceSize; j++) {
    dest[i * sliceSize + j] = expf(src[i * sliceSize + j] - max_) / sum;
  }
}

// A C model derived from the OpenCL kernel
void softMax_ref(const int numSlice, const int sliceSize, const float* src, float* dest) {
  for (int i = 0; i < numSlice; i++) {
    float max_ = src[i * sliceSize];
    for (int j = 0; j < sliceSize; j++) {
      max_ = (max_ < src[i * sliceSize + j]) ? src[i * sliceSize + j] : max_;
    }
    float sum = 0;
    for (int j = 0; j < sliceSize; j++) {
      float e = expf(src[i * sliceSize + j] - max_);
      sum += e;
      dest[i * sliceSize + j] = e;
    }
    for (int j = 0; j < sliceSize; j++) {
      dest[i * sliceSize + j] /= sum;
    }
  }
}
