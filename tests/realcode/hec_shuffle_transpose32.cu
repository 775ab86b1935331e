// SPDX-License-Identifier: MIT
// Copyright (c) 2015-2016 Advanced Micro Devices, Inc. All rights reserved.  (MIT: permission is
// hereby granted, free of charge, to deal in the Software without restriction, provided this
// notice is included in all copies or substantial portions of the Software.)
// SOURCE: github.com/zjin-lcf/HeCBench @ f27000a5188f8ac79bd43fc95a1b3f890c18823d,
//         src/shuffle-cuda/main.cu (transpose_shfl; matrixTransposeCPUReference from the same file):
//         AMD's HIP shuffle sample in CUDA: each 32-thread block (one NVIDIA warp, half a CDNA
//         wave) reverses its elements by __shfl_sync from lane blockDim.x - threadIdx.x - 1.
// Edits: annotations added; the reference is matrixTransposeCPUReference for subgroup size 32 with
//        the kernel's arguments; the file's macro #define __shfl(v, d) __shfl_sync(0xffffffff, v, d)
//        expanded at its one use (marked: the macro redefines HIP's own __shfl).

// @kp kernel transpose_shfl
// @kp grid   total / 32
// @kp block  32
// @kp why    the benchmark's subgroup size 32: one block is one NVIDIA warp, half a CDNA wave
// @kp arg    out out float[total]
// @kp arg    in  in  float[total] arange(0, 10)
// @kp scalar total = 4096
// @kp reference transpose_ref(out, in, total)
__global__ void transpose_shfl(float* out, const float* in) {
  unsigned b_start = blockDim.x * blockIdx.x;
  unsigned b_offs = b_start + threadIdx.x;
  unsigned s_offs = blockDim.x - threadIdx.x - 1;
  float val = in[b_offs];
  out[b_offs] = __shfl_sync(0xffffffff, val, s_offs);  // kernelport edit: the macro expanded
}

// kernelport: matrixTransposeCPUReference(output, input, total / 32, 32) of the source.
void transpose_ref(float* output, float* input, int total) {
  unsigned numGroups = total / 32, subGroupSize = 32;
  for (unsigned i = 0; i < numGroups; ++i) {
    for (unsigned j = 0; j < subGroupSize; j++) {
      output[i * subGroupSize + j] = input[i * subGroupSize + subGroupSize - j - 1];
    }
  }
}
