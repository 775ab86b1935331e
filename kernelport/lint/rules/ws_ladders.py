"""WS rules on shuffle ladders and scans that start at 16 or stop at 32 lanes."""
from __future__ import annotations

from ... import dialect
from .. import deadladders, leaderfolds
from ..rule import ex, register
from .ws_sites import SiteRule, _expr_text, _has_wide_step, site_codes, site_fix


@register
class ShuffleLadderFrom16(SiteRule):
    def check(self, ctx) -> None:
        for s, code in site_codes(ctx):
            if code == self.code and not (s.role == "ladder" and _has_wide_step(ctx, s.node)) and \
                    not leaderfolds.leader_fold(ctx, leaderfolds.loop_of_start(s.node)) and \
                    not (s.role == "ladder" and leaderfolds.unrolled_fold(ctx, s.node)) and \
                    not deadladders.discarded(ctx, s.node, s.role):
                ctx.report(self, s.node, self.message(ctx, s), fix=site_fix(ctx, s))

    code, name, fixable = "WS004", "shuffle-ladder-from-16", True
    summary = "A shuffle reduction ladder starts at 16 (loop or unrolled)."
    docs = """\
`for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(m, v, o);` or the unrolled
`__shfl_xor_sync(m, v, 16); ... 8 ... 1`.  Starting at 16 folds 32 lanes: on a 64-wide wave lanes
32-63 are never combined with lanes 0-31, so every warp reduction returns half the answer.

**Fix** (`--fix`): start the loop at `warpSize / 2`; for an unrolled ladder, add a first step
`if (warpSize > 32) v += __shfl_xor_sync(m, v, 32);` (never taken on NVIDIA).  The other steps keep
their literals, the tests that guard them too: in `if (n >= 32) v += __shfl_down_sync(m, v, 16);`
32 is the step's threshold (twice its delta), so the step at 32 is taken where `n >= 64`; a step
split over statements (`y = __shfl_up_sync(m, v, 16); if (lane >= 16) v += y;`) is copied whole.

A shuffle with an explicit width argument (`__shfl_down_sync(m, v, o, 16)`) is a logical sub-warp
the code means, and stays silent, as does a ladder whose step at 16 is followed by the project's own
wave-64 branch taking the step at 32 (`#if WS == 64  v += __shfl_xor_sync(m, v, 32);  #endif`, WS a
wave-width selector: kernelport/wavebranches.py).  So does a ladder from 16 (a loop, or unrolled 16, 8, 4, 2, 1)
under `if (tid < 32)` or after `if (tid >= 32) return;` (tid the 1D block's `threadIdx.x` or the linear thread
index) whose result only `if (tid == 0)` reads: the first 32 threads fold their 32 values, and at wave 64 lane 0
reads only lanes 0-31 (kernelport/lint/leaderfolds.py).  A ladder whose result nothing reads after it (a helper
that folds a copy and returns its argument) computes the same at any width: silent (kernelport/lint/deadladders.py).
An unrolled ladder whose steps a function template guards by its integer width parameter (`if (W >= 64) ... 32;
if (W >= 32) ... 16; ...`, muxi-spmv's warpReduceSum) is the loop from `W / 2` written out: it folds W lanes, and its
guarded step at 32 is half of a group over 32 lanes (no WS017 either); a guard that admits 32 lanes, a run-time
guard or a ladder from 16 with no such step before it is reported (kernelport/lint/widthguards.py)."""
    flags = (
        ex("""
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2)  // !
        v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}"""),
        ex("""
__device__ float warp_max(float v) {
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 16));  // !
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 8));
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 4));
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 2));
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 1));
    return v;
}"""),
        ex("""
kernel void k(device float* x [[buffer(0)]], uint tid [[thread_position_in_threadgroup]]) {
    float v = x[tid];
    for (ushort o = 16; o > 0; o /= 2)  // !
        v += simd_shuffle_down(v, o);
    x[tid] = v;
}""", lang="metal", note="Metal: start at threads_per_simdgroup / 2, or use simd_sum"),
    )
    passes = (
        ex("""
__global__ void block_sum(const float* x, float* out) {
    __shared__ float s[1024];
    s[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (unsigned h = blockDim.x / 2; h >= 32; h >>= 1) {
        if (threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x < 32) {
        float v = s[threadIdx.x];
        for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
        if (threadIdx.x == 0) out[blockIdx.x] = v;
    }
}""", note="32 partials folded by the first 32 threads, lane 0's result alone used"),
        ex("""
__device__ float group16_sum(float v) {
    for (int o = 8; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o, 16);
    return v;
}"""),
        ex("""
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}"""),
    )
    fixes = (("""
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}""", """
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}"""), ("""
__device__ float warp_max(float v) {
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 16));
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 8));
    return v;
}""", """
__device__ float warp_max(float v) {
    if (warpSize > 32) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, warpSize / 2));
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 16));
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 8));
    return v;
}"""))

    def message(self, ctx, s) -> str:
        kind = "an unrolled shuffle ladder" if s.role == "ladder" else "a shuffle ladder"
        width = dialect.concept("warp_size").attribute(ctx.lang)  # a dialect passing it as a parameter
        whole = dialect.concept("simd_sum").name(ctx.lang)
        start = f"`{width[1]} / 2`" + (f" (or `{whole}`)" if whole else "") if width else \
            "`warpSize / 2` (unrolled: add a guarded step at 32 first)"
        return (f"{kind} starts at 16 and folds only 32 lanes: {ctx.breaks}, lanes 32-63 are never combined with "
                f"lanes 0-31, so the reduction returns a partial result; start at {start}")


@register
class ScanBound32(SiteRule):
    code, name, fixable = "WS005", "scan-bound-32", True
    summary = "A shuffle scan or ladder loop is bounded by 32 (`d < 32`)."
    docs = """\
`for (int d = 1; d < 32; d *= 2) { t = __shfl_up_sync(m, v, d); if (lane >= d) v += t; }` scans
32 lanes: on a 64-wide wave the last step (distance 32) is missing and lanes 32-63 only see
their own half of the wave.

**Fix** (`--fix`): `d < warpSize`.  A loop over 32 register elements that does not bound a
shuffle stays silent."""
    flags = (
        ex("""
__global__ void scan(float* x) {
    int lane = threadIdx.x % warpSize;
    float v = x[threadIdx.x];
    for (int d = 1; d < 32; d *= 2) {  // !
        float t = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d) v += t;
    }
    x[threadIdx.x] = v;
}"""),
    )
    passes = (
        ex("""
__device__ float sum32(const float* r) {
    float acc = 0.0f;
    for (int i = 0; i < 32; ++i) acc += r[i];
    return acc;
}"""),
    )
    fixes = (("""
__global__ void scan(float* x) {
    float v = x[threadIdx.x];
    for (int d = 1; d < 32; d *= 2) v += __shfl_up_sync(0xffffffff, v, d);
    x[threadIdx.x] = v;
}""", """
__global__ void scan(float* x) {
    float v = x[threadIdx.x];
    for (int d = 1; d < warpSize; d *= 2) v += __shfl_up_sync(0xffffffff, v, d);
    x[threadIdx.x] = v;
}"""),)

    def message(self, ctx, s) -> str:
        return (f"`{_expr_text(ctx, s.node)}` bounds a shuffle scan at 32 lanes: {ctx.breaks}, the step at distance "
                f"32 is missing and lanes 32-63 never see lanes 0-31; bound it by {ctx.wave}")
