// @kp kernel     k
// @kp grid       2
// @kp block      32
// @kp arg        x     in   uint32_t[256]  integers(0, 4294967295)
// @kp arg        y     in   uint32_t[256]  integers(0, 4294967295)
// @kp arg        sum   out  uint32_t[320]
// @kp arg        dif   out  uint32_t[320]
// @kp arg        prod  out  uint32_t[512]
// @kp arg        rest  out  uint32_t[320]
// @kp arg        wide  out  uint64_t[192]
__device__ __forceinline__ unsigned int add_cc(const unsigned int x, const unsigned int y) {
  unsigned int result;
  asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(result) : "r"(x), "r"(y));
  return result;
}
__device__ __forceinline__ unsigned int addc_cc(const unsigned int x, const unsigned int y) {
  unsigned int result;
  asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(result) : "r"(x), "r"(y));
  return result;
}
__device__ __forceinline__ unsigned int addc(const unsigned int x, const unsigned int y) {
  unsigned int result;
  asm volatile("addc.u32 %0, %1, %2;" : "=r"(result) : "r"(x), "r"(y));
  return result;
}
__device__ __forceinline__ unsigned int sub_cc(const unsigned int x, const unsigned int y) {
  unsigned int result;
  asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(result) : "r"(x), "r"(y));
  return result;
}
__device__ __forceinline__ unsigned int subc_cc(const unsigned int x, const unsigned int y) {
  unsigned int result;
  asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(result) : "r"(x), "r"(y));
  return result;
}
__device__ __forceinline__ unsigned int subc(const unsigned int x, const unsigned int y) {
  unsigned int result;
  asm volatile("subc.u32 %0, %1, %2;" : "=r"(result) : "r"(x), "r"(y));
  return result;
}
__device__ __forceinline__ unsigned int mad_lo_cc(const unsigned int x, const unsigned int y, const unsigned int z) {
  unsigned int result;
  asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(result) : "r"(x), "r"(y), "r"(z));
  return result;
}
__device__ __forceinline__ unsigned int madc_lo_cc(const unsigned int x, const unsigned int y, const unsigned int z) {
  unsigned int result;
  asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(result) : "r"(x), "r"(y), "r"(z));
  return result;
}
__device__ __forceinline__ unsigned int mad_hi_cc(const unsigned int x, const unsigned int y, const unsigned int z) {
  unsigned int result;
  asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(result) : "r"(x), "r"(y), "r"(z));
  return result;
}
__device__ __forceinline__ unsigned int madc_hi_cc(const unsigned int x, const unsigned int y, const unsigned int z) {
  unsigned int result;
  asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(result) : "r"(x), "r"(y), "r"(z));
  return result;
}
__device__ __forceinline__ unsigned int madc_hi(const unsigned int x, const unsigned int y, const unsigned int z) {
  unsigned int result;
  asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(result) : "r"(x), "r"(y), "r"(z));
  return result;
}
__device__ __forceinline__ unsigned long long add_cc64(const unsigned long long x, const unsigned long long y) {
  unsigned long long result;
  asm volatile("add.cc.u64 %0, %1, %2;" : "=l"(result) : "l"(x), "l"(y));
  return result;
}
__device__ __forceinline__ unsigned long long addc64(const unsigned long long x, const unsigned long long y) {
  unsigned long long result;
  asm volatile("addc.u64 %0, %1, %2;" : "=l"(result) : "l"(x), "l"(y));
  return result;
}

