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
// SOURCE: github.com/zjin-lcf/HeCBench @ f27000a5188f8ac79bd43fc95a1b3f890c18823d, src/shuffle-cuda/main.cu (bcast_shfl_sg16):
//         lanes 0, 16, 32, ... hold the pattern, the rest 0; every lane takes lane 0's value by a
//         full-wave __shfl_sync (what verifyBroadcast checks: the pattern in every element).  The
//         annotated arg is 0x5EADBEEF: the source passes PATTERN 0xDEADBEEF, which an int cannot hold.
// Edits: annotations and the scalar reference bcast_ref added; the file's macro
//        #define __shfl(v, d) __shfl_sync(0xffffffff, v, d) expanded at its one use
//        (marked: the macro redefines HIP's own __shfl).
// @kp kernel bcast_shfl_sg16
// @kp grid   4
// @kp block  256
// @kp why    the benchmark's BUF_SIZE 256 threads per block
// @kp arg    out out int[4 * 256]
// @kp scalar arg = 0x5EADBEEF
// @kp tolerance exact
// @kp reference bcast_ref(arg, out)
__global__ void bcast_shfl_sg16(const int arg, int *out) {
  int value = ((threadIdx.x & 0xf) == 0) ? arg : 0;
  // Synchronize all threads in warp, and get "value" from lane 0
  int out_v = __shfl_sync(0xffffffff, value, 0);  // kernelport edit: the macro expanded
  size_t oi = blockDim.x * blockIdx.x + threadIdx.x;
  out[oi] = out_v;
}

// kernelport: what verifyBroadcast(out, 16, PATTERN) checks: the pattern in every element.
void bcast_ref(const int arg, int *out) {
  for (int i = 0; i < 4 * 256; i++) out[i] = arg;
}
