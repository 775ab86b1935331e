// warp_reduce.cu - sum of a whole array with warp shuffles and one atomicAdd per block.
//
// The usual two-level reduction:
//   1. each thread sums a grid-strided slice of the input into a register;
//   2. each warp folds its 32 registers with a __shfl_down_sync ladder (16, 8, 4, 2, 1);
//   3. lane 0 of each warp parks the warp's sum in shared memory;
//   4. the first warp loads those per-warp sums and folds them the same way;
//   5. thread 0 adds the block's total into the global result with one atomicAdd.
//
// Written the way most real code is: the warp size is baked in as 32 (the #define, the
// lane/warp split, the full 0xffffffff mask, the ladder start of 16, the 32-slot partial
// array). Correct on NVIDIA; every one of those 32s is a warp-size assumption for a port.

#define WARP_SIZE 32
#define BLOCK_SIZE 256

// Tree-fold a value across the 32 lanes of a warp; lane 0 ends up with the warp's sum.
__device__ float warpReduceSum(float val)
{
    for (int offset = 16; offset > 0; offset /= 2) {
        val += __shfl_down_sync(0xffffffff, val, offset);
    }
    return val;
}

// @kp kernel     warp_reduce
// @kp grid       128
// @kp block      256
// @kp why        256 threads = 8 warps: the first warp can fold all per-warp sums in one pass,
// @kp why        and 128 blocks x 256 threads keep every SM busy while each thread sums a slice
// @kp arg        x    in   float[n]   integers(-8, 8)
// @kp arg        out  out  float[1]
// @kp scalar     n = 250000
// @kp reference  warp_reduce_ref(x, out, n)
// @kp tolerance  exact
// @kp targets    hip, metal
__global__ void warp_reduce(const float* __restrict__ x, float* out, int n)
{
    __shared__ float partial[32];            // one slot per warp (up to 1024 / 32 warps)

    int tid  = threadIdx.x;
    int lane = tid % 32;                     // lane within the warp
    int warp = tid / 32;                     // warp within the block

    // 1. grid-stride accumulation; threads with no elements keep 0.
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
        sum += x[i];
    }

    // 2-3. reduce within the warp, leader stores the warp's sum
    sum = warpReduceSum(sum);
    if (lane == 0) {
        partial[warp] = sum;
    }
    __syncthreads();

    // 4-5. the first warp reduces the per-warp sums (the whole warp takes part in the shuffles)
    if (warp == 0) {
        int nwarps = blockDim.x / WARP_SIZE;
        sum = (lane < nwarps) ? partial[lane] : 0.0f;
        sum = warpReduceSum(sum);
        if (lane == 0) {
            atomicAdd(out, sum);
        }
    }
}

// Scalar CPU reference (plain C99): out[0] = sum of all x, accumulated in double.
// (Integer-valued inputs keep every partial sum exact in float, so the order does not matter.)
void warp_reduce_ref(const float* x, float* out, int n)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; ++i) {
        s += x[i];
    }
    out[0] = (float)s;
}
