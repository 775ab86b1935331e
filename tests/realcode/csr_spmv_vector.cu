// Pattern: CSR SpMV "vector" kernel, 32 threads per row (cusp's spmv_csr_vector, Bell & Garland
// 2008).  Written for kernelport's tests after that pattern.  Row pointers come from a monotone
// generator: 3 non-zeros per row (arange with step 3).
// @kp kernel spmv_csr_vector
// @kp grid   ceil_div(rows * 32, 128)
// @kp block  128
// @kp why    four 32-lane rows per block (a warp per row)
// @kp arg    ptr  in  int[rows + 1] arange(0, 3)
// @kp arg    cols in  int[rows * 3] integers(0, 64)
// @kp arg    vals in  float[rows * 3] integers(-3, 3)
// @kp arg    x    in  float[64] integers(-2, 2)
// @kp arg    y    out float[rows]
// @kp scalar rows = 40
// @kp reference spmv_ref(ptr, cols, vals, x, y, rows)
__global__ void spmv_csr_vector(const int* ptr, const int* cols, const float* vals, const float* x, float* y,
                                int rows) {
    int thread_id = blockIdx.x * blockDim.x + threadIdx.x;
    int thread_lane = threadIdx.x & 31;
    int row = thread_id / 32;
    if (row >= rows) return;
    float sum = 0.0f;
    for (int j = ptr[row] + thread_lane; j < ptr[row + 1]; j += 32) sum += vals[j] * x[cols[j]];
    for (int o = 16; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffff, sum, o);
    if (thread_lane == 0) y[row] = sum;
}

void spmv_ref(const int* ptr, const int* cols, const float* vals, const float* x, float* y, int rows) {
    for (int r = 0; r < rows; ++r) {
        float s = 0.0f;
        for (int j = ptr[r]; j < ptr[r + 1]; ++j) s += vals[j] * x[cols[j]];
        y[r] = s;
    }
}
