// Source: cusplibrary/cusplibrary/cusp/system/cuda/detail/multiply/csr_vector_spmv.h (Apache-2.0) — trimmed for the kernelport test corpus
/*
 *  Copyright 2008-2014 NVIDIA Corporation
 *
 *  Licensed under the Apache License, Version 2.0 (the "License");
 *  you may not use this file except in compliance with the License.
 *  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 */
// Trimmed: thrust iterators are replaced by plain pointers, the functors by simple structs,
// and the execution-policy launcher by a plain host function.
#include <cuda_runtime.h>
#include <algorithm>

#define DIVIDE_INTO(x, y) (((x) + (y) - 1) / (y))

struct init_y  { __device__ float operator()(float y) const { return 0.0f * y; } };
struct times_f { __device__ float operator()(float a, float b) const { return a * b; } };
struct plus_f  { __device__ float operator()(float a, float b) const { return a + b; } };

//////////////////////////////////////////////////////////////////////////////
// CSR SpMV kernels based on a vector model (one warp per row)
//////////////////////////////////////////////////////////////////////////////
//
// spmv_csr_vector_device
//   Each row of the CSR matrix is assigned to a warp.  The warp computes
//   y[i] = A[i,:] * x, i.e. the dot product of the i-th row of A with
//   the x vector, in parallel.  This division of work implies that
//   the CSR index and data arrays (Aj and Ax) are accessed in a contiguous
//   manner (but generally not aligned).  On GT200 these accesses are
//   coalesced, unlike kernels based on the one-row-per-thread division of
//   work.  Since an entire 32-thread warp is assigned to each row, many
//   threads will remain idle when their row contains a small number
//   of elements.  This code relies on implicit synchronization among
//   threads in a warp.
//
//  Note: THREADS_PER_VECTOR must be one of [2,4,8,16,32]

template <typename IndexType, typename ValueType,
          typename UnaryFunction, typename BinaryFunction1, typename BinaryFunction2,
          unsigned int VECTORS_PER_BLOCK, unsigned int THREADS_PER_VECTOR>
