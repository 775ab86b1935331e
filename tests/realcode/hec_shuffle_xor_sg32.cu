//
// Copyright (c) 2015-2016 Advanced Micro Devices, Inc. All rights reserved.
// Permission is hereby granted, free of charge, to any person obtaining a copy
// of this software and associated documentation files (the "Software"), to deal
// in the Software without restriction, including without limitation the rights
// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
// copies of the Software, and to permit persons to whom the Software is
// furnished to do so, subject to the following conditions:
// The above copyright notice and this permission notice shall be included in
// all copies or substantial portions of the Software.
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.  IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
// THE SOFTWARE.
//
// SOURCE: github.com/zjin-lcf/HeCBench @ f27000a5188f8ac79bd43fc95a1b3f890c18823d, src/shuffle-cuda/main.cu (bcast_shfl_xor_sg32):
//         an xor butterfly over 32-lane groups (masks 1, 2, 4, 8, 16): every lane gets
//         0 + 1 + ... + 31; on a 64-lane wave the masks stay inside each 32-lane half.
// Edits: annotations and the scalar reference sg32_ref added; the file's macro
//        #define __shfl_xor(v, d) __shfl_xor_sync(0xffffffff, v, d) expanded at its one use
//        (marked: the macro redefines HIP's own __shfl_xor).
// @kp kernel bcast_shfl_xor_sg32
// @kp grid   4
// @kp block  256
// @kp why    the benchmark's BUF_SIZE 256 threads per block
// @kp arg    out out int[4 * 256]
// @kp tolerance exact
// @kp reference sg32_ref(out)
__global__ void bcast_shfl_xor_sg32(int *out) {
  int value = (threadIdx.x & 0x1f);
  for (int mask = 1; mask < 0x1f; mask *= 2)
    value += __shfl_xor_sync(0xffffffff, value, mask);  // kernelport edit: the macro expanded
  size_t oi = blockDim.x * blockIdx.x + threadIdx.x;
  out[oi] = value;
}

// kernelport: what verifyBroadcast(out, 32) checks: 0 + 1 + ... + 31 in every element.
void sg32_ref(int *out) {
  int expected = 0;
  for (int i = 0; i < 32; i++) expected += i;
  for (int i = 0; i < 4 * 256; i++) out[i] = expected;
}
