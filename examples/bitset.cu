// bitset.cu - build a bitset of the elements above a threshold: bit i of the bitset is set
// when x[i] > threshold.
//
// Bit i lives in 32-bit word i >> 5 at position i & 31, and is set with atomicOr because
// several threads update the same word.
//
// LOOK-ALIKE: i >> 5, i & 31 and 1u << bit come from the thread index and look exactly like
// a warp/lane split and a lane mask, but they address bits of 32-bit words in memory (data
// layout). There is no warp-level operation; on a 64-wide wave the kernel is still correct
// and nothing must be rewritten. (The grid- and buffer-size 32s are the word width too.)

// @kp kernel     bitset
// @kp grid       ceil_div(n, 256)
// @kp block      256
// @kp why        256 threads, one element each: a multiple of both wave widths, and each block
// @kp why        covers exactly 8 whole 32-bit words of the bitset
// @kp arg        x     in   float[n]                     uniform(0, 1)
// @kp arg        bits  out  unsigned int[ceil_div(n, 32)]
// @kp scalar     n = 100000
// @kp scalar     threshold = 0.5
// @kp reference  bitset_ref(x, bits, n, threshold)
// @kp tolerance  exact
// @kp targets    hip, metal
__global__ void bitset(const float* __restrict__ x, unsigned int* bits, int n, float threshold)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > threshold) {
        unsigned int word = i >> 5;      // which 32-bit word holds bit i
        unsigned int bit  = i & 31;      // position of bit i inside that word
        atomicOr(&bits[word], 1u << bit);
    }
}

// Scalar CPU reference (plain C99).
void bitset_ref(const float* x, unsigned int* bits, int n, float threshold)
{
    int nwords = (n + 31) / 32;
    int i;
    for (i = 0; i < nwords; ++i) {
        bits[i] = 0u;
    }
    for (i = 0; i < n; ++i) {
        if (x[i] > threshold) {
            bits[i / 32] |= 1u << (i % 32);
        }
    }
}
