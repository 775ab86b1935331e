// Pattern: Welford mean/variance merged across a warp through a helper with reference
// out-parameters (apex layer norm's cuWelfordOnlineSum / cuChanOnlineSum).  Written for
// kernelport's tests after that pattern.
__device__ void welford_merge(float& mean, float& m2, float& count, float omean, float om2, float ocount) {
    float total = count + ocount;
    if (total > 0.0f) {
        float delta = omean - mean;
        float f = ocount / total;
        mean = mean + delta * f;
        m2 = m2 + om2 + delta * delta * count * f;
        count = total;
    }
}
// @kp kernel row_var
// @kp grid   rows
// @kp block  32
// @kp why    one 32-thread block per row (a one-warp block)
// @kp arg    x   in  float[rows * n] integers(-8, 8)
// @kp arg    var out float[rows]
// @kp scalar rows = 16
// @kp scalar n = 96
// @kp tolerance abs=1e-3 rel=1e-4
// @kp reference var_ref(x, var, rows, n)
__global__ void row_var(const float* x, float* var, int rows, int n) {
    float mean = 0.0f, m2 = 0.0f, count = 0.0f;
    for (int c = threadIdx.x; c < n; c += 32) {
        float v = x[blockIdx.x * n + c];
        count += 1.0f;
        float d = v - mean;
        mean += d / count;
        m2 += d * (v - mean);
    }
    for (int o = 16; o > 0; o /= 2) {
        float om = __shfl_down_sync(0xffffffff, mean, o);
        float o2 = __shfl_down_sync(0xffffffff, m2, o);
        float oc = __shfl_down_sync(0xffffffff, count, o);
        welford_merge(mean, m2, count, om, o2, oc);
    }
    if (threadIdx.x == 0) var[blockIdx.x] = m2 / count;
}

void var_ref(const float* x, float* var, int rows, int n) {
    for (int r = 0; r < rows; ++r) {
        double s = 0, q = 0;
        for (int c = 0; c < n; ++c) s += x[r * n + c];
        double mu = s / n;
        for (int c = 0; c < n; ++c) q += (x[r * n + c] - mu) * (x[r * n + c] - mu);
        var[r] = (float)(q / n);
    }
}
