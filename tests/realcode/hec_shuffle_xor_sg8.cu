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
// SOURCE: github.com/zjin-lcf/HeCBench @ f27000a5188f8ac79bd43fc95a1b3f890c18823d, src/shuffle-cuda/main.cu (bcast_shfl_xor_sg8):
//         an xor butterfly over sub-groups of 8 lanes (masks 1, 2, 4): every lane gets 0+1+...+7.
// Edits: annotations and the scalar reference sg8_ref added; the file's macro
//        #define __shfl_xor(v, d) __shfl_xor_sync(0xffffffff, v, d) expanded at its one use
//        (marked: the macro redefines HIP's own __shfl_xor).
// @kp kernel bcast_shfl_xor_sg8
// @kp grid   4
// @kp block  256
// @kp why    the benchmark's BUF_SIZE 256 threads per block
// @kp arg    out out int[4 * 256]
// @kp tolerance exact
// @kp reference sg8_ref(out)
__global__ void bcast_shfl_xor_sg8(int *out) {
  int value = (threadIdx.x & 0x7);
  for (int mask = 1; mask < 0x7; mask *= 2)
    value += __shfl_xor_sync(0xffffffff, value, mask);  // kernelport edit: the macro expanded
  size_t oi = blockDim.x * blockIdx.x + threadIdx.x;
  out[oi] = value;
}

// kernelport: what verifyBroadcast checks: 0 + 1 + ... + 7 in every element.
void sg8_ref(int *out) {
  for (int i = 0; i < 4 * 256; i++) out[i] = 28;
}
