// Source: PointCloudLibrary/pcl/gpu/kinfu/src/cuda/extract.cu + device.hpp + utils.hpp (BSD-3-Clause) — trimmed for the kernelport test corpus
/*
 * Software License Agreement (BSD License)
 *
 *  Point Cloud Library (PCL) - www.pointclouds.org
 *  Copyright (c) 2011, Willow Garage, Inc.
 *  All rights reserved.  Redistribution and use permitted under the BSD-3-Clause terms.
 */
// Trimmed: internal.h (PtrStep/PtrSz, VOLUME_* sizes) is replaced by minimal local definitions;
// the dy/dz neighbour cases of FullScan6 and the ExtractNormals part were dropped.
#include <cuda_runtime.h>

namespace pcl
{
  namespace device
  {
    enum { VOLUME_X = 512, VOLUME_Y = 512, VOLUME_Z = 512 };
    const int DIVISOR = 32767;
    typedef float4 PointType;
    template<typename T> struct PtrStep { T* data; size_t step;
      __device__ __forceinline__ T* ptr(int y = 0) const { return (T*)((char*)data + y * step); } };
    template<typename T> struct PtrSz { T* data; size_t size; };
    static inline int divUp(int total, int grain) { return (total + grain - 1) / grain; }

    __device__ __forceinline__ void unpack_tsdf (short2 value, float& tsdf, int& weight)
    {
      weight = value.y;
      tsdf = __int2float_rn (value.x) / DIVISOR;   //*/ * INV_DIV;
    }

    ///// Prefix Scan utility
    enum ScanKind { exclusive, inclusive };

    template<ScanKind Kind, class T>
    __device__ __forceinline__ T
    scan_warp ( volatile T *ptr, const unsigned int idx = threadIdx.x )
    {
      const unsigned int lane = idx & 31;       // index of thread in warp (0..31) 

      if (lane >=  1) ptr[idx] = ptr[idx -  1] + ptr[idx];
      if (lane >=  2) ptr[idx] = ptr[idx -  2] + ptr[idx];
      if (lane >=  4) ptr[idx] = ptr[idx -  4] + ptr[idx];
      if (lane >=  8) ptr[idx] = ptr[idx -  8] + ptr[idx];
      if (lane >= 16) ptr[idx] = ptr[idx - 16] + ptr[idx];

      if (Kind == inclusive)
        return ptr[idx];
      else
        return (lane > 0) ? ptr[idx - 1] : 0;
    }

    struct Block
    {
      static __device__ __forceinline__ int flattenedThreadId()
      { return threadIdx.z * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x; }
    };

    struct Warp
    {
      enum
      {
        LOG_WARP_SIZE = 5,
        WARP_SIZE     = 1 << LOG_WARP_SIZE,
        STRIDE        = WARP_SIZE
      };
      
      /** \brief Returns the warp lane ID of the calling thread. */
      static __device__ __forceinline__ unsigned int laneId()
      {
        unsigned int ret;
        asm("mov.u32 %0, %%laneid;" : "=r"(ret) );
        return ret;
      }
    };

    ///// Full Volume Scan6
    enum
    {
      CTA_SIZE_X = 32,
      CTA_SIZE_Y = 6,
      CTA_SIZE = CTA_SIZE_X * CTA_SIZE_Y,

      MAX_LOCAL_POINTS = 3
    };

    __device__ int global_count = 0;
    __device__ int output_count;
    __device__ unsigned int blocks_done = 0;

    __shared__ float storage_X[CTA_SIZE * MAX_LOCAL_POINTS];
    __shared__ float storage_Y[CTA_SIZE * MAX_LOCAL_POINTS];
    __shared__ float storage_Z[CTA_SIZE * MAX_LOCAL_POINTS];

    struct FullScan6
    {
      PtrStep<short2> volume;
      float3 cell_size;

      mutable PtrSz<PointType> output;

      __device__ __forceinline__ float
      fetch (int x, int y, int z, int& weight) const
      {
        float tsdf;
        unpack_tsdf (volume.ptr (VOLUME_Y * z + y)[x], tsdf, weight);
        return tsdf;
      }

