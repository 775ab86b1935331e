// Pattern: NVlabs/CGBN's thread groups voting (core_t<env>'s carry resolution and comparisons:
// `__ballot_sync(sync, carry)`, `__any_sync(sync, ...)`, `__all_sync(sync, ...)` with the mask of
// core.cu's instance_sync_mask): TPI lanes of a warp hold one big number, one 32-bit limb each; each
// vote names the caller's own group, a mask built from the lane id. Groups of 4, 8 and 16 lanes.
// Written for kernelport's tests after that pattern (not CGBN's text).
// @kp kernel group_votes
// @kp grid   ceil_div(numbers * 16, 128)
// @kp block  128
// @kp why    eight numbers of sixteen limbs per block; each lane votes in its groups of 4, 8 and 16
// @kp arg    limbs  in  uint32_t[numbers * 16] integers(0, 4294967295)
// @kp arg    odd    out uint32_t[numbers * 48]
// @kp arg    flags  out uint32_t[numbers * 16]
// @kp scalar numbers = 40
// @kp tolerance exact
// @kp reference votes_ref(limbs, odd, flags, numbers)
template <int TPI>
__device__ unsigned group_sync() {  // core.cu's instance_sync_mask: the caller's own group of TPI lanes
    unsigned group_thread = threadIdx.x & TPI - 1, warp_thread = threadIdx.x & 31;
    const unsigned TPI_ONES = (1ull << TPI) - 1;
    return TPI_ONES << (group_thread ^ warp_thread);
}

template <int TPI>
__device__ unsigned group_odd(unsigned limb) {
    unsigned sync = group_sync<TPI>();
    return __ballot_sync(sync, limb & 1);  // the group's odd limbs, at their lanes of the warp
}

template <int TPI>
__device__ unsigned group_flags(unsigned limb) {
    unsigned sync = group_sync<TPI>();
    int some = __any_sync(sync, limb % (2 * TPI) == 0);         // some limb of the group divides evenly
    int every = __all_sync(sync, (limb & (2 * TPI - 1)) != 0);  // no limb of the group does
    return (unsigned)some | (unsigned)every << 1;
}

__global__ void group_votes(const unsigned* limbs, unsigned* odd, unsigned* flags, int numbers) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned limb = t < numbers * 16 ? limbs[t] : 0u;
    unsigned o4 = group_odd<4>(limb), o8 = group_odd<8>(limb), o16 = group_odd<16>(limb);
    unsigned f = group_flags<4>(limb) | group_flags<8>(limb) << 2 | group_flags<16>(limb) << 4;
    if (t < numbers * 16) {
        odd[3 * t] = o4;
        odd[3 * t + 1] = o8;
        odd[3 * t + 2] = o16;
        flags[t] = f;
    }
}

void votes_ref(const unsigned* limbs, unsigned* odd, unsigned* flags, int numbers) {
    for (int t = 0; t < numbers * 16; ++t) {
        flags[t] = 0;
        for (int k = 0; k < 3; ++k) {
            int g = 4 << k, first = t & ~(g - 1);
            unsigned bits = 0, some = 0, every = 1;
            for (int j = 0; j < g; ++j) {
                unsigned limb = limbs[first + j];
                if (limb & 1) bits |= 1u << ((first + j) % 32);
                if (limb % (2 * g) == 0) some = 1;
                if ((limb & (2 * g - 1)) == 0) every = 0;
            }
            odd[3 * t + k] = bits;
            flags[t] |= (some | every << 1) << (2 * k);
        }
    }
}
