// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2020, Argonne National Laboratory (Zheming Jin); Copyright (c) 2020-, Oak Ridge
// National Laboratory (Zheming Jin). All rights reserved. (HeCBench, BSD 3-Clause License:
// redistribution with or without modification is permitted provided this notice is retained.)
// SOURCE: github.com/zjin-lcf/HeCBench @ f27000a5188f8ac79bd43fc95a1b3f890c18823d, src/scan-cuda/main.cu (scan_bcao): Blelloch
//         work-efficient exclusive scan of N elements per block in shared memory, padded against
//         bank conflicts (OFFSET), N/2 threads per block.
// Edits: annotations and the scalar reference scan_ref added; nothing else changed.
#include <stdint.h>
#define LOG_MEM_BANKS 5
#define OFFSET(n) ((n) >> LOG_MEM_BANKS)

// @kp kernel scan_bcao
// @kp instantiate <int, 256>
// @kp grid   nblocks
// @kp block  128
// @kp why    N / 2 threads scan N = 256 elements: each thread owns two
// @kp arg    g_odata out int[nblocks * 256]
// @kp arg    g_idata in  int[nblocks * 256] integers(-100, 100)
// @kp scalar nblocks = 8
// @kp tolerance exact
// @kp reference scan_ref(nblocks, g_odata, g_idata)
// N is the number of elements to scan in a thread block
template<typename T, int N>
__global__ void scan_bcao (
  const int64_t nblocks,
        T *__restrict__ g_odata,
  const T *__restrict__ g_idata)
{
  __shared__ T temp[2*N];

  for (int64_t bid = blockIdx.x; bid < nblocks; bid += gridDim.x)
  {
    auto gi = g_idata + bid * N;
    auto go = g_odata + bid * N;

    int thid = threadIdx.x;
    int a = thid;
    int b = a + (N/2);
    int oa = OFFSET(a);
    int ob = OFFSET(b);

    temp[a + oa] = gi[a];
    temp[b + ob] = gi[b];

    int offset = 1;
    for (int d = N >> 1; d > 0; d >>= 1)
    {
      __syncthreads();
      if (thid < d)
      {
        int ai = offset*(2*thid+1)-1;
        int bi = offset*(2*thid+2)-1;
        ai += OFFSET(ai);
        bi += OFFSET(bi);
        temp[bi] += temp[ai];
      }
      offset *= 2;
    }

    if (thid == 0) temp[N-1+OFFSET(N-1)] = 0; // clear the last elem
    for (int d = 1; d < N; d *= 2) // traverse down
    {
      offset >>= 1;
      __syncthreads();
      if (thid < d)
      {
        int ai = offset*(2*thid+1)-1;
        int bi = offset*(2*thid+2)-1;
        ai += OFFSET(ai);
        bi += OFFSET(bi);
        T t = temp[ai];
        temp[ai] = temp[bi];
        temp[bi] += t;
      }
    }
    __syncthreads(); // required

    go[a] = temp[a + oa];
    go[b] = temp[b + ob];
  }
}

// kernelport: an exclusive scan of each block of 256 (the benchmark's CPU check).
void scan_ref(const int64_t nblocks, int *g_odata, const int *g_idata) {
  for (int64_t b = 0; b < nblocks; b++) {
    int s = 0;
    for (int i = 0; i < 256; i++) { g_odata[b * 256 + i] = s; s += g_idata[b * 256 + i]; }
  }
}
