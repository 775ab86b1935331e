// Pattern: daschr/cuda-classifier's ls_cl2.cu (a 5-tuple packet classifier's linear search): four
// lanes test one rule's four header fields and the group's first lane takes the rule when all four
// match, `__all_sync(0xf << ((threadIdx.x & 31) - t), r)` with t = threadIdx.x & 3: an int literal
// shifted into bit 31 at lanes 28-31 (defined in C++14, overflow in C).
// Written for kernelport's tests after that pattern (not its text).
// @kp kernel first_match
// @kp grid   ceil_div(rules * 4, 128)
// @kp block  128
// @kp why    four warps of eight rules each; each lane tests one field of its group's rule
// @kp arg    lower  in  uint32_t[rules * 4] integers(0, 8)
// @kp arg    upper  in  uint32_t[rules * 4] integers(4, 12)
// @kp arg    header in  uint32_t[4] integers(3, 6)
// @kp arg    hit    out uint32_t[rules]
// @kp scalar rules = 100
// @kp tolerance exact
// @kp reference first_match_ref(lower, upper, header, hit, rules)
__global__ void first_match(const unsigned* lower, const unsigned* upper, const unsigned* header,
                            unsigned* hit, int rules) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned t = threadIdx.x & 3;
    unsigned mask = 0xf << ((threadIdx.x & 31) - t);  // the caller's own group of four lanes
    unsigned li = i < rules * 4 ? i : 0;
    int r = lower[li] <= header[t] && header[t] <= upper[li];
    int all = __all_sync(mask, r);
    if (t == 0 && i < rules * 4) hit[i >> 2] = all;
}

void first_match_ref(const unsigned* lower, const unsigned* upper, const unsigned* header, unsigned* hit,
                     int rules) {
    for (int j = 0; j < rules; ++j) {
        unsigned all = 1;
        for (int f = 0; f < 4; ++f)
            all &= lower[4 * j + f] <= header[f] && header[f] <= upper[4 * j + f];
        hit[j] = all;
    }
}