      __device__ __forceinline__ void
      operator () () const
      {
        int x = threadIdx.x + blockIdx.x * CTA_SIZE_X;
        int y = threadIdx.y + blockIdx.y * CTA_SIZE_Y;
       
        if (__all_sync (__activemask (), x >= VOLUME_X)
            || __all_sync (__activemask (), y >= VOLUME_Y))
          return;

        float3 V;
        V.x = (x + 0.5f) * cell_size.x;
        V.y = (y + 0.5f) * cell_size.y;

        int ftid = Block::flattenedThreadId ();

        for (int z = 0; z < VOLUME_Z - 1; ++z)
        {
          float3 points[MAX_LOCAL_POINTS];
          int local_count = 0;

          if (x < VOLUME_X && y < VOLUME_Y)
          {
            int W;
            float F = fetch (x, y, z, W);

            if (W != 0 && F != 1.f)
            {
              V.z = (z + 0.5f) * cell_size.z;

              //process dx
              if (x + 1 < VOLUME_X)
              {
                int Wn;
                float Fn = fetch (x + 1, y, z, Wn);

                if (Wn != 0 && Fn != 1.f)
                  if ((F > 0 && Fn < 0) || (F < 0 && Fn > 0))
                  {
                    float3 p;
                    p.y = V.y;
                    p.z = V.z;

                    float Vnx = V.x + cell_size.x;

                    float d_inv = 1.f / (fabsf (F) + fabsf (Fn));
                    p.x = (V.x * fabsf (Fn) + Vnx * fabsf (F)) * d_inv;

                    points[local_count++] = p;
                  }
              }               /* if (x + 1 < VOLUME_X) */
            }              /* if (W != 0 && F != 1.f) */
          }            /* if (x < VOLUME_X && y < VOLUME_Y) */

          int total_warp = __popc (__ballot_sync (__activemask (), local_count > 0))
                         + __popc (__ballot_sync (__activemask (), local_count > 1))
                         + __popc (__ballot_sync (__activemask (), local_count > 2));

          if (total_warp > 0)
          {
            int lane = Warp::laneId ();
            int storage_index = (ftid >> Warp::LOG_WARP_SIZE) * Warp::WARP_SIZE * MAX_LOCAL_POINTS;

            volatile int* cta_buffer = (int*)(storage_X + storage_index);

            cta_buffer[lane] = local_count;
            int offset = scan_warp<exclusive>(cta_buffer, lane);

            if (lane == 0)
            {
              int old_global_count = atomicAdd (&global_count, total_warp);
              cta_buffer[0] = old_global_count;
            }
            int old_global_count = cta_buffer[0];

            for (int l = 0; l < local_count; ++l)
            {
              storage_X[storage_index + offset + l] = points[l].x;
              storage_Y[storage_index + offset + l] = points[l].y;
              storage_Z[storage_index + offset + l] = points[l].z;
            }

            PointType *pos = output.data + old_global_count + lane;
            for (int idx = lane; idx < total_warp; idx += Warp::STRIDE, pos += Warp::STRIDE)
            {
              float x = storage_X[storage_index + idx];
              float y = storage_Y[storage_index + idx];
              float z = storage_Z[storage_index + idx];
              *pos = make_float4 (x, y, z, 0);
            }

            bool full = (old_global_count + total_warp) >= output.size;

            if (full)
              break;
          }

        }         /* for(int z = 0; z < VOLUME_Z - 1; ++z) */

        // prepare for future scans
        if (ftid == 0)
        {
          unsigned int total_blocks = gridDim.x * gridDim.y * gridDim.z;
          unsigned int value = atomicInc (&blocks_done, total_blocks);

          //last block
          if (value == total_blocks - 1)
          {
            output_count = min ((int)output.size, global_count);
            blocks_done = 0;
            global_count = 0;
          }
        }
      }       /* operator() */
    };

    __global__ void extractKernel (const FullScan6 fs) {
      fs ();
    }
  }
}

size_t extractCloud (const pcl::device::PtrStep<short2>& volume, const float3& volume_size,
              pcl::device::PtrSz<pcl::device::PointType> output)
{
  using namespace pcl::device;
  FullScan6 fs;
  fs.volume = volume;
  fs.cell_size.x = volume_size.x / VOLUME_X;
  fs.cell_size.y = volume_size.y / VOLUME_Y;
  fs.cell_size.z = volume_size.z / VOLUME_Z;
  fs.output = output;

  dim3 block (CTA_SIZE_X, CTA_SIZE_Y);
  dim3 grid (divUp (VOLUME_X, block.x), divUp (VOLUME_Y, block.y));

  extractKernel<<<grid, block>>>(fs);
  cudaDeviceSynchronize ();
  int size;
  cudaMemcpyFromSymbol (&size, output_count, sizeof(size));
  return (size_t)size;
}
