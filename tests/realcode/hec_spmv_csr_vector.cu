// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2020 - 2021 HPCAS Lab (https://passlab.github.io) from University of North
// Carolina at Charlotte. All rights reserved. (Redistribution and use in source and binary forms,
// with or without modification, are permitted provided that this copyright notice, the
// conditions and the disclaimer of the BSD 3-Clause License are retained.)
// SOURCE: github.com/zjin-lcf/HeCBench @ f27000a5188f8ac79bd43fc95a1b3f890c18823d, src/simpleSpmv-cuda/kernels.cu (vector_mv_csr) and
//         mv.h (REAL is float): vector CSR SpMV, a sub-warp of BS lanes (threadIdx.x) per row,
//         rows along threadIdx.y, a shuffle-down ladder with width BS.
// Edits: annotations and the scalar reference mv_csr_ref added; REAL written as the #define;
//        the store of y[m] guarded by threadIdx.x == 0 (marked): in the original every lane of
//        the row stores its own partial sum to y[m], and which store lands is unspecified
//        (kernelport verify: y[0] = 1.2921 for a reference of -1.3504, 150 of 160 rows wrong).
//        num_rows is a multiple of the 16 rows of a block: the full mask of the shuffle then
//        names only lanes that exist.
#define REAL float
// @kp kernel vector_mv_csr
// @kp instantiate <8>
// @kp grid   ceil_div(num_rows, 16)
// @kp block  8, 16
// @kp why    8 lanes per row (the template's BS), 16 rows per block: 128 threads
// @kp arg    row_indices in  size_t[num_rows + 1] monotone(0, 20)
// @kp arg    col_indices in  size_t[num_rows * 19] integers(0, 150)
// @kp arg    values      in  float[num_rows * 19] uniform(-1, 1)
// @kp arg    x           in  float[150] uniform(-1, 1)
// @kp arg    y           out float[num_rows]
// @kp scalar num_rows = 160
// @kp reference mv_csr_ref(num_rows, row_indices, col_indices, values, x, y)
template <int BS>
__global__ void vector_mv_csr(const size_t num_rows,
                              const size_t *row_indices,
                              const size_t *col_indices,
                              const REAL *values,
                              const REAL *x,
                                    REAL *y)
{
  size_t m = blockIdx.x * blockDim.y + threadIdx.y;
  if (m < num_rows) {
    size_t row_start = row_indices[m];
    size_t row_end = row_indices[m+1];

    REAL temp = 0;
    for(size_t n = row_start + threadIdx.x; n < row_end; n += BS){
      temp += values[n] * x[col_indices[n]];
    }
    #pragma unroll
    for (int i = BS >> 1; i > 0; i >>= 1)
      temp += __shfl_down_sync(0xFFFFFFFF, temp, i, BS);

    if (threadIdx.x == 0)  // kernelport edit: only lane 0 of the row holds the whole sum
      y[m] = temp;
  }
}

// kernelport: HeCBench's mv_csr_serial (utils.cpp).
void mv_csr_ref(const size_t num_rows, const size_t *row_indices, const size_t *col_indices,
                const REAL *values, const REAL *x, REAL *y) {
  for (size_t i = 0; i < num_rows; i++) {
    REAL temp = 0;
    for (size_t n = row_indices[i]; n < row_indices[i+1]; n++) temp += values[n] * x[col_indices[n]];
    y[i] = temp;
  }
}
