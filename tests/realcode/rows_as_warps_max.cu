// Pattern: one 32-lane warp per row, eight rows per 256-thread block (llama.cpp/ggml soft_max and
// PyTorch's persistent softmax use this layout).  Written for kernelport's tests after that pattern;
// not copied from either project.
#include <math.h>
// @kp kernel row_max
// @kp grid   ceil_div(rows, 8)
// @kp block  256
// @kp why    eight 32-lane rows per block: the data layout is a warp per row
// @kp arg    x   in  float[rows * n] uniform(-4, 4)
// @kp arg    out out float[rows]
// @kp scalar rows = 64
// @kp scalar n = 80
// @kp reference row_max_ref(x, out, rows, n)
__global__ void row_max(const float* x, float* out, int rows, int n) {
    int row = blockIdx.x * 8 + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    float m = -INFINITY;
    for (int c = lane; c < n; c += 32) m = fmaxf(m, x[row * n + c]);
    for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    m = __shfl_sync(0xffffffff, m, 0);   // the row's max in every lane
    if (lane == 31 && row < rows) out[row] = m;
}

void row_max_ref(const float* x, float* out, int rows, int n) {
    for (int r = 0; r < rows; ++r) {
        float m = -INFINITY;
        for (int c = 0; c < n; ++c) m = x[r * n + c] > m ? x[r * n + c] : m;
        out[r] = m;
    }
}
