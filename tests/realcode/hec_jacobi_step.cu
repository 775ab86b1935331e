// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2021, NVIDIA CORPORATION.
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.
// SOURCE: github.com/zjin-lcf/HeCBench @ 6b2da6e1d3785cffe365e5dc99521af8d76d9494 (the parent of 56c0ae3843; the CUDA program
//         beside the HIP one that commit fixed), src/jacobi-cuda/main.cu (jacobi_step): a 16x16 block
//         whose 16-lane rows reduce the squared update with __shfl_down_sync, then the first row.
// Verify found: the second reduction runs in row 0 alone (16 lanes) with the full mask
//         0xffffffff, which names the inactive lanes 16-31 (undefined in CUDA).
// Edits (marked): that mask is __activemask(); N 2048 -> 64 (a smaller grid for the emulator); annotations and the reference
//         jacobi_ref added.
#include <math.h>

// A multiple of thread block size
#define N 64  // kernelport edit: 2048 in the source

#define IDX(i, j) ((i) + (j) * N)

// @kp kernel jacobi_step
// @kp grid   4, 4
// @kp block  16, 16
// @kp why    the source's 16x16 tile (64 / 16 = 4 tiles a side): each 16-lane row reduces alone
// @kp arg    f     inout float[64 * 64] uniform(-1, 1)
// @kp arg    f_old in    float[64 * 64] uniform(-1, 1)
// @kp arg    error out   float[1]
// @kp reference jacobi_ref(f, f_old, error)
__global__ void jacobi_step (float*__restrict__ f, 
                             const float*__restrict__ f_old, 
                             float*__restrict__ error) {
  __shared__ float f_old_tile[18][18];

  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;

  // First read in the "interior" data, one value per thread
  // Note the offset by 1, to reserve space for the "left"/"bottom" halo

  f_old_tile[threadIdx.y+1][threadIdx.x+1] = f_old[IDX(i,j)];

  // Now read in the halo data; we'll pick the "closest" thread
  // to each element. When we do this, make sure we don't fall
  // off the end of the global memory array. Note that this
  // code does not fill the corners, as they are not used in
  // this stencil.

  if (threadIdx.x == 0 && i >= 1) {
    f_old_tile[threadIdx.y+1][threadIdx.x+0] = f_old[IDX(i-1,j)];
  }
  if (threadIdx.x == 15 && i <= N-2) {
    f_old_tile[threadIdx.y+1][threadIdx.x+2] = f_old[IDX(i+1,j)];
  }
  if (threadIdx.y == 0 && j >= 1) {
    f_old_tile[threadIdx.y+0][threadIdx.x+1] = f_old[IDX(i,j-1)];
  }
  if (threadIdx.y == 15 && j <= N-2) {
    f_old_tile[threadIdx.y+2][threadIdx.x+1] = f_old[IDX(i,j+1)];
  }

  // Synchronize all threads
  __syncthreads();

  float err = 0.0f;

  if (j >= 1 && j <= N-2) {
    if (i >= 1 && i <= N-2) {
      // Perform the read from shared memory
      f[IDX(i,j)] = 0.25f * (f_old_tile[threadIdx.y+1][threadIdx.x+2] + 
                             f_old_tile[threadIdx.y+1][threadIdx.x+0] + 
                             f_old_tile[threadIdx.y+2][threadIdx.x+1] + 
                             f_old_tile[threadIdx.y+0][threadIdx.x+1]);
      float df = f[IDX(i,j)] - f_old_tile[threadIdx.y+1][threadIdx.x+1];
      err = df * df;
    }
  }

  // Sum over threads in the warp
  // For simplicity, we do this outside the above conditional
  // so that all threads participate
  for (int offset = 8; offset > 0; offset /= 2) {
    err += __shfl_down_sync(0xffffffff, err, offset);
  }

  // If we're thread 0 in the warp, update our value to shared memory
  // Note that we're assuming exactly a 16x16 block and that the warp ID
  // is equivalent to threadIdx.y. For the general case, we would have to
  // write more careful code.
  __shared__ float reduction_array[16];
  if (threadIdx.x == 0) {
    reduction_array[threadIdx.y] = err;
  }

  // Synchronize the block before reading any values from smem
  __syncthreads();

  // Using the first warp in the block, reduce over the partial sums
  // in the shared memory array.
  if (threadIdx.y == 0) {
    err = reduction_array[threadIdx.x];
    for (int offset = 8; offset > 0; offset /= 2) {
      // kernelport edit: __activemask(), was 0xffffffff (lanes 16-31, row 1, are inactive: undefined)
      err += __shfl_down_sync(__activemask(), err, offset);
    }
    if (threadIdx.x == 0) {
      atomicAdd(error, err);
    }
  }
}

// kernelport: the stencil on the interior and the sum of squared updates.
void jacobi_ref(float* f, const float* f_old, float* error) {
  float err = 0.0f;
  for (int j = 1; j <= N - 2; ++j)
    for (int i = 1; i <= N - 2; ++i) {
      f[IDX(i, j)] = 0.25f * (f_old[IDX(i + 1, j)] + f_old[IDX(i - 1, j)] + f_old[IDX(i, j + 1)] + f_old[IDX(i, j - 1)]);
      float df = f[IDX(i, j)] - f_old[IDX(i, j)];
      err += df * df;
    }
  error[0] = err;
}
