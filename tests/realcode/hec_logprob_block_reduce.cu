// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2022, NVIDIA CORPORATION.  All rights reserved.
// Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file
// except in compliance with the License.  You may obtain a copy of the License at
// http://www.apache.org/licenses/LICENSE-2.0 (src/logprob-cuda/LICENSE in HeCBench).  Distributed
// on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND.
// SOURCE: github.com/zjin-lcf/HeCBench @ f27000a5188f8ac79bd43fc95a1b3f890c18823d,
//         src/logprob-cuda/reduce.h (warpReduceSum, blockReduceSum, warpReduceMax, blockReduceMax:
//         FasterTransformer's 32-lane xor ladders with width 32, a 32-slot shared buffer, and
//         `threadIdx.x < blockDim.x / 32.f`), main.cu (log_probs_kernel) and reference.h
//         (log_probs_cpu): the log-softmax of one token per (step, batch) block.
// Edits (marked): the kernel's half branch of MAX_T_VAL left out (std::is_same<T, half>: the
//         file runs T = float); the reference is log_probs_cpu for T = float in C (no template, no OpenMP
//         pragmas, no cum_log_probs); annotations added.
#include <float.h>
#include <math.h>

#define FINAL_MASK 0xffffffff

template<typename T>
__inline__ __device__ T warpReduceSum(T val)
{
#pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1)
    val += __shfl_xor_sync(FINAL_MASK, val, mask, 32);
  return val;
}

/* Calculate the sum of all elements in a block */
template<typename T>
__inline__ __device__ T blockReduceSum(T val)
{
  static __shared__ T shared[32];
  int lane = threadIdx.x & 0x1f;
  int wid = threadIdx.x >> 5;

  val = warpReduceSum<T>(val);

  if (lane == 0)
    shared[wid] = val;

  __syncthreads();

  // Modify from blockDim.x << 5 to blockDim.x / 32. to prevent
  // blockDim.x is not divided by 32
  val = (threadIdx.x < (blockDim.x / 32.f)) ? shared[lane] : (T)(0.0f);
  val = warpReduceSum<T>(val);

  return val;
}

template<typename T>
__inline__ __device__ T warpReduceMax(T val)
{
  #pragma unroll
  for (int mask = 16; mask > 0; mask >>= 1)
    val = max(val, __shfl_xor_sync(FINAL_MASK, val, mask, 32));
  return val;
}

/* Calculate the maximum of all elements in a block */
template<typename T>
__inline__ __device__ T blockReduceMax(T val)
{
  static __shared__ T shared[32];
  int lane = threadIdx.x & 0x1f;  // in-warp idx
  int wid = threadIdx.x >> 5;     // warp idx

  val = warpReduceMax(val);  // get maxx in each warp

  if (lane == 0)  // record in-warp maxx by warp Idx
    shared[wid] = val;

  __syncthreads();

  // Modify from blockDim.x << 5 to blockDim.x / 32. to prevent
  // blockDim.x is not divided by 32
  val = (threadIdx.x < (blockDim.x / 32.f)) ? shared[lane] : -1e20f;
  val = warpReduceMax(val);

  return val;
}

static const float HALF_FLT_MAX = 65504.F;

