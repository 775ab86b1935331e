// template_reduce.cu - per-block sums with the block size as a template parameter.
//
// Making the block size a compile-time constant sizes the shared array and lets the compiler
// fully unroll the halving tree (#pragma unroll): the loop bounds are constants, so each step
// becomes straight-line code with the dead steps removed. Each thread first sums a
// grid-strided slice of the input, so a fixed grid of 64 blocks covers any n; block b's
// partial sum goes to out[b]. No warp-synchronous tail: a barrier follows every step.

// @kp kernel       template_reduce
// @kp instantiate  <256>
// @kp grid         64
// @kp block        256
// @kp why          block = BLOCK_SIZE = 256: the template argument sizes the shared array, so the
// @kp why          launch must match it; 256 is a power of two for the tree, 8 warps / 4 waves
// @kp arg          x    in   float[n]   uniform(-1, 1)
// @kp arg          out  out  float[64]
// @kp scalar       n = 200000
// @kp reference    template_reduce_ref(x, out, n, 64, 256)
// @kp tolerance    auto
// @kp targets      hip, metal
template <int BLOCK_SIZE>
__global__ void template_reduce(const float* __restrict__ x, float* __restrict__ out, int n)
{
    __shared__ float sdata[BLOCK_SIZE];

    int tid = threadIdx.x;

    // Grid-stride accumulation into a register.
    float sum = 0.0f;
    for (int i = blockIdx.x * BLOCK_SIZE + tid; i < n; i += BLOCK_SIZE * gridDim.x) {
        sum += x[i];
    }
    sdata[tid] = sum;
    __syncthreads();

    // Halving tree; the trip count is a compile-time constant.
#pragma unroll
    for (int s = BLOCK_SIZE / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) {
        out[blockIdx.x] = sdata[0];
    }
}

// Scalar CPU reference (plain C99): block b sums the chunks b, b + nblocks, b + 2*nblocks, ...
// of `block` consecutive elements each (the grid-stride pattern), accumulated in double.
void template_reduce_ref(const float* x, float* out, int n, int nblocks, int block)
{
    int b, start, t;
    for (b = 0; b < nblocks; ++b) {
        double s = 0.0;
        for (start = b * block; start < n; start += block * nblocks) {
            for (t = 0; t < block && start + t < n; ++t) {
                s += x[start + t];
            }
        }
        out[b] = (float)s;
    }
}
