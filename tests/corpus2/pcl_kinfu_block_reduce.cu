// Source: PointCloudLibrary/pcl/gpu/kinfu/src/cuda/utils.hpp + estimate_combined.cu (BSD-3-Clause) — trimmed for the kernelport test corpus
/*
 * Software License Agreement (BSD License)
 *
 *  Point Cloud Library (PCL) - www.pointclouds.org
 *  Copyright (c) 2011, Willow Garage, Inc.
 *  All rights reserved.  Redistribution and use permitted under the BSD-3-Clause terms.
 */
// Trimmed: the math helpers and Eigen33 of utils.hpp and the Combined (ICP) functor of
// estimate_combined.cu were dropped; PtrStep and the launcher use plain pointers.
#include <cuda_runtime.h>

namespace pcl
{
  namespace device
  {
    template<typename T> struct PtrStep { T* data; size_t step;
      __device__ __forceinline__ const T* ptr(int y = 0) const { return (const T*)((const char*)data + y * step); } };

    struct Block
	{   
      static __device__ __forceinline__ unsigned int stride()
	  {
	    return blockDim.x * blockDim.y * blockDim.z;
      }

	  static __device__ __forceinline__ int 
      flattenedThreadId()
	  {
	    return threadIdx.z * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
      }

      template<int CTA_SIZE, typename T, class BinOp>
	  static __device__ __forceinline__ void reduce(volatile T* buffer, BinOp op)
	  {
	    int tid = flattenedThreadId();
		T val =  buffer[tid];

		if (CTA_SIZE >= 1024) { if (tid < 512) buffer[tid] = val = op(val, buffer[tid + 512]); __syncthreads(); }
		if (CTA_SIZE >=  512) { if (tid < 256) buffer[tid] = val = op(val, buffer[tid + 256]); __syncthreads(); }
		if (CTA_SIZE >=  256) { if (tid < 128) buffer[tid] = val = op(val, buffer[tid + 128]); __syncthreads(); }
		if (CTA_SIZE >=  128) { if (tid <  64) buffer[tid] = val = op(val, buffer[tid +  64]); __syncthreads(); }

		if (tid < 32)
		{
		  if (CTA_SIZE >=   64) { buffer[tid] = val = op(val, buffer[tid +  32]); }
		  if (CTA_SIZE >=   32) { buffer[tid] = val = op(val, buffer[tid +  16]); }
		  if (CTA_SIZE >=   16) { buffer[tid] = val = op(val, buffer[tid +   8]); }
		  if (CTA_SIZE >=    8) { buffer[tid] = val = op(val, buffer[tid +   4]); }
		  if (CTA_SIZE >=    4) { buffer[tid] = val = op(val, buffer[tid +   2]); }
		  if (CTA_SIZE >=    2) { buffer[tid] = val = op(val, buffer[tid +   1]); }
		}
      }
    };

    struct Emulation
	{        
      static __device__ __forceinline__ int
      warp_reduce ( volatile int *ptr , const unsigned int tid)
      {
        const unsigned int lane = tid & 31; // index of thread in warp (0..31)        

        if (lane < 16)
        {				
          int partial = ptr[tid];

          ptr[tid] = partial = partial + ptr[tid + 16];
          ptr[tid] = partial = partial + ptr[tid + 8];
          ptr[tid] = partial = partial + ptr[tid + 4];
          ptr[tid] = partial = partial + ptr[tid + 2];
          ptr[tid] = partial = partial + ptr[tid + 1];            
        }
        return ptr[tid - lane];
      }
    };

    struct TranformReduction
    {
      enum
      {
        CTA_SIZE = 512,
        STRIDE = CTA_SIZE,

        B = 6, COLS = 6, ROWS = 6, DIAG = 6,
        UPPER_DIAG_MAT = (COLS * ROWS - DIAG) / 2 + DIAG,
        TOTAL = UPPER_DIAG_MAT + B,

        GRID_X = TOTAL
      };

      struct plus
      {
        __forceinline__ __device__ float
        operator () (const float &lhs, const volatile float& rhs) const 
        {
          return lhs + rhs;
        }
      };

      PtrStep<float> gbuf;
      int length;
      mutable float* output;

      __device__ __forceinline__ void
      operator () () const
      {
        const float *beg = gbuf.ptr (blockIdx.x);
        const float *end = beg + length;

        int tid = threadIdx.x;

        float sum = 0.f;
        for (const float *t = beg + tid; t < end; t += STRIDE)
          sum += *t;

        __shared__ float smem[CTA_SIZE];

        smem[tid] = sum;
        __syncthreads ();

        Block::reduce<CTA_SIZE>(smem, plus ());

        if (tid == 0)
          output[blockIdx.x] = smem[0];
      }
    };

    __global__ void
    TransformEstimatorKernel2 (const TranformReduction tr) 
    {
      tr ();
    }

    // Not in PCL: a minimal caller of Emulation::warp_reduce (the kinfu code calls it from
    // the pre-Fermi paths of its extraction kernels).
    __global__ void
    countKernel (const int* flags, int* out)
    {
      __shared__ int cta_buffer[256];
      cta_buffer[threadIdx.x] = flags[blockIdx.x * blockDim.x + threadIdx.x];
      int total = Emulation::warp_reduce (cta_buffer, threadIdx.x);
      if ((threadIdx.x & 31) == 0)
        atomicAdd (out, total);
    }
  }
}

void estimateTransform (const pcl::device::PtrStep<float>& gbuf, int length, float* mbuf)
{
  using namespace pcl::device;
  TranformReduction tr;
  tr.gbuf = gbuf;
  tr.length = length;
  tr.output = mbuf;

  TransformEstimatorKernel2<<<TranformReduction::TOTAL, TranformReduction::CTA_SIZE>>>(tr);
  cudaDeviceSynchronize ();
}
