"""WS rules on lane and warp index arithmetic: `% 32`, `/ 32`, `& 31`, `>> 5`, lane 31 as the last."""
from __future__ import annotations

from ... import backends, dialect, warpshapes, warpwidth
from ...header_lane_macros import definition
from ...warpwidth import LOGICAL, UNDECIDED
from .. import ballotwords
from ..halfvoteports import kept_group_advice
from ..rule import Rule, ex, register
from .ws_sites import SiteRule, _expr_text, _why


@register
class LaneIndexFrom32(SiteRule):
    code, name, fixable = "WS002", "lane-index-from-32", True
    severities = frozenset({"info"})  # a bitmask word's writer: advice (lint/ballotwords.py)
    summary = "A lane index is computed with `% 32`, `& 31` or `& 0x1f` and reaches a warp-level use."
    docs = """\
`lane = threadIdx.x % 32` (or `& 31`, `& 0x1f`) feeding a shuffle, a ballot mask, a per-warp slot
or a leader test.  On a 64-wide wave (AMD CDNA) lanes 32-63 get lane ids 0-31 again: two lanes
claim the same slot, `lane == 0` elects two leaders per wave, shuffles read the wrong lane.

**Fix** (`--fix`): `threadIdx.x % warpSize`, `threadIdx.x & (warpSize - 1)`; identical on NVIDIA.
In a 32-lane group whose votes all take a full mask (outside headers), `kernelport translate` keeps
the 32 instead: each vote over the caller's own CUDA warp, each shuffle at width 32; the message then
names that port (kernelport/lint/halfvoteports.py), and the finding stays, with no `--fix`
(the wave's width there would split the group's layout: tests/test_lint_kept_group_fix.py).

Only values that reach a warp-level use are reported: `i & 31` selecting a bit of a 32-bit word
(bitsets) or `threadIdx.x % 32` inside a 32x32 tile is data layout and stays silent.  A lane whose
only use is `lane == 0` electing the writer of a 32-bit bitmask word `A[i / 32]` that holds a ballot is
advice (info, no fix): the word's width, right at 64 once each 32-lane half has its own bits; the
32-bit ballot is the hazard, reported there (kernelport/lint/ballotwords.py)."""
    flags = (
        ex("""
__global__ void k(float* x) {
    int lane = threadIdx.x % 32;  // !
    int l2 = threadIdx.x & 31;  // !
    float v = __shfl_sync(0xffffffff, x[threadIdx.x], lane + l2);
    x[threadIdx.x] = v;
}"""),
        ex("""
kernel void k(device float* x [[buffer(0)]], uint tid [[thread_position_in_threadgroup]]) {
    uint lane = tid % 32;  // !
    x[tid] = simd_shuffle_xor(x[tid], lane);
}""", lang="metal", note="Metal: use a [[thread_index_in_simdgroup]] parameter"),
        ex("""
#define WS 32
__global__ void k(const int* x, int* out) {
    const int lane = threadIdx.x % WS;
    const unsigned long long t = __ballot_sync(~0ull, x[threadIdx.x] > 0);
#if defined(WS) && (WS == 32)
    const int sublane = lane & 31;  // !
    const unsigned long long bm = t >> (lane & 32);
#else
    const int sublane = lane;
    const unsigned long long bm = t;
#endif
    out[threadIdx.x] = __popcll(bm & ((1ull << sublane) - 1));
}""", note="the branch for WS == 32 is no 64-wide branch: its 31 is a whole warp's"),
    )
    passes = (
        ex("""
#define WS 32
__global__ void k(const int* x, int* out) {
    const int lane = threadIdx.x % WS;
    const unsigned long long t = __ballot_sync(~0ull, x[threadIdx.x] > 0);
#if defined(WS) && (WS == 64)
    const int sublane = lane & 31;  // the lane in its 32-lane half
    const unsigned long long bm = t >> (lane & 32);
#else
    const int sublane = lane;
    const unsigned long long bm = t;
#endif
    out[threadIdx.x] = __popcll(bm & ((1ull << sublane) - 1));
}""", note="a 32 in the branch the preprocessor keeps for a 64-wide wave is half a wave (fpcompress, pfpl)"),
        ex("""
__global__ void bitset(const float* x, unsigned* bits, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > 0.5f) atomicOr(&bits[i >> 5], 1u << (i & 31));
}"""),
        ex("""
__global__ void k(float* x) {
    int lane = threadIdx.x % warpSize;
    x[threadIdx.x] = __shfl_sync(0xffffffff, x[threadIdx.x], (lane + 1) % warpSize);
}"""),
        ex("""
__device__ bool same_as_lane0(int* p) {
    unsigned long long first = __shfl((unsigned long long)p, 0);
    return first == (unsigned long long)p;
}
__global__ void k(int* d, int* out, int s) {
    int* p = d + threadIdx.x % 32;
    out[threadIdx.x] = same_as_lane0(p);
}""", note="an address offset by `% 32` is an address: comparing it across lanes is no lane test"),
    )
    fixes = (("""
__global__ void k(float* x) {
    int lane = threadIdx.x & 31;
    float v = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1);
    if (lane == 0) x[threadIdx.x] = v;
}""", """
__global__ void k(float* x) {
    int lane = threadIdx.x & (warpSize - 1);
    float v = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1);
    if (lane == 0) x[threadIdx.x] = v;
}"""),)

    def offers_fix(self, ctx, s) -> bool:
        return kept_group_advice(ctx, s.function) is None  # the advice keeps this 32: a fix to the wave contradicts it

    def advice(self, ctx, s) -> str | None:
        word = ballotwords.word_writer(ctx, s.node)  # lane 0 of every 32 threads writes a 32-bit ballot word
        return None if word is None else (
            f"`{_expr_text(ctx, s.node)}` elects the writer of each 32-bit bitmask word (`/ 32` of its index): the "
            f"word's width, right at 64 once each 32-lane half has its own bits of `{word}`, whose 32-bit ballot is "
            f"the hazard (reported there); `% warpSize` here would leave the odd words unwritten")

    def message(self, ctx, s) -> str:
        lane = dialect.concept("lane_id").attribute(ctx.lang)  # a dialect passing the lane as a parameter
        kept = kept_group_advice(ctx, s.function)  # translate keeps the group at 32 lanes (halfvoteports)
        return (f"`{_expr_text(ctx, s.node)}` computes a lane index from a hardcoded 32{_why(s)}{definition(ctx, s)}: {ctx.breaks}, "
                f"lanes 32-63 alias lanes 0-31; " + (kept or f"use {ctx.wave} (`% warpSize`, `& (warpSize - 1)`)")
                if lane is None else
                f"`{_expr_text(ctx, s.node)}` computes a SIMD lane from a hardcoded 32{_why(s)}: wrong {ctx.breaks}; "
                f"take the lane from a `[[{lane[1]}]]` parameter")