__global__ void
spmv_csr_vector_kernel(const unsigned int num_rows,
                       const IndexType * Ap,
                       const IndexType * Aj,
                       const ValueType * Ax,
                       const ValueType *  x,
                       ValueType *        y,
                       UnaryFunction initialize,
                       BinaryFunction1 combine,
                       BinaryFunction2 reduce)
{
    __shared__ volatile ValueType sdata[VECTORS_PER_BLOCK * THREADS_PER_VECTOR + THREADS_PER_VECTOR / 2];  // padded to avoid reduction conditionals
    __shared__ volatile IndexType ptrs[VECTORS_PER_BLOCK][2];

    const IndexType THREADS_PER_BLOCK = VECTORS_PER_BLOCK * THREADS_PER_VECTOR;

    const IndexType thread_id   = THREADS_PER_BLOCK * blockIdx.x + threadIdx.x;    // global thread index
    const IndexType thread_lane = threadIdx.x & (THREADS_PER_VECTOR - 1);          // thread index within the vector
    const IndexType vector_id   = thread_id   /  THREADS_PER_VECTOR;               // global vector index
    const IndexType vector_lane = threadIdx.x /  THREADS_PER_VECTOR;               // vector index within the block
    const IndexType num_vectors = VECTORS_PER_BLOCK * gridDim.x;                   // total number of active vectors

    for(IndexType row = vector_id; row < num_rows; row += num_vectors)
    {
        // use two threads to fetch Ap[row] and Ap[row+1]
        // this is considerably faster than the straightforward version
        if(thread_lane < 2)
            ptrs[vector_lane][thread_lane] = Ap[row + thread_lane];

        const IndexType row_start = ptrs[vector_lane][0];                   //same as: row_start = Ap[row];
        const IndexType row_end   = ptrs[vector_lane][1];                   //same as: row_end   = Ap[row+1];

        // initialize local sum
        ValueType sum = (thread_lane == 0) ? initialize(y[row]) : ValueType(0);

        if (THREADS_PER_VECTOR == 32 && row_end - row_start > 32)
        {
            // ensure aligned memory access to Aj and Ax

            IndexType jj = row_start - (row_start & (THREADS_PER_VECTOR - 1)) + thread_lane;

            // accumulate local sums
            if(jj >= row_start && jj < row_end)
                sum = reduce(sum, combine(Ax[jj], x[Aj[jj]]));

            // accumulate local sums
            for(jj += THREADS_PER_VECTOR; jj < row_end; jj += THREADS_PER_VECTOR)
                sum = reduce(sum, combine(Ax[jj], x[Aj[jj]]));
        }
        else
        {
            // accumulate local sums
            for(IndexType jj = row_start + thread_lane; jj < row_end; jj += THREADS_PER_VECTOR)
                sum = reduce(sum, combine(Ax[jj], x[Aj[jj]]));
        }

        // store local sum in shared memory
        sdata[threadIdx.x] = sum;

	// TODO: remove temp var WAR for MSVC
	ValueType temp; 

        // reduce local sums to row sum
        if (THREADS_PER_VECTOR > 16) {temp = sdata[threadIdx.x + 16]; sdata[threadIdx.x] = sum = reduce(sum, temp);}
        if (THREADS_PER_VECTOR >  8) {temp = sdata[threadIdx.x +  8]; sdata[threadIdx.x] = sum = reduce(sum, temp);}
        if (THREADS_PER_VECTOR >  4) {temp = sdata[threadIdx.x +  4]; sdata[threadIdx.x] = sum = reduce(sum, temp);}
        if (THREADS_PER_VECTOR >  2) {temp = sdata[threadIdx.x +  2]; sdata[threadIdx.x] = sum = reduce(sum, temp);}
        if (THREADS_PER_VECTOR >  1) {temp = sdata[threadIdx.x +  1]; sdata[threadIdx.x] = sum = reduce(sum, temp);}

        // first thread writes the result
        if (thread_lane == 0)
            y[row] = ValueType(sdata[threadIdx.x]);
    }
}

template <unsigned int THREADS_PER_VECTOR>
void __spmv_csr_vector(int num_rows, const int* Ap, const int* Aj, const float* Ax,
                       const float* x, float* y, cudaStream_t s)
{
    const size_t THREADS_PER_BLOCK  = 128;
    const size_t VECTORS_PER_BLOCK  = THREADS_PER_BLOCK / THREADS_PER_VECTOR;

    const size_t MAX_BLOCKS = 1024;
    const size_t NUM_BLOCKS = std::min<size_t>(MAX_BLOCKS, DIVIDE_INTO(num_rows, VECTORS_PER_BLOCK));

    spmv_csr_vector_kernel<int, float, init_y, times_f, plus_f,
                           VECTORS_PER_BLOCK, THREADS_PER_VECTOR> <<<NUM_BLOCKS, THREADS_PER_BLOCK, 0, s>>>
                          (num_rows, Ap, Aj, Ax, x, y, init_y(), times_f(), plus_f());
}

void multiply(int num_rows, int num_entries, const int* Ap, const int* Aj, const float* Ax,
              const float* x, float* y, cudaStream_t s)
{
    const int nnz_per_row = num_entries / num_rows;

    if (nnz_per_row <=  2) { __spmv_csr_vector<2>(num_rows, Ap, Aj, Ax, x, y, s); return; }
    if (nnz_per_row <=  4) { __spmv_csr_vector<4>(num_rows, Ap, Aj, Ax, x, y, s); return; }
    if (nnz_per_row <=  8) { __spmv_csr_vector<8>(num_rows, Ap, Aj, Ax, x, y, s); return; }
    if (nnz_per_row <= 16) { __spmv_csr_vector<16>(num_rows, Ap, Aj, Ax, x, y, s); return; }

    __spmv_csr_vector<32>(num_rows, Ap, Aj, Ax, x, y, s);
}
