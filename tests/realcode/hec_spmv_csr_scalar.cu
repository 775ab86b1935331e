// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2020 - 2021 HPCAS Lab (https://passlab.github.io) from University of North
// Carolina at Charlotte. All rights reserved. (Redistribution and use in source and binary forms,
// with or without modification, are permitted provided that this copyright notice, the
// conditions and the disclaimer of the BSD 3-Clause License are retained.)
// SOURCE: github.com/zjin-lcf/HeCBench @ f27000a5188f8ac79bd43fc95a1b3f890c18823d, src/simpleSpmv-cuda/kernels.cu (mv_csr) and mv.h
//         (REAL is float): scalar CSR SpMV, one thread per row, size_t row pointers.
// Edits: annotations and the scalar reference mv_csr_ref added; REAL written as the #define.
#define REAL float
// @kp kernel mv_csr
// @kp grid   ceil_div(num_rows, 64)
// @kp block  64
// @kp why    one thread per row
// @kp arg    row_indices in  size_t[num_rows + 1] monotone(0, 9)
// @kp arg    col_indices in  size_t[num_rows * 8] integers(0, 200)
// @kp arg    values      in  float[num_rows * 8] uniform(-1, 1)
// @kp arg    x           in  float[200] uniform(-1, 1)
// @kp arg    y           out float[num_rows]
// @kp scalar num_rows = 200
// @kp reference mv_csr_ref(num_rows, row_indices, col_indices, values, x, y)
__global__ void mv_csr(const size_t num_rows,
                       const size_t *row_indices,
                       const size_t *col_indices,
                       const REAL *values,
                       const REAL *x,
                             REAL *y)
{
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < num_rows) {
    size_t row_start = row_indices[i];
    size_t row_end = row_indices[i+1];

    REAL temp = 0;
    for(size_t n = row_start; n < row_end; n++){
      temp += values[n] * x[col_indices[n]];
    }
    y[i] = temp;
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