@register
class WarpIndexFrom32(SiteRule):
    code, name, fixable = "WS003", "warp-index-from-32", True
    summary = "A warp index or warp count is computed with `/ 32` or `>> 5` and reaches a warp-level use."
    docs = """\
`warp = threadIdx.x / 32`, `threadIdx.x >> 5`, `nwarps = blockDim.x / 32` or `(n + 31) / 32` when
the value selects a per-warp slot, a leader warp or bounds the warps that take part.  With 64-wide
waves one wave spans two such "warps": both halves write different slots but only one of them
runs the warp-level code, so per-warp partial results are lost or read uninitialised.

**Fix** (`--fix`): `threadIdx.x / warpSize`, `(blockDim.x + warpSize - 1) / warpSize`; in a
32-lane group translate keeps with each vote over its own CUDA warp, the message names that port
instead and offers no `--fix` (as WS002's).

`i >> 5` selecting a 32-bit word of a bitset never reaches a warp-level use and stays silent."""
    flags = (
        ex("""
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
__global__ void k(const float* x, float* out) {
    __shared__ float partial[64];
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x >> 5;  // !
    float v = warp_sum(x[threadIdx.x]);
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0] + partial[blockDim.x / 32 - 1];  // !
}"""),
        ex("""
#include <cub/cub.cuh>
template <int THREADS>
__global__ void row_dot(const float* a, const float* b, float* out, int k) {
    typedef cub::WarpReduce<float> WarpReduce;
    __shared__ typename WarpReduce::TempStorage temp[THREADS / 32];  // !
    const int warp = threadIdx.x / 32;  // !
    const int row = (THREADS / 32) * blockIdx.x + warp;  // !
    float s = 0.0f;
    for (int i = threadIdx.x % warpSize; i < k; i += warpSize) s += a[row * k + i] * b[i];
    s = WarpReduce(temp[warp]).Sum(s);
    if (threadIdx.x % warpSize == 0) out[row] = s;
}""", note="cub's WarpReduce<T> reduces over the hardware warp: the wave on AMD"),
    )
    passes = (
        ex("""
#include <cub/cub.cuh>
template <int THREADS>
__global__ void row_dot(const float* a, const float* b, float* out, int k) {
    typedef cub::WarpReduce<float, 32> WarpReduce;
    __shared__ typename WarpReduce::TempStorage temp[THREADS / 32];
    const int warp = threadIdx.x / 32;
    const int row = (THREADS / 32) * blockIdx.x + warp;
    float s = 0.0f;
    for (int i = threadIdx.x % 32; i < k; i += 32) s += a[row * k + i] * b[i];
    s = WarpReduce(temp[warp]).Sum(s);
    if (threadIdx.x % 32 == 0) out[row] = s;
}""", note="a logical warp of 32 named in the template: 32-lane groups on every wave"),
        ex("""
__global__ void words(const int* x, unsigned* bits) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned word = i >> 5;
    atomicOr(&bits[word], 1u << (i & 31));
}"""),
    )
    fixes = (("""
__device__ float warp_sum(float v) { return __shfl_down_sync(0xffffffff, v, 1); }
__global__ void k(float* out) {
    __shared__ float s[64];
    s[threadIdx.x / 32] = warp_sum(out[threadIdx.x]);
}""", """
__device__ float warp_sum(float v) { return __shfl_down_sync(0xffffffff, v, 1); }
__global__ void k(float* out) {
    __shared__ float s[64];
    s[threadIdx.x / warpSize] = warp_sum(out[threadIdx.x]);
}"""),)

    def offers_fix(self, ctx, s) -> bool:
        return kept_group_advice(ctx, s.function) is None  # the advice keeps this 32: a fix to the wave contradicts it

    def message(self, ctx, s) -> str:
        kept = kept_group_advice(ctx, s.function)  # translate keeps the group at 32 lanes (halfvoteports)
        return (f"`{_expr_text(ctx, s.node)}` computes a warp index or count from a hardcoded 32{_why(s)}{definition(ctx, s)}: "
                f"{ctx.breaks}, one wave spans two of these warps; " + (kept or f"divide by {ctx.wave} instead"))


