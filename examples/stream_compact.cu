// stream_compact.cu - keep the elements above a threshold, packed to the front of each
// block's slice of the output, with warp ballots instead of a block-wide scan.
//
// Per warp: __ballot_sync gives a 32-bit mask of the lanes that keep their element;
// __popc(mask) is the warp's count and __popc(mask & ((1u << lane) - 1)) the number of kept
// lanes below this one, i.e. this lane's rank among the kept. Per block: lane 0 of each warp
// stores its count in shared memory, thread 0 turns the counts into offsets (warps are few),
// each warp's lane 0 reads its offset and broadcasts it with __shfl_sync.
//
// Output layout (deterministic, no global atomics): block b writes its kept elements, in input
// order, to out[b * blockDim.x + 0 .. counts[b] - 1]; the rest of its slice stays 0.
// The 32-bit masks, the & 31 / >> 5 lane and warp split, 1u << lane, __popc and the 32-slot
// per-warp arrays all assume a 32-wide warp.

#define BLOCK_SIZE 256

// @kp kernel     stream_compact
// @kp grid       ceil_div(n, 256)
// @kp block      256
// @kp why        256 threads = 8 warps: few enough per-warp counts that one thread scans them
// @kp why        serially, while each block's output slice is still a coalesced 1 KiB
// @kp arg        in      in   float[n]                        uniform(-1, 1)
// @kp arg        out     out  float[ceil_div(n, 256) * 256]
// @kp arg        counts  out  int[ceil_div(n, 256)]
// @kp scalar     n = 100000
// @kp scalar     threshold = 0.25
// @kp reference  stream_compact_ref(in, out, counts, n, threshold, 256)
// @kp tolerance  exact
// @kp targets    hip, metal
__global__ void stream_compact(const float* __restrict__ in,
                               float* __restrict__ out,
                               int* __restrict__ counts,
                               int n, float threshold)
{
    __shared__ int warp_count[32];    // kept elements per warp
    __shared__ int warp_offset[32];   // exclusive prefix of warp_count

    int tid  = threadIdx.x;
    int lane = tid & 31;
    int warp = tid >> 5;
    int i = blockIdx.x * blockDim.x + tid;

    float v = (i < n) ? in[i] : 0.0f;
    int keep = (i < n) && (v > threshold);

    // Every lane of the warp votes (threads past n vote 0), so the full mask is honest.
    unsigned int mask = __ballot_sync(0xffffffff, keep);
    int rank = __popc(mask & ((1u << lane) - 1));   // kept lanes below this one

    if (lane == 0) {
        warp_count[warp] = __popc(mask);
    }
    __syncthreads();

    // A handful of warps: a serial exclusive scan by one thread is cheapest.
    if (tid == 0) {
        int nwarps = blockDim.x / 32;
        int running = 0;
        for (int w = 0; w < nwarps; ++w) {
            warp_offset[w] = running;
            running += warp_count[w];
        }
        counts[blockIdx.x] = running;
    }
    __syncthreads();

    // One shared-memory read per warp, then a register broadcast from lane 0.
    int base = 0;
    if (lane == 0) {
        base = warp_offset[warp];
    }
    base = __shfl_sync(0xffffffff, base, 0);

    if (keep) {
        out[blockIdx.x * blockDim.x + base + rank] = v;
    }
}

// Scalar CPU reference (plain C99): the same per-block layout. Writes every element of out,
// including the zero tail of each block's slice.
void stream_compact_ref(const float* in, float* out, int* counts, int n, float threshold,
                        int block)
{
    int nblocks = (n + block - 1) / block;
    int b, t;
    for (b = 0; b < nblocks; ++b) {
        int k = 0;
        for (t = 0; t < block; ++t) {
            int i = b * block + t;
            if (i < n && in[i] > threshold) {
                out[b * block + k] = in[i];
                ++k;
            }
        }
        counts[b] = k;
        for (t = k; t < block; ++t) {
            out[b * block + t] = 0.0f;
        }
    }
}
