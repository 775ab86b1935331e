//==============================================================
// Copyright © 2020 Intel Corporation
//
// SPDX-License-Identifier: MIT
// =============================================================
// SOURCE: github.com/zjin-lcf/HeCBench @ f27000a5188f8ac79bd43fc95a1b3f890c18823d, src/bitonic-sort-cuda/main.cu (bitonic_sort): one
//         compare-and-swap step of the bitonic network (the host loops over the steps).
// Edits: annotations and the scalar reference step_ref (the same step, sequentially) added.
// @kp kernel bitonic_sort
// @kp grid   ceil_div(n, 256)
// @kp block  256
// @kp why    one thread per element (the benchmark's BLOCK_SIZE)
// @kp arg    a inout int[n] integers(-100000, 100000)
// @kp scalar n = 4096
// @kp scalar seq_len = 16
// @kp scalar two_power = 2
// @kp tolerance exact
// @kp reference step_ref(seq_len, two_power, a, n)
__global__
void bitonic_sort (const int seq_len, const int two_power, int *a)
{
  int i = blockDim.x * blockIdx.x + threadIdx.x;

  // Assign the bitonic sequence number.
  int seq_num = i / seq_len;

  // Variable used to identified the swapped element.
  int swapped_ele = -1;

  // Because the elements in the first half in the bitonic
  // sequence may swap with elements in the second half,
  // only the first half of elements in each sequence is
  // required (seq_len/2).
  int h_len = seq_len / 2;

  if (i < (seq_len * seq_num) + h_len) swapped_ele = i + h_len;

  // Check whether increasing or decreasing order.
  int odd = seq_num / two_power;

  // Boolean variable used to determine "increasing" or
  // "decreasing" order.
  bool increasing = ((odd % 2) == 0);

  // Swap the elements in the bitonic sequence if needed
  if (swapped_ele != -1) {
    if (((a[i] > a[swapped_ele]) && increasing) ||
	((a[i] < a[swapped_ele]) && !increasing)) {
      int temp = a[i];
      a[i] = a[swapped_ele];
      a[swapped_ele] = temp;
    }
  }
}

// kernelport: the same step, element by element.
void step_ref(const int seq_len, const int two_power, int *a, int n) {
  for (int i = 0; i < n; i++) {
    int seq_num = i / seq_len, h_len = seq_len / 2;
    if (i >= seq_len * seq_num + h_len) continue;
    int j = i + h_len;
    int increasing = (seq_num / two_power) % 2 == 0;
    if ((a[i] > a[j] && increasing) || (a[i] < a[j] && !increasing)) { int t = a[i]; a[i] = a[j]; a[j] = t; }
  }
}
