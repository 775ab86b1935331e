// Pattern: softmax of a row by one warp (max, then sum of exp), starting from -INFINITY, as in
// Megatron/apex scaled softmax.  Written for kernelport's tests after that pattern.
#include <math.h>
#include <float.h>
__device__ float warp_max(float v) {
    for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
// @kp kernel softmax_rows
// @kp grid   ceil_div(rows, 4)
// @kp block  128
// @kp why    four 32-lane rows per block
// @kp arg    x   in  float[rows * n] uniform(-3, 3)
// @kp arg    y   out float[rows * n]
// @kp scalar rows = 32
// @kp scalar n = 64
// @kp reference softmax_ref(x, y, rows, n)
__global__ void softmax_rows(const float* x, float* y, int rows, int n) {
    int row = blockIdx.x * 4 + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows) return;
    float m = -INFINITY;
    for (int c = lane; c < n; c += 32) m = fmaxf(m, x[row * n + c]);
    m = warp_max(m);
    float s = 0.0f;
    for (int c = lane; c < n; c += 32) s += expf(x[row * n + c] - m);
    s = warp_sum(s);
    for (int c = lane; c < n; c += 32) y[row * n + c] = expf(x[row * n + c] - m) / s;
}

void softmax_ref(const float* x, float* y, int rows, int n) {
    for (int r = 0; r < rows; ++r) {
        float m = -FLT_MAX, s = 0.0f;
        for (int c = 0; c < n; ++c) m = x[r * n + c] > m ? x[r * n + c] : m;
        for (int c = 0; c < n; ++c) s += expf(x[r * n + c] - m);
        for (int c = 0; c < n; ++c) y[r * n + c] = expf(x[r * n + c] - m) / s;
    }
}