template <unsigned OPS_COUNT = 0xffffffffu, bool CARRY_IN = false> struct carry_chain {
  unsigned index;
  __device__ carry_chain() : index(0) {}
  __device__ __forceinline__ unsigned int add(const unsigned int x, const unsigned int y) {
    index++;
    if (index == 1 && !CARRY_IN)
      return add_cc(x, y);
    else if (index < OPS_COUNT)
      return addc_cc(x, y);
    else
      return addc(x, y);
  }
  __device__ __forceinline__ unsigned int sub(const unsigned int x, const unsigned int y) {
    index++;
    if (index == 1 && !CARRY_IN)
      return sub_cc(x, y);
    else if (index < OPS_COUNT)
      return subc_cc(x, y);
    else
      return subc(x, y);
  }
};
template <bool SUBTRACT> __device__ unsigned int add_sub_member(const unsigned int *x, const unsigned int *y, unsigned int *r) {
  carry_chain<4 + 1> chain;
  for (unsigned i = 0; i < 4; i++)
    r[i] = SUBTRACT ? chain.sub(x[i], y[i]) : chain.add(x[i], y[i]);
  return SUBTRACT ? chain.sub(0, 0) : chain.add(0, 0);
}
// carry_chain's step as a free function (the emulator runs no member call): which instruction by a counter
__device__ unsigned int chain_step(unsigned int *index, unsigned int ops, bool subtract, unsigned int x, unsigned int y) {
  *index = *index + 1;
  if (*index == 1)
    return subtract ? sub_cc(x, y) : add_cc(x, y);
  else if (*index < ops)
    return subtract ? subc_cc(x, y) : addc_cc(x, y);
  else
    return subtract ? subc(x, y) : addc(x, y);
}
__device__ unsigned int add_sub(const unsigned int *x, const unsigned int *y, unsigned int *r, bool subtract) {
  unsigned int index = 0;
  for (unsigned i = 0; i < 4; i++)
    r[i] = chain_step(&index, 4 + 1, subtract, x[i], y[i]);
  return chain_step(&index, 4 + 1, subtract, 0, 0);
}
// acc[0..N] += a * bi (acc[N] zero on entry): the low halves' chain, then the high halves'
__device__ void mad_row(unsigned int *acc, const unsigned int *a, unsigned int bi) {
  acc[0] = mad_lo_cc(a[0], bi, acc[0]);
  for (int i = 1; i < 4; i++)
    acc[i] = madc_lo_cc(a[i], bi, acc[i]);
  acc[4] = addc(acc[4], 0);
  acc[1] = mad_hi_cc(a[0], bi, acc[1]);
  for (int i = 1; i < 4 - 1; i++)
    acc[i + 1] = madc_hi_cc(a[i], bi, acc[i + 1]);
  acc[4] = madc_hi(a[4 - 1], bi, acc[4]);
}
// the rest of a sum whose first word the caller added: its carry-in is the caller's
__device__ unsigned int add_rest(const unsigned int *x, const unsigned int *y, unsigned int *r) {
  for (int i = 1; i < 4; i++)
    r[i] = addc_cc(x[i], y[i]);
  return addc(0, 0);
}
__global__ void k(const unsigned int *x, const unsigned int *y, unsigned int *sum, unsigned int *dif,
                  unsigned int *prod, unsigned int *rest, unsigned long long *wide) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int *a = x + 4 * t, *b = y + 4 * t;
  sum[5 * t + 4] = add_sub(a, b, sum + 5 * t, false);
  dif[5 * t + 4] = add_sub(a, b, dif + 5 * t, true);
  unsigned int *acc = prod + 8 * t;
  for (int j = 0; j < 8; j++)
    acc[j] = 0;
  for (int j = 0; j < 4; j++)
    mad_row(acc + j, a, b[j]);
  unsigned int *r = rest + 5 * t;
  r[0] = add_cc(a[0], b[0]);
  r[4] = add_rest(a, b, r);
  const unsigned long long *w = (const unsigned long long *)a, *v = (const unsigned long long *)b;
  wide[3 * t] = add_cc64(w[0], v[0]);
  wide[3 * t + 1] = addc64(w[1], v[1]);
}
__global__ void k_member(const unsigned int *x, const unsigned int *y, unsigned int *sum, unsigned int *dif) {
  sum[4] = add_sub_member<false>(x, y, sum);
  dif[4] = add_sub_member<true>(x, y, dif);
}
