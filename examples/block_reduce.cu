// block_reduce.cu - one partial sum per block, by a tree reduction in shared memory.
//
// "Sequential addressing" (reduction #3 of Mark Harris' classic talk): every step halves the
// number of active threads, and thread tid adds the element s places above it, so the active
// threads stay contiguous and shared-memory accesses are conflict-free. A barrier separates
// the steps all the way down to s == 1; there is no warp-synchronous tail, so the kernel is
// independent of the warp width. The host (or a second launch) adds the per-block partials.

#define BLOCK_SIZE 256

// @kp kernel     block_reduce
// @kp grid       ceil_div(n, 256)
// @kp block      256
// @kp why        256 threads: a power of two, as the halving tree needs, and 8 NVIDIA warps /
// @kp why        4 CDNA waves per block, enough to hide global-memory latency
// @kp arg        x    in   float[n]                 uniform(-1, 1)
// @kp arg        out  out  float[ceil_div(n, 256)]
// @kp scalar     n = 100000
// @kp reference  block_reduce_ref(x, out, n, 256)
// @kp tolerance  auto
// @kp targets    hip, metal
__global__ void block_reduce(const float* __restrict__ x, float* __restrict__ out, int n)
{
    __shared__ float sdata[BLOCK_SIZE];

    unsigned int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    // Threads past the end contribute the identity, so the tree needs no bounds checks.
    sdata[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();   // outside the if: every thread of the block reaches it
    }

    if (tid == 0) {
        out[blockIdx.x] = sdata[0];
    }
}

// Scalar CPU reference (plain C99): out[b] = sum of x[b*block .. b*block + block - 1],
// accumulated in double.
void block_reduce_ref(const float* x, float* out, int n, int block)
{
    int nblocks = (n + block - 1) / block;
    int b, t;
    for (b = 0; b < nblocks; ++b) {
        double s = 0.0;
        for (t = 0; t < block; ++t) {
            int i = b * block + t;
            if (i < n) {
                s += x[i];
            }
        }
        out[b] = (float)s;
    }
}
