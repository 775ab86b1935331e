// Copyright (c) 2022, NVIDIA CORPORATION. All rights reserved.
//
// Redistribution and use in source and binary forms, with or without
// modification, are permitted provided that the following conditions
// are met:
//  * Redistributions of source code must retain the above copyright
//    notice, this list of conditions and the following disclaimer.
//  * Redistributions in binary form must reproduce the above copyright
//    notice, this list of conditions and the following disclaimer in the
//    documentation and/or other materials provided with the distribution.
//  * Neither the name of NVIDIA CORPORATION nor the names of its
//    contributors may be used to endorse or promote products derived
//    from this software without specific prior written permission.
//
// THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS ``AS IS'' AND ANY
// EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
// IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR
// PURPOSE ARE DISCLAIMED.  IN NO EVENT SHALL THE COPYRIGHT OWNER OR
// CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL,
// EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO,
// PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR
// PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY
// OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
// (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
// OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
//
// SOURCE: github.com/NVIDIA/cuda-samples @ c94ff366aed18c797b8a85dfaac7817b0228b420,
//         Samples/2_Concepts_and_Techniques/shfl_scan/shfl_scan.cu (uniform_add): the last pass of
//         the multi-block scan, each block adds its partial sum, broadcast through __shared__.
// Edits: annotations and the scalar reference uniform_add_ref added; the thread-dependent early
//        return moved below the barrier (marked; lint SY001 on the original).
// @kp kernel uniform_add
// @kp grid   ceil_div(len, 256)
// @kp block  256
// @kp why    the sample's blockSize: one thread per element, one partial sum per block
// @kp arg    data         inout int[len] integers(-1000, 1000)
// @kp arg    partial_sums in    int[ceil_div(len, 256)] integers(-100000, 100000)
// @kp scalar len = 4096
// @kp tolerance exact
// @kp reference uniform_add_ref(data, partial_sums, len)
__global__ void uniform_add(int *data, int *partial_sums, int len)
{
    __shared__ int buf;
    int            id = ((blockIdx.x * blockDim.x) + threadIdx.x);

    if (threadIdx.x == 0) {
        buf = partial_sums[blockIdx.x];
    }

    __syncthreads();
    // kernelport edit: the early return moved below the barrier (SY001: threads that returned
    // never reach __syncthreads; the sample never launches a block that has such threads)
    if (id > len)
        return;
    data[id] += buf;
}

// kernelport: each element plus its block's partial sum.
void uniform_add_ref(int *data, int *partial_sums, int len) {
    for (int i = 0; i < len; i++) data[i] += partial_sums[i / 256];
}
