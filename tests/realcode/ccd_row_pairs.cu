// Pattern: Zialus/cumf_ccd's updateR_7 and CudaRankOneUpdate_7 (cuda_fusedR.h, cuda_updateH.h): 64
// threads per row; each warp folds its 32 partials with an unrolled ladder through a shuffle wrapper
// (`shfl_down(g, 16)` ... `shfl_down(g, 1)`, cuda_common.h's wrapper of __shfl_down_sync), lane 0 of
// each warp stores its fold at SD[tId >> 5], and the row's first lane adds its second warp's slot,
// SD[(tId >> 5) + 1].  Written for kernelport's tests after that pattern (not its text).
// @kp kernel row_sums
// @kp grid   ceil_div(rows * 64, 128)
// @kp block  128
// @kp shared 4 * (128 / 32) * 2
// @kp why    two rows of 64 threads per block, as updateR_7 launches them
// @kp arg    vals in  float[rows * 64] uniform(-1, 1)
// @kp arg    out  out float[rows]
// @kp scalar rows = 16
// @kp tolerance abs=1e-4 rel=1e-5
// @kp reference row_sums_ref(vals, out, rows)
__inline__ __device__ float shfl_down(float v, unsigned d) { return __shfl_down_sync(0xffffffff, v, d); }

__global__ void row_sums(const float* vals, float* out, int rows) {
    unsigned int tId = threadIdx.x;
    unsigned int laneId = tId & 63;
    int c = (blockIdx.x * blockDim.x + tId) >> 6;
    extern __shared__ volatile float SD[];
    float g = 0, h = 0;
    if (c < rows) {
        g = vals[c * 64 + laneId];
        h = g * g;
    }
    g += shfl_down(g, 16);
    g += shfl_down(g, 8);
    g += shfl_down(g, 4);
    g += shfl_down(g, 2);
    g += shfl_down(g, 1);
    h += shfl_down(h, 16);
    h += shfl_down(h, 8);
    h += shfl_down(h, 4);
    h += shfl_down(h, 2);
    h += shfl_down(h, 1);
    if ((tId & 31) == 0) {
        SD[tId >> 5] = g;
        SD[blockDim.x / 32 + (tId >> 5)] = h;
    }
    __syncthreads();
    if (laneId == 0 && c < rows) {
        g += SD[(tId >> 5) + 1];
        h += SD[(blockDim.x / 32 + (tId >> 5)) + 1];
        out[c] = g + h;
    }
}

void row_sums_ref(const float* vals, float* out, int rows) {
    for (int c = 0; c < rows; ++c) {
        float g = 0, h = 0;
        for (int i = 0; i < 64; ++i) {
            g += vals[c * 64 + i];
            h += vals[c * 64 + i] * vals[c * 64 + i];
        }
        out[c] = g + h;
    }
}
