// warp_vote.cu - per-chunk "any outlier?" / "all in range?" flags and a global outlier count,
// with warp votes.
//
// The input is split into 64-element chunks, one block per chunk:
//   any_hi[b] = 1 if some element of chunk b is > hi,
//   all_lo[b] = 1 if every element of chunk b is >= lo (a short last chunk counts only its
//               real elements),
//   count[0]  = number of elements > hi in the whole array.
// __any_sync / __all_sync answer for a warp in one instruction; lane 0 of each warp posts the
// warp's answer to shared memory and thread 0 combines the warps. The count uses
// warp-aggregated atomics: inside the divergent `if (hit)` branch, __activemask() names the
// lanes that are here together, the lowest of them (__ffs - 1) does one atomicAdd for all of
// them, and __shfl_sync hands back the old value (kept to show the idiom: it would be each
// lane's slot if the hits were being appended to a list).
// Warp-size assumptions: % 32 / / 32, the 0xffffffff masks, the 32-bit unsigned int mask,
// __popc/__ffs on it and the 32-slot per-warp arrays. All outputs are per chunk or global, so
// they do not depend on the warp width.

// @kp kernel     warp_vote
// @kp grid       ceil_div(n, 64)
// @kp block      64
// @kp why        one flag per 64-element chunk, the granularity the consumer skips by: 64 threads
// @kp why        are 2 NVIDIA warps or 1 CDNA wave, so a chunk is whole warps on every target
// @kp arg        x       in   float[n]              uniform(0, 1)
// @kp arg        any_hi  out  int[ceil_div(n, 64)]
// @kp arg        all_lo  out  int[ceil_div(n, 64)]
// @kp arg        count   out  int[1]
// @kp scalar     n = 100000
// @kp scalar     lo = 0.01
// @kp scalar     hi = 0.99
// @kp reference  warp_vote_ref(x, any_hi, all_lo, count, n, lo, hi, 64)
// @kp tolerance  exact
// @kp targets    hip, metal
__global__ void warp_vote(const float* __restrict__ x, int* any_hi, int* all_lo, int* count,
                          int n, float lo, float hi)
{
    __shared__ int warp_any[32];
    __shared__ int warp_all[32];

    int tid  = threadIdx.x;
    int lane = tid % 32;
    int warp = tid / 32;
    int i = blockIdx.x * blockDim.x + tid;

    // Threads past n vote "no hit" and "in range", so they change neither answer; every lane
    // of the warp takes part in the votes, so the full mask is honest.
    int valid = i < n;
    float v = valid ? x[i] : 0.0f;
    int hit = valid && v > hi;
    int in_range = !valid || v >= lo;

    int warp_hit = __any_sync(0xffffffff, hit);
    int warp_in_range = __all_sync(0xffffffff, in_range);
    if (lane == 0) {
        warp_any[warp] = warp_hit;
        warp_all[warp] = warp_in_range;
    }

    // Warp-aggregated increment of the global count.
    if (hit) {
        unsigned int active = __activemask();       // the lanes that took this branch together
        int leader = __ffs(active) - 1;             // lowest of them
        int old = 0;
        if (lane == leader) {
            old = atomicAdd(count, __popc(active));
        }
        old = __shfl_sync(active, old, leader);
        (void)old;
    }
    __syncthreads();

    if (tid == 0) {
        int nwarps = blockDim.x / 32;
        int any = 0;
        int all = 1;
        for (int w = 0; w < nwarps; ++w) {
            any = any | warp_any[w];
            all = all & warp_all[w];
        }
        any_hi[blockIdx.x] = any;
        all_lo[blockIdx.x] = all;
    }
}

// Scalar CPU reference (plain C99).
void warp_vote_ref(const float* x, int* any_hi, int* all_lo, int* count, int n, float lo,
                   float hi, int chunk)
{
    int nchunks = (n + chunk - 1) / chunk;
    int total = 0;
    int c, t;
    for (c = 0; c < nchunks; ++c) {
        int any = 0;
        int all = 1;
        for (t = 0; t < chunk; ++t) {
            int i = c * chunk + t;
            if (i < n) {
                if (x[i] > hi) {
                    any = 1;
                    ++total;
                }
                if (!(x[i] >= lo)) {
                    all = 0;
                }
            }
        }
        any_hi[c] = any;
        all_lo[c] = all;
    }
    count[0] = total;
}
