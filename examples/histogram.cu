// histogram.cu - 256-bin histogram of integer keys with per-block privatisation.
//
// Each block builds a private histogram in shared memory (fast shared-memory atomics,
// contention limited to the block), then merges it into the global histogram with one
// global atomicAdd per non-empty bin. Input keys must lie in [0, NUM_BINS).
// Integer atomics commute, so the result is exact whatever the order of the updates.
// No warp-size assumptions.

#define NUM_BINS 256

// @kp kernel     histogram
// @kp grid       min(ceil_div(n, 256), 64)
// @kp block      256
// @kp why        256 threads: one per bin when zeroing and merging the private histogram, and
// @kp why        64 blocks x 256 threads stride over the input so each block merges only once
// @kp arg        data  in   int[n]               integers(0, 256)
// @kp arg        hist  out  unsigned int[256]
// @kp scalar     n = 1 << 18
// @kp reference  histogram_ref(data, hist, n, 256)
// @kp tolerance  exact
// @kp targets    hip, metal
__global__ void histogram(const int* __restrict__ data, unsigned int* __restrict__ hist, int n)
{
    __shared__ unsigned int bins[NUM_BINS];

    // Zero the private histogram (a strided loop works for any block size).
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) {
        bins[b] = 0;
    }
    __syncthreads();

    // Count this block's share of the input (grid-stride).
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&bins[data[i]], 1u);
    }
    __syncthreads();

    // Merge into the global histogram; skip empty bins to save global atomics.
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) {
        unsigned int c = bins[b];
        if (c != 0) {
            atomicAdd(&hist[b], c);
        }
    }
}

// Scalar CPU reference (plain C99).
void histogram_ref(const int* data, unsigned int* hist, int n, int num_bins)
{
    int i;
    for (i = 0; i < num_bins; ++i) {
        hist[i] = 0;
    }
    for (i = 0; i < n; ++i) {
        hist[data[i]] += 1;
    }
}
