// Source: NVIDIA/cuda-samples/Samples/0_Introduction/vectorAdd/vectorAdd.cu (BSD-3-Clause) — trimmed for the kernelport test corpus
/* Copyright (c) 2022, NVIDIA CORPORATION. All rights reserved.
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted under the BSD-3-Clause terms of the original file.
 */
// Trimmed: main() reduced to the allocation, launch and copy-back.
#include <stdio.h>

// For the CUDA runtime routines (prefixed with "cuda_")
#include <cuda_runtime.h>

/**
 * CUDA Kernel Device code
 *
 * Computes the vector addition of A and B into C. The 3 vectors have the same
 * number of elements numElements.
 */
__global__ void vectorAdd(const float *A, const float *B, float *C,
                          int numElements) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;

  if (i < numElements) {
    C[i] = A[i] + B[i] + 0.0f;
  }
}

int run_vector_add(const float *h_A, const float *h_B, float *h_C, int numElements) {
  cudaError_t err = cudaSuccess;
  size_t size = numElements * sizeof(float);
  float *d_A = NULL, *d_B = NULL, *d_C = NULL;
  err = cudaMalloc((void **)&d_A, size);
  if (err != cudaSuccess) return 1;
  cudaMalloc((void **)&d_B, size);
  cudaMalloc((void **)&d_C, size);
  cudaMemcpy(d_A, h_A, size, cudaMemcpyHostToDevice);
  cudaMemcpy(d_B, h_B, size, cudaMemcpyHostToDevice);

  // Launch the Vector Add CUDA Kernel
  int threadsPerBlock = 256;
  int blocksPerGrid = (numElements + threadsPerBlock - 1) / threadsPerBlock;
  printf("CUDA kernel launch with %d blocks of %d threads\n", blocksPerGrid,
         threadsPerBlock);
  vectorAdd<<<blocksPerGrid, threadsPerBlock>>>(d_A, d_B, d_C, numElements);
  err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "Failed to launch vectorAdd kernel (error code %s)!\n",
            cudaGetErrorString(err));
    return 1;
  }
  cudaMemcpy(h_C, d_C, size, cudaMemcpyDeviceToHost);
  cudaFree(d_A);
  cudaFree(d_B);
  cudaFree(d_C);
  return 0;
}
