// Pattern: NVlabs/CGBN's thread groups (core_t<env>::pop_count, core_counting.cu; the mask of
// core.cu's instance_sync_mask): TPI lanes of a warp hold one big number, one 32-bit limb each;
// each shuffle names the caller's own group, a mask built from the lane id, with width TPI.
// Written for kernelport's tests after that pattern (not CGBN's text).
// @kp kernel group_popcount
// @kp grid   ceil_div(numbers * 8, 128)
// @kp block  128
// @kp why    sixteen numbers of eight limbs per block
// @kp arg    limbs in  uint32_t[numbers * 8] integers(0, 4294967295)
// @kp arg    out   out uint32_t[numbers * 8]
// @kp scalar numbers = 40
// @kp tolerance exact
// @kp reference group_ref(limbs, out, numbers)
template <int TPI>
__device__ unsigned group_pop_count(unsigned limb) {
    unsigned group_thread = threadIdx.x & TPI - 1, warp_thread = threadIdx.x & 31;
    const unsigned TPI_ONES = (1ull << TPI) - 1;
    unsigned sync = TPI_ONES << (group_thread ^ warp_thread);
    unsigned total = __popc(limb);
    for (int index = TPI / 2; index > 0; index = index >> 1)
        total += __shfl_xor_sync(sync, total, index, TPI);
    unsigned first = __shfl_sync(sync, limb, 0, TPI);       // the group's lowest limb
    unsigned below = __shfl_up_sync(sync, limb, 1, TPI);     // the next lower limb (lane 0: its own)
    return total * 2 + (first & 1) + (below & 1);
}

__global__ void group_popcount(const unsigned* limbs, unsigned* out, int numbers) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned limb = t < numbers * 8 ? limbs[t] : 0u;
    unsigned r = group_pop_count<8>(limb);
    if (t < numbers * 8) out[t] = r;
}

void group_ref(const unsigned* limbs, unsigned* out, int numbers) {
    for (int n = 0; n < numbers; ++n) {
        unsigned total = 0;
        for (int j = 0; j < 8; ++j) total += __builtin_popcount(limbs[n * 8 + j]);
        for (int j = 0; j < 8; ++j) {
            unsigned below = limbs[n * 8 + (j > 0 ? j - 1 : 0)];
            out[n * 8 + j] = total * 2 + (limbs[n * 8] & 1) + (below & 1);
        }
    }
}
