// dynamic_shared.cu - reverse every block-sized segment of an array, staging the segment in
// dynamically sized shared memory.
//
// The shared buffer is declared `extern __shared__ float smem[];` and sized at launch time
// (third <<< >>> parameter, here blockDim.x floats), so the same kernel serves any block size.
// Block b owns x[b*blockDim.x .. b*blockDim.x + len - 1], where len is blockDim.x except for
// a shorter last segment; it writes that segment reversed to the same place in `out`.
// No warp-size assumptions.

// @kp kernel     block_reverse
// @kp grid       ceil_div(n, 256)
// @kp block      256
// @kp why        256 threads, one element each: a 1 KiB staging buffer per block, and a multiple
// @kp why        of both wave widths so no wave is partly idle except in the last block
// @kp shared     256 * sizeof(float)
// @kp arg        in   in   float[n]   uniform(-1, 1)
// @kp arg        out  out  float[n]
// @kp scalar     n = 100000
// @kp reference  block_reverse_ref(in, out, n, 256)
// @kp tolerance  exact
// @kp targets    hip, metal
__global__ void block_reverse(const float* __restrict__ in, float* __restrict__ out, int n)
{
    extern __shared__ float smem[];       // blockDim.x floats, sized by the launch

    int tid = threadIdx.x;
    int start = blockIdx.x * blockDim.x;
    int len = min((int)blockDim.x, n - start);   // elements in this block's segment

    if (tid < len) {
        smem[tid] = in[start + tid];
    }
    __syncthreads();                      // all threads reach the barrier, in range or not

    // Thread tid writes position tid of the output segment, i.e. element len-1-tid of the
    // input segment: the stores stay coalesced, the reversal happens in shared memory.
    if (tid < len) {
        out[start + tid] = smem[len - 1 - tid];
    }
}

// Scalar CPU reference (plain C99).
void block_reverse_ref(const float* in, float* out, int n, int block)
{
    int start, t;
    for (start = 0; start < n; start += block) {
        int len = (n - start < block) ? (n - start) : block;
        for (t = 0; t < len; ++t) {
            out[start + t] = in[start + len - 1 - t];
        }
    }
}
