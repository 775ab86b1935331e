// Pattern: block-level stream compaction by warp ballots: a lane's rank is the population of the
// ballot below it, warps are offset by the counts of the warps before them (CUB's warp-scan-free
// compaction, cuda-samples' warpAggregatedAtomics).  Written for kernelport's tests after that pattern.
// @kp kernel compact
// @kp grid   ceil_div(n, 256)
// @kp block  256
// @kp why    whole 64-lane waves: ballots and per-warp counts cover the wave
// @kp arg    x      in  float[n] uniform(-1, 1)
// @kp arg    out    out float[n]
// @kp arg    counts out int[ceil_div(n, 256)]
// @kp scalar n = 2048
// @kp reference compact_ref(x, out, counts, n)
__global__ void compact(const float* x, float* out, int* counts, int n) {
    __shared__ int warp_counts[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    bool keep = i < n && x[i] > 0.0f;
    unsigned mask = __ballot_sync(0xffffffff, keep);
    int rank = __popc(mask & ((1u << lane) - 1));
    if (lane == 0) warp_counts[warp] = __popc(mask);
    __syncthreads();
    int offset = 0;
    for (int w = 0; w < warp; ++w) offset += warp_counts[w];
    if (keep) out[blockIdx.x * blockDim.x + offset + rank] = x[i];
    if (threadIdx.x == 0) {
        int t = 0;
        for (int w = 0; w < blockDim.x / 32; ++w) t += warp_counts[w];
        counts[blockIdx.x] = t;
    }
}

void compact_ref(const float* x, float* out, int* counts, int n) {
    for (int b = 0; b * 256 < n; ++b) {
        int t = 0;
        for (int j = b * 256; j < n && j < (b + 1) * 256; ++j)
            if (x[j] > 0.0f) out[b * 256 + t++] = x[j];
        counts[b] = t;
    }
}
