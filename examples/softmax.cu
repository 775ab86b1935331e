// softmax.cu - numerically stable softmax of each row of a row-major matrix.
//
// One block per row. Each thread strides over the row; the row maximum and the sum of
// exponentials are each reduced in two levels: a __shfl_xor_sync butterfly inside each warp
// (masks 16, 8, 4, 2, 1 leave the result in every lane), per-warp results through shared
// memory, and a second butterfly that every warp runs over those, so all threads end up
// with the row's max and sum without an extra broadcast.
// The butterflies start at 16 with a full 0xffffffff mask, lane/warp come from % 32 and / 32,
// and the shared array has 32 slots: warp-size assumptions. The result is a full reduction,
// so it does not depend on the warp width.

#include <math.h>   // expf on the device, exp in the CPU reference

#define WARP_SIZE 32
#define NEG_BIG (-3.402823466e+38f)   /* -FLT_MAX: identity of max without <float.h> */

__device__ float warpReduceMax(float v)
{
    for (int mask = 16; mask > 0; mask >>= 1) {
        v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, mask));
    }
    return v;
}

__device__ float warpReduceSum(float v)
{
    for (int mask = 16; mask > 0; mask >>= 1) {
        v += __shfl_xor_sync(0xffffffff, v, mask);
    }
    return v;
}

// @kp kernel     softmax
// @kp grid       rows
// @kp block      256
// @kp why        one block per row; 256 threads give each thread about 4 of the 1000 columns and
// @kp why        8 warps whose partial results one warp-wide butterfly can combine
// @kp arg        x    in   float[rows * cols]   uniform(-4, 4)
// @kp arg        out  out  float[rows * cols]
// @kp scalar     rows = 64
// @kp scalar     cols = 1000
// @kp reference  softmax_ref(x, out, rows, cols)
// @kp tolerance  auto
// @kp targets    hip, metal
__global__ void softmax(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float red[32];                 // one slot per warp

    int row  = blockIdx.x;
    int tid  = threadIdx.x;
    int lane = tid % 32;
    int warp = tid / 32;
    int nwarps = blockDim.x / WARP_SIZE;

    // Row maximum.
    float m = NEG_BIG;
    for (int j = tid; j < cols; j += blockDim.x) {
        m = fmaxf(m, x[row * cols + j]);
    }
    m = warpReduceMax(m);
    if (lane == 0) {
        red[warp] = m;
    }
    __syncthreads();
    m = (lane < nwarps) ? red[lane] : NEG_BIG;
    m = warpReduceMax(m);
    __syncthreads();                          // everyone has read red[] before it is reused

    // Sum of exp(x - max).
    float s = 0.0f;
    for (int j = tid; j < cols; j += blockDim.x) {
        s += expf(x[row * cols + j] - m);
    }
    s = warpReduceSum(s);
    if (lane == 0) {
        red[warp] = s;
    }
    __syncthreads();
    s = (lane < nwarps) ? red[lane] : 0.0f;
    s = warpReduceSum(s);

    // Normalise.
    float inv = 1.0f / s;
    for (int j = tid; j < cols; j += blockDim.x) {
        out[row * cols + j] = expf(x[row * cols + j] - m) * inv;
    }
}

// Scalar CPU reference (plain C99, needs <math.h>): computed in double, rounded once.
void softmax_ref(const float* x, float* out, int rows, int cols)
{
    int r, j;
    for (r = 0; r < rows; ++r) {
        const float* xr = x + (long)r * cols;
        double m = xr[0];
        double s = 0.0;
        for (j = 1; j < cols; ++j) {
            if (xr[j] > m) {
                m = xr[j];
            }
        }
        for (j = 0; j < cols; ++j) {
            s += exp((double)xr[j] - m);
        }
        for (j = 0; j < cols; ++j) {
            out[(long)r * cols + j] = (float)(exp((double)xr[j] - m) / s);
        }
    }
}
