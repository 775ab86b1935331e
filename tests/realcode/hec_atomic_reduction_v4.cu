// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2020, Argonne National Laboratory (Zheming Jin); Copyright (c) 2020-, Oak Ridge
// National Laboratory (Zheming Jin). All rights reserved. (HeCBench, BSD 3-Clause License:
// redistribution with or without modification is permitted provided this notice is retained.)
// SOURCE: github.com/zjin-lcf/HeCBench @ f27000a5188f8ac79bd43fc95a1b3f890c18823d, src/atomicReduction-cuda/kernels.h
//         (atomic_reduction_v4): four elements per step of a grid-stride loop, then one
//         atomicAdd per thread (arrayLength a multiple of 4, as the benchmark's).
// Edits: annotations and the scalar reference sum_ref added; nothing else changed.
// @kp kernel atomic_reduction_v4
// @kp grid   4
// @kp block  128
// @kp why    a fixed grid that strides over the array, four elements a step
// @kp arg    in  in  int[arrayLength] integers(-1000, 1000)
// @kp arg    out out int[1]
// @kp scalar arrayLength = 4096
// @kp tolerance exact
// @kp reference sum_ref(in, out, arrayLength)
__global__ void atomic_reduction_v4(int *in, int* out, int arrayLength) {
  int sum=0;
  int idx = blockIdx.x*blockDim.x+threadIdx.x;
  for(int i= idx*4;i<arrayLength;i+=blockDim.x*gridDim.x*4) {
    sum+=in[i] + in[i+1] + in[i+2] + in[i+3];
  }
  atomicAdd(out,sum);
}

// kernelport: the sum the benchmark checks.
void sum_ref(int *in, int* out, int arrayLength) {
  int s = 0;
  for (int i = 0; i < arrayLength; i++) s += in[i];
  out[0] = s;
}