@register
class LastLane31(SiteRule):
    code, name, fixable = "WS006", "last-lane-31", True
    summary = "Lane 31 is used as the last lane of a warp."
    docs = """\
`__shfl_sync(m, v, 31)` to broadcast a warp total, or `if (lane == 31)` to pick the lane holding
an inclusive scan's total.  On a 64-wide wave lane 31 is in the middle: the "total" is the sum
of half the wave and the real last lane (63) never writes it.

**Fix** (`--fix`): `warpSize - 1`."""
    flags = (
        ex("""
__global__ void k(float* x, float* totals) {
    int lane = threadIdx.x % warpSize;
    float v = __shfl_sync(0xffffffff, x[threadIdx.x], 31);  // !
    if (lane == 31) totals[threadIdx.x / warpSize] = v;  // !
}"""),
    )
    passes = (
        ex("""
__global__ void k(float* x, float* totals) {
    int lane = threadIdx.x % warpSize;
    float v = __shfl_sync(0xffffffff, x[threadIdx.x], warpSize - 1);
    if (lane == warpSize - 1) totals[threadIdx.x / warpSize] = v;
    x[31] = v;
}"""),
    )
    fixes = (("""
__global__ void k(float* x) {
    x[threadIdx.x] = __shfl_sync(0xffffffff, x[threadIdx.x], 31);
}""", """
__global__ void k(float* x) {
    x[threadIdx.x] = __shfl_sync(0xffffffff, x[threadIdx.x], warpSize - 1);
}"""),)

    def message(self, ctx, s) -> str:
        return (f"`{_expr_text(ctx, s.node)}` treats lane 31 as the last lane of a warp{_why(s)}: {ctx.breaks}, "
                f"lane 31 is mid-wave and the real last lane never takes part; use {ctx.wave} - 1")


