// saxpy.cu - single-precision a*x plus y, in place: y = a * x + y.
//
// A grid-stride loop: the grid is capped at a fixed number of blocks and each thread walks
// the array in steps of the whole grid, so one launch configuration covers any n.

// @kp kernel     saxpy
// @kp grid       min(ceil_div(n, 256), 256)
// @kp block      256
// @kp why        256 threads = 8 NVIDIA warps / 4 CDNA waves; with the grid capped at 256 blocks
// @kp why        each thread handles a few elements, amortising its index arithmetic
// @kp arg        x   in     float[n]   uniform(-1, 1)
// @kp arg        y   inout  float[n]   uniform(-1, 1)
// @kp scalar     n = 1 << 18
// @kp scalar     a = 2.5
// @kp reference  saxpy_ref(n, a, x, y)
// @kp tolerance  auto
// @kp targets    hip, metal
__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        // nvcc contracts this into one fma; the reference rounds twice (tolerance: auto).
        y[i] = a * x[i] + y[i];
    }
}

// Scalar CPU reference (plain C99).
void saxpy_ref(int n, float a, const float* x, float* y)
{
    int i;
    for (i = 0; i < n; ++i) {
        y[i] = a * x[i] + y[i];
    }
}
