// tests/test_macro_contexts.py's GROUPS32 with the ballot stored by the group's lane 0 (aihwkit's shape).
#include <cstdint>
#define INNER(V) \
  if (laneId == 0) V *= 2.0f; \
  V = __shfl_sync(0xFFFFFFFF, V, 0); \
  ballot = __ballot_sync(0xFFFFFFFF, (float)((tid * 7) % 100) / 50.f < V); \
  if (laneId == 0) out[sourceId] = ballot;

// @kp kernel     counts
// @kp grid       ceil_div(n * 32, 256)
// @kp block      256
// @kp why        8 groups of 32 threads, one source each
// @kp arg        prob    in   float[n]        uniform(0, 1)
// @kp arg        out     out  unsigned int[n]
// @kp scalar     n = 1000
// @kp reference  counts_ref(prob, out, n)
// @kp tolerance  exact
// @kp targets    hip
__global__ void counts(const float* prob, uint32_t* out, int n) {
  const int tid = blockDim.x * blockIdx.x + threadIdx.x;
  const int laneId = threadIdx.x & 0x1f;
  const int sourceId = tid >> 5;
  uint32_t ballot = 0;
  if (sourceId < n) {
    float value = prob[sourceId];
    INNER(value);
  }
}

void counts_ref(const float* prob, unsigned int* out, int n) {
  int src, lane;
  for (src = 0; src < n; ++src) {
    unsigned int w = 0u;
    for (lane = 0; lane < 32; ++lane) {
      int tid = src * 32 + lane;
      if ((float)((tid * 7) % 100) / 50.f < prob[src] * 2.0f) w |= 1u << lane;
    }
    out[src] = w;
  }
}