// @kp kernel log_probs_kernel
// @kp instantiate <float>
// @kp grid   max_input_length - 1, batch_size
// @kp block  256
// @kp why    the benchmark's block: 256 threads stride over the vocabulary of one token
// @kp arg    log_probs out float[batch_size * (max_input_length - 1)]
// @kp arg    logits    in  float[batch_size * max_input_length * vocab_size_padded] normal(0, 3)
// @kp arg    ids       in  int[batch_size * max_input_length] integers(0, 1000)
// @kp arg    lengths   in  int[batch_size] integers(2, 9)
// @kp scalar max_input_length = 8
// @kp scalar batch_size = 3
// @kp scalar vocab_size = 1000
// @kp scalar vocab_size_padded = 1024
// @kp reference log_probs_ref(log_probs, logits, ids, lengths, max_input_length, batch_size, vocab_size, vocab_size_padded)
template<typename T>
__global__ void log_probs_kernel(
    float*       log_probs,
    const T*     logits,
    const int*   ids,
    const int*   lengths,
    const int    max_input_length,
    const int    batch_size,
    const int    vocab_size,
    const int    vocab_size_padded)
{
  // Calculate the log probability from logits.
  //   log_probs[t, :] = log(softmax(logits))[ids[t + 1, :]]
  //
  // log_probs: [batch_size, max_length -1],
  //     log probabilities of each token.
  // logits: [batch_size, max_length, vocab_size_padded]
  // lengths: [batch_size], sequence lengths
  // ids: [max_length, batch_size], token ids.
  // batch_size: [1], batch_size. in case of beam > 1, batch x beam.
  // vocab_size: [1], vocab_size,
  // vocab_size: [1], vocab_size_padded, padded vocab size.

  const T    MAX_T_VAL = FLT_MAX;  // kernelport edit: was (std::is_same<T, half>::value) ? HALF_FLT_MAX : FLT_MAX

  int tidx = threadIdx.x; // vocab dim
  int step = blockIdx.x;  // step dim
  int bidx = blockIdx.y;  // batch dim

  __shared__ float s_max_logit;

  if (bidx < batch_size && step < lengths[bidx] - 1) {
    // Compute the address of logits to data for the current batch
    int step_offset  = step * vocab_size_padded;
    int batch_offset = bidx * max_input_length * vocab_size_padded;
    logits += step_offset + batch_offset;

    // Find max(logits)
    float local_max = -MAX_T_VAL;
    float val       = -MAX_T_VAL;
    for (int i = tidx; i < vocab_size; i += blockDim.x) {
      val       = static_cast<float>(logits[i]);
      local_max = fmaxf(local_max, val);
    }

    float max_val = blockReduceMax<float>(local_max);
    if (tidx == 0) {
      s_max_logit = max_val;
    }
    __syncthreads();

    // Calculate the denominator: sum_i exp(logits[i])
    float local_sum_exp = 0.0f;
    for (int i = tidx; i < vocab_size; i += blockDim.x) {
      val = expf(static_cast<float>(logits[i]) - s_max_logit);
      local_sum_exp += val;
    }

    float sum_exp = blockReduceSum<float>(local_sum_exp);
    if (tidx == 0) {
      int idx = step + bidx * (max_input_length - 1);
      // log_probs[step, ...] is the log probability of a token at step t + 1.
      int token_idx = step + 1 + bidx * max_input_length;
      log_probs[idx] = static_cast<float>(logits[ids[token_idx]]) - s_max_logit - logf(sum_exp + 1e-9f);
    }
  }
}

// kernelport edit: log_probs_cpu (reference.h) for T = float, in C.
void log_probs_ref(float* log_probs, const float* logits, const int* ids, const int* lengths,
                   const int max_input_length, const int batch_size, const int vocab_size,
                   const int vocab_size_padded)
{
  const float MAX_T_VAL = FLT_MAX;
  for (int bidx = 0; bidx < batch_size; bidx++) {
    for (int step = 0; step < lengths[bidx] - 1; step++) {
      int step_offset  = step * vocab_size_padded;
      int batch_offset = bidx * max_input_length * vocab_size_padded;
      const float* logits_ptr = logits + step_offset + batch_offset;
      float max_val = -MAX_T_VAL;
      float val;
      for (int i = 0; i < vocab_size; i++) {
        val = logits_ptr[i];
        max_val = fmaxf(max_val, val);
      }
      float sum_exp = 0.0f;
      for (int i = 0; i < vocab_size; i++) {
        val = expf(logits_ptr[i] - max_val);
        sum_exp += val;
      }
      int idx = step + bidx * (max_input_length - 1);
      // log_probs[step, ...] is the log probability of a token at step t + 1.
      int token_idx = step + 1 + bidx * max_input_length;
      log_probs[idx] = logits_ptr[ids[token_idx]] - max_val - logf(sum_exp + 1e-9f);
    }
  }
}
