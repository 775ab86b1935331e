// Pattern: warp-aggregated atomic increment (NVIDIA's "CUDA Pro Tip: Optimized Filtering with
// Warp-Aggregated Atomics"): one atomicAdd per warp, the ballot's population as the increment.
// Written for kernelport's tests after that pattern.
// @kp kernel count_positive
// @kp grid   ceil_div(n, 256)
// @kp block  256
// @kp why    whole 64-lane waves: the port's ballots cover the wave
// @kp arg    x     in  float[n] uniform(-1, 1)
// @kp arg    count out int[1]
// @kp scalar n = 4096
// @kp reference count_ref(x, count, n)
__global__ void count_positive(const float* x, int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool pred = i < n && x[i] > 0.0f;
    unsigned mask = __ballot_sync(0xffffffff, pred);
    int lane = threadIdx.x % 32;
    int leader = __ffs(mask) - 1;
    if (lane == leader) atomicAdd(count, __popc(mask));
}

void count_ref(const float* x, int* count, int n) {
    int c = 0;
    for (int i = 0; i < n; ++i) c += x[i] > 0.0f;
    count[0] = c;
}
