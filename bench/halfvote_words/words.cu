// tests/test_rewrites.py's ballot word per 32 threads (refused KP207 until stop 44), with a C reference.
// @kp kernel     k
// @kp grid       ceil_div(n, 256)
// @kp block      256
// @kp why        8 warps of 32, one word each
// @kp arg        x      in   float[n]          uniform(-1, 1)
// @kp arg        words  out  unsigned int[n / 32]
// @kp scalar     n = 65536
// @kp reference  words_ref(x, words, n)
// @kp tolerance  exact
// @kp targets    hip
__global__ void k(const float* x, unsigned* words, int n) {
    unsigned b = __ballot_sync(0xffffffff, x[blockIdx.x * blockDim.x + threadIdx.x] > 0.0f);
    if (threadIdx.x % 32 == 0) words[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = b;
}

void words_ref(const float* x, unsigned int* words, int n) {
    int i;
    for (i = 0; i < n / 32; ++i) words[i] = 0u;
    for (i = 0; i < n; ++i) if (x[i] > 0.0f) words[i / 32] |= 1u << (i % 32);
}
