// One 32-bit word per 32-thread group per step: aihwkit's count kernels (tests/labelled21) written in the kernel.
// @kp kernel     counts
// @kp grid       ceil_div(size * 32, 256)
// @kp block      256
// @kp why        8 groups of 32 threads, one source each
// @kp arg        prob    in   float[size]        uniform(0, 1)
// @kp arg        out     out  unsigned int[size * 4]
// @kp scalar     size = 1000
// @kp scalar     nK32 = 4
// @kp reference  counts_ref(prob, out, size, nK32)
// @kp tolerance  exact
// @kp targets    hip
__global__ void counts(const float* prob, unsigned int* out, int size, int nK32) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    int sourceId = tid >> 5;
    const int laneId = threadIdx.x & 0x1f;
    unsigned int ballot = 0;
    if (sourceId < size) {
        float value = 0.f;
        if (laneId == 0) value = prob[sourceId];
        value = __shfl_sync(0xFFFFFFFF, value, 0);
        unsigned int* c = out + sourceId * nK32;
        for (int i = 0; i < nK32; i++) {
            float s = (float)((tid * 7 + i * 13) % 100) / 100.f;
            ballot = __ballot_sync(0xFFFFFFFF, s < value);
            if (laneId == 0) c[i] = ballot;
        }
    }
}

void counts_ref(const float* prob, unsigned int* out, int size, int nK32) {
    int src, lane, i;
    for (src = 0; src < size; ++src) {
        for (i = 0; i < nK32; ++i) {
            unsigned int w = 0u;
            for (lane = 0; lane < 32; ++lane) {
                int tid = src * 32 + lane;
                float s = (float)((tid * 7 + i * 13) % 100) / 100.f;
                if (s < prob[src]) w |= 1u << lane;
            }
            out[src * nK32 + i] = w;
        }
    }
}