# A kernel launched in rows of 32 threads whose rows each reduce with a default-width cub collective.
_ROW_DOT = """
#include <cub/cub.cuh>
__global__ void row_dot(const float* w, const float* x, float* out, int n) {
    typedef cub::WarpReduce<float> WarpReduce;  // !
    __shared__ typename WarpReduce::TempStorage temp[8];
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += 32) s += w[i] * x[threadIdx.y * n + i];
    s = WarpReduce(temp[threadIdx.y]).Sum(s);
    if (threadIdx.x == 0) out[blockIdx.x * 8 + threadIdx.y] = s;
}
void launch(const float* w, const float* x, float* out, int n, int rows) {
    dim3 threads(32, 8);
    row_dot<<<rows / 8, threads>>>(w, x, out, n);
}"""


@register
class ShuffleSpansRows(Rule):
    code, name = "WS018", "shuffle-spans-32-lane-rows"
    summary = ("A shuffle from a source lane, or a library warp collective, runs at the default width in code "
               "that works in rows of 32 lanes.")
    docs = """\
The kernel's launch makes each row of 32 threads a group of its own (`dim3 threads(32, 4)`, a
`blockDim.x == 32` guard), and a shuffle from a source lane (`__shfl_sync(m, v, lane)`, PyTorch's
`WARP_SHFL(v, lane)`) leaves the width at its default, the hardware warp.  On NVIDIA that is the
row.  On a 64-wide wave (AMD CDNA) two rows share the wave: lanes 32-63 read lanes 0-31, the other
row's values (a broadcast from lane 0 hands every second row the first row's result).  So also where the
kernel votes (a ballot that may see two rows leaves its width undecided: WS008's), its rows of 32 as evident;
there `kernelport translate` keeps the rows (each vote over the caller's CUDA warp, the shuffle at width 32), and
the finding says so: the hazard is a hand port's or hipify's.

**Fix**: pass the width 32 (`__shfl_sync(m, v, lane, 32)`, `WARP_SHFL(v, lane, 32)`): CUDA's
semantics on every wave width (this is what `kernelport translate` writes for a 32-lane group).

A library warp collective left at its default width (`cub::WarpReduce<float>`, `WarpScan<T>`: the
hardware warp, 64 lanes under hipcub on CDNA) in a kernel launched in rows of 32 threads is the same
hazard: one collective sums two rows (kaldi's mel-bank and batched-GEMV kernels, `dim3(32, 8)`).
It is reported at the collective, with the blocks of the launches that make the rows as related
locations (the line a port changes when it launches rows of the wave width instead).  **Fix**: give
the collective the width 32 (`WarpReduce<float, 32>`), or launch rows of the wave width.

Stays silent on `xor` butterflies with masks below 32 (they never leave an aligned half of the
wave), on shuffles with an explicit width, on collectives given their width, and on blocks of at
most 32 threads (no second row)."""
    flags = (
        ex("""
__global__ void row_sum(const float* x, float* out) {
    float v = x[blockIdx.x * 128 + threadIdx.y * 32 + threadIdx.x];
    for (int o = 1; o < 32; o *= 2) v += __shfl_sync(0xffffffff, v, (threadIdx.x + o) & 31);  // !
    out[blockIdx.x * 4 + threadIdx.y] = __shfl_sync(0xffffffff, v, 0);  // !
}
void launch(const float* x, float* out, int n) {
    dim3 threads(32, 4, 1);
    row_sum<<<n, threads>>>(x, out);
}"""),
        ex("""
#include <THC/THCDeviceUtils.cuh>
__global__ void row_mean(const float* x, float* out, int n) {
    float v = x[blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += WARP_SHFL_XOR(v, o);
    out[blockIdx.x * 8 + threadIdx.y] = WARP_SHFL(v, 0) / n;  // !
}
void launch(const float* x, float* out, int n) {
    const dim3 threads(32, 8, 1);
    row_mean<<<n, threads>>>(x, out, n);
}""", note="PyTorch's WARP_SHFL: its width defaults to warpSize"),
        ex(_ROW_DOT, note="cub's WarpReduce<T> is the hardware warp: on a 64-lane wave it sums two rows"),
    )
    passes = (
        ex("""
__global__ void row_sum(const float* x, float* out) {
    float v = x[blockIdx.x * 128 + threadIdx.y * 32 + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    out[blockIdx.x * 4 + threadIdx.y] = __shfl_sync(0xffffffff, v, 0, 32);
}
void launch(const float* x, float* out, int n) {
    dim3 threads(32, 4, 1);
    row_sum<<<n, threads>>>(x, out);
}"""),
        ex("""
__global__ void warp_sum(const float* x, float* out) {
    float v = x[threadIdx.x];
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    out[blockIdx.x] = __shfl_sync(0xffffffff, v, 0);
}
void launch(const float* x, float* out, int n) { warp_sum<<<n, 256>>>(x, out); }""",
           note="a block of whole waves: the shuffle's default width is the group"),
        ex("""
#include <THC/THCDeviceUtils.cuh>
__global__ void row_mean(const float* x, float* out, int n) {
    float v = x[blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += WARP_SHFL_XOR(v, o);
    out[blockIdx.x * 8 + threadIdx.y] = WARP_SHFL(v, 0, 32) / n;
}
void launch(const float* x, float* out, int n) {
    const dim3 threads(32, 8, 1);
    row_mean<<<n, threads>>>(x, out, n);
}""", note="the width passed: each row shuffles within itself"),
        ex(_ROW_DOT.replace("WarpReduce<float> WarpReduce;  // !", "WarpReduce<float, 32> WarpReduce;"),
           note="a logical warp of 32 named in the template: each row reduces within itself"),
    )

    def check(self, ctx) -> None:
        if not ctx.analysis.wave_shuffles and not ctx.analysis.wave_collectives:
            return  # (both loops read nothing else: the widths are not asked for, lazy_widths)
        widths = ctx.analysis.widths
        if widths is None:
            return
        for call, key, fn in ctx.analysis.wave_shuffles:
            g = widths.by_function.get(fn) if fn is not None else None
            if g is None or not _rows(g) or not g.shares_wave or "lane" not in dialect.concept(key).params:
                continue
            if ctx.guarded(call):
                continue
            kept = "" if g.width == LOGICAL or kept_group_advice(ctx, fn) is None else \
                " (as `kernelport translate` does: its port keeps this group at 32 lanes, each vote over the " \
                "caller's own CUDA warp; a hand port or hipify does not)"
            ctx.report(self, call, f"`{_expr_text(ctx, call)}` shuffles at the default width, the whole wave, but "
                       f"this code works in rows of 32 lanes ({g.why}): {ctx.breaks} two rows share a wave and "
                       f"lanes 32-63 read the other row's lanes; pass the width 32{kept}")
        self._collectives(ctx, widths)

    def _collectives(self, ctx, widths) -> None:  # (not `_rows`: a collective in an undecided group is KP219's)
        """A library warp collective at its default width (the hardware warp) in a kernel launched in
        rows of 32 threads: reported at the collective, with the launches that make the rows."""
        for fname in sorted(ctx.analysis.wave_collectives):
            g, f = widths.by_function.get(fname), ctx.function_of(fname)
            if g is None or f is None or g.width != LOGICAL or not g.shares_wave:
                continue
            rows = [r for k in sorted(g.functions) if (kf := ctx.function_of(k)) is not None and kf.is_kernel
                    for r in warpwidth.row_launches(kf, ctx.module)]
            if not rows:
                continue  # rows from a guard or an annotation: the kernel asks for them itself
            related = tuple(ctx.related(where, "the block of a launch of this kernel: rows of 32 threads",
                                       site=True)
                            for _launch, where in rows)
            for t in warpshapes.wave_collective_types(ctx.src, backends.source().name, f):
                if ctx.guarded(t):
                    continue
                ctx.report(self, t, f"`{ctx.text(t)}` works at its default width, the hardware warp, but this "
                           f"kernel is launched in rows of 32 threads ({g.why}): {ctx.breaks} two rows share a "
                           f"wave and one collective mixes them; give it the width 32 (`{ctx.text(t)[:-1]}, 32>`) "
                           f"or launch rows of the wave width", related=related)


def _rows(g) -> bool:
    """Whether the group works in 32-lane rows as written: logical, or undecided only for its votes where the rows'
    evidence is 32-lane (`half_votes`: a ballot that may see two rows, WS008's; its source-lane shuffles at the default
    width read the other row at 64 all the same: heldout94's konfoton `__shfl_sync(mask, max, 0)`)."""
    return g.width == LOGICAL or (g.width == UNDECIDED and g.half_votes)
