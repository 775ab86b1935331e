// Pattern: a 16-lane sub-warp per item with an explicit shuffle width (FasterTransformer's and
// CUTLASS's sub-warp reductions).  Written for kernelport's tests after that pattern.
// @kp kernel item_sums
// @kp grid   ceil_div(items * 16, 256)
// @kp block  256
// @kp why    sixteen items of sixteen lanes per block
// @kp arg    x   in  float[items * 16] integers(-5, 5)
// @kp arg    out out float[items]
// @kp scalar items = 100
// @kp reference item_ref(x, out, items)
__global__ void item_sums(const float* x, float* out, int items) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int item = t / 16;
    float v = item < items ? x[t] : 0.0f;
    for (int o = 8; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o, 16);
    if ((t & 15) == 0 && item < items) out[item] = v;
}

void item_ref(const float* x, float* out, int items) {
    for (int i = 0; i < items; ++i) { float s = 0; for (int j = 0; j < 16; ++j) s += x[i * 16 + j]; out[i] = s; }
}
