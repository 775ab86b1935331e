// warp_scan.cu - inclusive prefix sum within each block, built from warp shuffle scans.
//
//   1. each warp scans its 32 elements with the Hillis-Steele ladder of __shfl_up_sync
//      (distances 1, 2, 4, 8, 16; a lane adds only when the source lane exists);
//   2. the last lane (31) of each warp holds the warp total and stores it in shared memory;
//   3. the first warp scans the warp totals with the same ladder;
//   4. every warp adds the inclusive total of the warps before it.
// The output, y[i] = x[b*256] + ... + x[i] for i in block b, does not depend on the warp
// width, but the code does: & 31 / >> 5, the 0xffffffff mask, d < 32, lane 31 as the last
// lane and the 32-slot array of warp totals are all warp-size assumptions.

#define BLOCK_SIZE 256

// @kp kernel     warp_scan
// @kp grid       ceil_div(n, 256)
// @kp block      256
// @kp why        256 threads = 8 warps: the warp totals fit in one warp, so a two-level scan
// @kp why        (warps, then warp totals) covers the block with only two barriers
// @kp arg        x  in   float[n]   integers(-10, 10)
// @kp arg        y  out  float[n]
// @kp scalar     n = 100000
// @kp reference  warp_scan_ref(x, y, n, 256)
// @kp tolerance  exact
// @kp targets    hip, metal
__global__ void warp_scan(const float* __restrict__ x, float* __restrict__ y, int n)
{
    __shared__ float warp_sums[32];

    int tid  = threadIdx.x;
    int lane = tid & 31;
    int warp = tid >> 5;
    int i = blockIdx.x * blockDim.x + tid;

    float v = (i < n) ? x[i] : 0.0f;

    // 1. inclusive scan within the warp
    for (int d = 1; d < 32; d *= 2) {
        float t = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d) {
            v += t;
        }
    }

    // 2. the last lane holds the warp's total
    if (lane == 31) {
        warp_sums[warp] = v;
    }
    __syncthreads();

    // 3. the first warp scans the warp totals (all 32 lanes shuffle; unused lanes add 0)
    if (warp == 0) {
        int nwarps = blockDim.x / 32;
        float s = (lane < nwarps) ? warp_sums[lane] : 0.0f;
        for (int d = 1; d < 32; d *= 2) {
            float t = __shfl_up_sync(0xffffffff, s, d);
            if (lane >= d) {
                s += t;
            }
        }
        warp_sums[lane] = s;
    }
    __syncthreads();

    // 4. add the total of all earlier warps
    if (warp > 0) {
        v += warp_sums[warp - 1];
    }
    if (i < n) {
        y[i] = v;
    }
}

// Scalar CPU reference (plain C99): inclusive prefix sum restarting at every block boundary.
void warp_scan_ref(const float* x, float* y, int n, int block)
{
    double running = 0.0;
    int i;
    for (i = 0; i < n; ++i) {
        if (i % block == 0) {
            running = 0.0;
        }
        running += x[i];
        y[i] = (float)running;
    }
}
