"""WS rules on per-warp shared arrays and host launch geometry sized from a 32-wide warp."""
from __future__ import annotations

import functools
import re
from pathlib import Path

from tree_sitter import Node

from ... import backends, dialect, fnscopes, warpflow
from ...warpwidth import LOGICAL
from ...source import call_args, walk
from .. import matched_widths, rowsplits
from ...laneslots import _bounded, lane_pattern
from ..rule import Rule, ex, register
from ...blocksizes import launch_block_sizes
from .ws_counts import wave_tiled_kernels
from .ws_sites import _LANE_ARRAY, _expr_text, _parent_op, _shared_dim, _why, holds_at_64, site_codes
from ... import lazy_re


# The softmax samples' block max: per-warp maxima at the warp index, the second stage under `lane < nwarps`.
_BLOCK_MAX = """
constexpr size_t BLOCK_SIZE = 256;
__global__ void set_lowest(float* v) { *v = -1e30f; }
__global__ void max_kernel(float* input, float* output, int N) {
    __shared__ float s_mem[32];
    int idx = blockDim.x * blockIdx.x + threadIdx.x;
    int warpId = threadIdx.x / warpSize;
    int laneId = threadIdx.x % warpSize;
    float val = (idx < N) ? input[idx] : -1e30f;
    for (int offset = warpSize >> 1; offset > 0; offset >>= 1)
        val = fmaxf(val, __shfl_down_sync(0xFFFFFFFF, val, offset));
    if (laneId == 0) s_mem[warpId] = val;
    __syncthreads();
    if (warpId == 0) {
        int warpNum = blockDim.x / warpSize;
        val = (laneId < warpNum) ? s_mem[laneId] : -1e30f;
        for (int offset = warpSize >> 1; offset > 0; offset >>= 1)
            val = fmaxf(val, __shfl_down_sync(0xFFFFFFFF, val, offset));
        if (laneId == 0) output[blockIdx.x] = val;
    }
}
void call_max(float* input_device, float* max_device, int N) {
    int block_size = BLOCK_SIZE;
    int grid_size = (N + BLOCK_SIZE - 1) / BLOCK_SIZE;
    set_lowest<<<1, 1>>>(max_device);
    max_kernel<<<grid_size, block_size>>>(input_device, max_device, N);
}"""


@register
class PerWarpShared32(Rule):
    code, name = "WS011", "per-warp-shared-array-32"
    summary = "A shared array sized 32 holds one slot per lane or per warp."
    docs = """\
`__shared__ float partial[32];` written at `partial[warp]` and read back at `partial[lane]`.  The
32 encodes "at most 32 warps per block, read by the 32 lanes of one warp": on a 64-wide wave the
second stage reads `partial[lane]` for lanes up to 63 (out of bounds), and on a wave-32 port of
a 64-lane assumption the slots run out.

**Fix**: size it with a compile-time wave constant (64 under `__GFX9__`, else 32; `KP_WAVE_SIZE`
in kernelport's HIP ports), or `1024 / 32 = 32` slots read only by lanes `< nwarps`.  A tile
(`tile[32][33]`) indexed by thread coordinates stays silent, and so does an array stored at the
warp index (at most 1024 / 64 = 16 warps; a 32-lane `threadIdx.x >> 5` counts at most 32, its own
width being WS003's) and read at a lane only under `lane < nwarps`, or under a bound on the thread
index the lane is taken from (`threadIdx.x < nwarps` for `lane = threadIdx.x & (warpSize - 1)`).

The array may be handed to a helper, in the file or in a header it includes (LightGBM's
`ShufflePrefixSum(value, shared_mem_buffer)`): when the helper stores through that parameter at
a lane index taken from the run-time wave width (`threadIdx.x % warpSize`) with no upper bound on
the lane, lanes 32-63 write past the 32 slots.  A helper that stores at the warp index only (at
most 16 warps of 64 lanes in a block), or at a lane of a 32-lane group (`% 32`), stays silent."""
    flags = (
        ex("""
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
__global__ void k(const float* x, float* out) {
    __shared__ float partial[32];  // !
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    float v = warp_sum(x[threadIdx.x]);
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (warp == 0) out[blockIdx.x] = warp_sum(partial[lane]);
}"""),
        ex("""
__device__ float block_scan(float v, float* slots) {
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    if (lane == warpSize - 1) slots[warp] = v;
    __syncthreads();
    if (warp == 0) slots[lane] = __shfl_up_sync(0xffffffff, slots[lane], 1);
    __syncthreads();
    return v + (warp ? slots[warp - 1] : 0.f);
}
__global__ void scan(float* x) {
    __shared__ float buffer[32];  // !
    x[threadIdx.x] = block_scan(x[threadIdx.x], buffer);
}"""),
        ex(_BLOCK_MAX.replace("(laneId < warpNum) ? s_mem[laneId] : -1e30f", "s_mem[laneId]")
           .replace("float s_mem[32];", "float s_mem[32];  // !"),
           note="the second stage reads `s_mem[laneId]` with no bound: lanes 32-63 of a 64-lane wave"),
    )
    passes = (
        ex("""
__device__ float block_sum(float v, float* slots) {
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) slots[warp] = v;
    __syncthreads();
    int nwarps = blockDim.x / warpSize;
    if (warp == 0 && lane < nwarps) slots[lane] = slots[lane] * 2.f;
    return v;
}
__global__ void sum(float* x) {
    __shared__ float buffer[32];
    x[blockIdx.x] = block_sum(x[threadIdx.x], buffer);
}""", note="the helper stores at the warp index, and at a lane only below the warp count"),
        ex("""
__device__ float group_scan(float v, float* slots) {
    int lane = threadIdx.x % 32, group = threadIdx.x / 32;
    if (lane == 31) slots[group] = v;
    __syncthreads();
    if (group == 0) slots[lane] = __shfl_up_sync(0xffffffff, slots[lane], 1, 32);
    __syncthreads();
    return v + (group ? slots[group - 1] : 0.f);
}
__global__ void scan32(float* x) {
    __shared__ float buffer[32];
    x[threadIdx.x] = group_scan(x[threadIdx.x], buffer);
}""", note="a 32-lane logical group: its lanes stop at 31 on any wave"),
        ex(_BLOCK_MAX, note="stored at the warp index (at most 16 warps of 64 lanes), read at a lane only below the "
                            "warp count"),
        ex(_BLOCK_MAX.replace("int warpId = threadIdx.x / warpSize;", "int warpId = threadIdx.x >> 5;")
           .replace("int laneId = threadIdx.x % warpSize;", "int laneId = threadIdx.x & (warpSize - 1);")
           .replace("(laneId < warpNum) ? s_mem[laneId]", "(threadIdx.x < warpNum) ? s_mem[laneId]"),
           note="Apache Mahout's block sum: a 32-lane warp index of the block (at most 1024 / 32 = 32; the `>> 5` is "
                "WS003's), and a lane bounded through the thread index it is taken from"),
        ex("""
__global__ void transpose(float* o, const float* i, int w) {
    __shared__ float tile[32][33];
    tile[threadIdx.y][threadIdx.x] = i[threadIdx.y * w + threadIdx.x];
    __syncthreads();
    o[threadIdx.x * w + threadIdx.y] = tile[threadIdx.x][threadIdx.y];
}"""),
    )

    def check(self, ctx) -> None:
        done = set()
        for s, code in site_codes(ctx):
            if code == self.code:
                name = _shared_dim(ctx, s.node)
                done.add((s.node.start_byte, s.node.end_byte))
                if holds_at_64(ctx, s):
                    continue
                ctx.report(self, s.node, self._msg(ctx, name, "32"))
        # Arrays of 32 indexed by a portable lane or warp index (`tid % warpSize`, `tid / warpSize`): the
        # dataflow confirms only literal sources, but the 32 slots are still too few for 64 lanes.
        lanes = _portable_lane_vars(ctx)
        if lanes:
            for sh in ctx.module.shared:
                dims32 = [d for d in sh.dims if d.type == "number_literal" and warpflow.int_value(ctx.text(d)) == 32
                          and (d.start_byte, d.end_byte) not in done and not ctx.guarded(d)]
                if dims32 and _indexed_by(ctx, sh, lanes):
                    for d in dims32:
                        ctx.report(self, d, self._msg(ctx, sh.name, "32"))
        # Arrays of 32 handed to a helper (of this file or its headers) that stores through that
        # parameter at a full-wave lane index (LightGBM's `ShufflePrefixSum(v, buf)`).
        for sh, d, helper, where in _passed_to_lane_stores(ctx):
            if (d.start_byte, d.end_byte) not in done:
                done.add((d.start_byte, d.end_byte))
                ctx.report(self, d, f"shared array `{sh.name}` has 32 slots and `{helper}` ({where}) stores into it "
                                    f"at a lane index (% {ctx.wave}): {ctx.breaks}, lanes 32-63 write past its "
                                    f"end; size it with a per-architecture wave constant (64 under `__GFX9__`, else 32)")
        # Per-warp arrays sized by a hardcoded macro (`partial[WARP_SIZE]`).
        warp_arrays = {m.group(1) for s in ctx.analysis.sites if s.confirmed for m in [_LANE_ARRAY.search(s.why)] if m}
        for sh in ctx.module.shared:
            if sh.name not in warp_arrays:
                continue
            for d in sh.dims:
                if d.type == "identifier" and ctx.text(d) in ctx.hardcoded_macros and not ctx.guarded(d):
                    ctx.report(self, d, self._msg(ctx, sh.name, ctx.text(d)))

    def _msg(self, ctx, name, size) -> str:
        return (f"shared array `{name}` has {size} slots, one per lane or warp: {ctx.breaks}, lanes 32-63 index "
                f"past its end; size it with a per-architecture wave constant (64 under `__GFX9__`, else 32)")


_PORTABLE_LANE = lazy_re.compile(r"(%|/)\s*warpSize\b|&\s*\(\s*warpSize\s*-\s*1\s*\)|__lane_id\s*\(")


def _portable_lane_vars(ctx) -> set[str]:
    """Locals holding a lane or warp index computed from warpSize (`lane = tid % warpSize`)."""
    out = set()
    for n in ctx.nodes("init_declarator"):
        if True:
            v, d = n.child_by_field_name("value"), n.child_by_field_name("declarator")
            if v is not None and d is not None and d.type == "identifier" and _PORTABLE_LANE.search(ctx.text(v)):
                out.add(ctx.text(d))
    return out


def _passed_to_lane_stores(ctx):
    """(shared array, its 32 dimension, helper, where the helper stores) for each `__shared__ T
    s[32]` passed to a helper that stores through that parameter at a full-wave lane index."""
    from ...laneslots import lane_written_params
    helpers = {n: (pos, f"line {ctx.position(node.start_byte)[0]}")
               for n, (pos, node) in lane_written_params(ctx.module).items()}
    vis = ctx.module.visible
    for n, (pos, path, line) in (vis.lane_slots.items() if vis is not None else ()):
        helpers.setdefault(n, (pos, f"{Path(path).name}:{line}"))
    if not helpers:
        return
    owner = functools.partial(fnscopes.owner, ctx.module)  # by key: a::k's `s` is not b::k's
    arrays = {(owner(sh.node), sh.name): (sh, d) for sh in ctx.module.shared for d in sh.dims
              if d.type == "number_literal" and warpflow.int_value(ctx.text(d)) == 32 and not ctx.guarded(d)}
    for call in ctx.nodes("call_expression"):
        fn = call.child_by_field_name("function")
        while fn is not None and fn.type in ("template_function", "qualified_identifier"):
            fn = fn.child_by_field_name("name")
        name = ctx.text(fn) if fn is not None else None
        if name not in helpers:
            continue
        pos, where = helpers[name]
        caller = owner(call)
        for i, arg in enumerate(call_args(call)):
            key = (caller, ctx.text(arg))
            if i in pos and arg.type == "identifier" and key in arrays:
                sh, d = arrays[key]
                yield sh, d, name, where


def _indexed_by(ctx, sh, names: set[str]) -> bool:
    """Whether `sh` is indexed by a lane with no upper bound on it: a warp index (`tid / warpSize`)
    counts at most 1024 / 64 = 16 warps, and a lane under `lane < nwarps` (the second stage's
    `(lane < nwarps) ? partial[lane] : 0`) stays below the 32 slots (laneslots: the same for helpers)."""
    lanes = {v for v in names if v in _lane_vars(ctx)}
    for n in ctx.nodes("subscript_expression"):
        base = n
        while base.type == "subscript_expression":
            base = base.child_by_field_name("argument")
        if base.type == "identifier" and ctx.text(base) == sh.name:
            idx = ctx.text(n.child_by_field_name("indices"))
            if any(re.search(rf"\b{re.escape(v)}\b", idx) for v in lanes) or lane_pattern().search(idx):
                fn = ctx.module.function_at(n)
                if not _bounded(ctx.src, n, fn.body if fn is not None else None, lanes):
                    return True
    return False


def _lane_vars(ctx) -> set[str]:
    """The locals of `_portable_lane_vars` that hold a lane (`tid % warpSize`), not a warp index."""
    out = set()
    for n in ctx.nodes("init_declarator"):
        v, d = n.child_by_field_name("value"), n.child_by_field_name("declarator")
        if v is not None and d is not None and d.type == "identifier" and lane_pattern().search(ctx.text(v)):
            out.add(ctx.text(d))
    return out


# A kernel folding groups of 32 lanes (a 16-step ladder, then lane 0's value to every lane).
_GROUP_SUM = """
#define WARP_SIZE 32
__device__ float group_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return __shfl_sync(0xffffffff, v, 0);
}
__global__ void normalize(const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i] / group_sum(x[i]);
}
void launch(const float* x, float* y, int n) {
    dim3 block(BLOCK, 1, 1);
    normalize<<<n / block.x, block>>>(x, y);
}"""


# Host tiers of a kernel whose traits size a cub block load by the thread count (mamba's selective scan).
_SCAN_TIERS = """
#include <cub/block/block_load.cuh>
template <int kNThreads_, int kNItems_>
struct Traits {
    static constexpr int kNThreads = kNThreads_;
    using BlockLoadT = cub::BlockLoad<float, kNThreads, kNItems_, cub::ALGORITHM>;
};
template <typename Ktraits>
__global__ void scan(float* x) {
    __shared__ typename Ktraits::BlockLoadT::TempStorage smem;
    float v[4];
    typename Ktraits::BlockLoadT(smem).Load(x, v);
}
template <int kNThreads, int kNItems>
void scan_launch(float* x, int n) { scan<Traits<kNThreads, kNItems>><<<n, kNThreads>>>(x); }
void scan_cuda(float* x, int n) {
    if (n <= 128) scan_launch<32, 4>(x, n);
    else scan_launch<128, 16>(x, n);
}"""


@register
class HostGeometryFrom32(Rule):
    code, name = "WS015", "host-geometry-from-32"
    severities = frozenset({"info"})  # rows that compute the same at 64: advice
    summary = "Host code computes launch geometry or shared-memory sizes from a hardcoded warp size."
    docs = """\
Host code sizing a launch of a warp-level kernel with 32: `int warps = threads / 32;`,
`k<<<blocks, threads, (threads / 32) * sizeof(float)>>>`, `32 * sizeof(T)` shared bytes,
`<<<n, 32>>>` for a kernel that assumes a block is one warp, or any host use of a hardcoded
`WARP_SIZE` macro.  A block size given elsewhere (a swept list `{32, 64, 128}`, a caller's argument:
kernelport/blocksizes.py) that is not a whole 64-lane wave is reported at that value.  The host pass cannot know the device's wave width: on 64-wide AMD waves the
shared buffers and warp counts are wrong.

**Fix**: ask the device (`cudaDeviceGetAttribute(&w, cudaDevAttrWarpSize, dev)`,
`hipDeviceGetAttribute(&w, hipDeviceAttributeWarpSize, dev)`) and compute from that; this is
the `kp_device_warp_size()` of kernelport's HIP ports.  Launches of kernels with no warp-level
code (a 32x8 transpose tile) stay silent, and so does a warp-size name in a file whose launches
all run its own kernels and none of them has warp-level code (a warp-tiled SGEMM's `WARPSIZE = 32`
sizes 32-thread tiles, read as 32 by the kernels too).

A host dispatch tier is one too: faiss's `else if (k <= 32) binaryDistanceAnySize<32, 2, T><<<...>>>`
instantiates a kernel whose queue holds `NumWarpQ / kWarpSize` entries per lane (through
`WarpSelect<..., NumWarpQ, ...>` in a header): 32 / 64 = 0 on a 64-lane wave.  A template
parameter counts whole warps when the template (or one it passes the parameter to) divides it by
a warp-size name, or sizes a cub block collective whose algorithm works warp by warp
(`BLOCK_LOAD_WARP_TRANSPOSE`, `BLOCK_STORE_WARP_TRANSPOSE`, `BLOCK_SCAN_WARP_SCANS`: mamba's
`selective_scan_fwd_launch<32, 4>` tiers); the test that picked the tier is reported.  A template parameter used as a tile
or element count (`TILE_DIM`) stays silent.

A block of 32 (or sized in groups of 32) for a kernel that keeps 32-lane groups on any wave is
right: the launch geometry known in the file (the block of its launches, `__launch_bounds__`, an
annotation, a `blockDim.x == 32` guard) says the block is at most 32 threads or rows of 32, or its
shuffles have the width 32 (llama.cpp's `norm_f32<WARP_SIZE>` in `dim3 block_dims(WARP_SIZE, 1,
1)`: its shuffles fold 32 lanes whatever the wave), and it has no vote that may see two groups of
one 64-lane wave.  The same code in a block of 256 folds only half of each wave and is reported, and
so are groups of 32 for a kernel whose shuffle from a source lane leaves them at the default width
(WS018: DeepEP's `rank_id = thread_id / 32` groups broadcast with `__shfl_sync(m, v, i)`, launched
with `32 * num_ranks` threads), naming that shuffle: width 32 there keeps the sizes right.
Sizes from 32 for a kernel that splits its block into 32-lane rows itself, rows that compute the
same on a 64-lane wave (`lane = tid & 31`, `warp = tid >> 5`, shuffles that stay in their row:
lint/rowsplits.py), are the rows' count: reported as advice (info), like the kernel's own 32s.  A function whose every
warp-level launch binds the kernel's width template parameter (`% W`) to the macro's value there (`k<T, 64>` under
`if (WARP_SIZE == 64)`, `k<T, 32>` in its else) sizes logical groups: silent (kernelport/lint/matched_widths.py)."""
    flags = (
        ex("""
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
__global__ void reduce(const float* x, float* out) {
    extern __shared__ float partial[];
    float v = warp_sum(x[threadIdx.x]);
    if (threadIdx.x % warpSize == 0) partial[threadIdx.x / warpSize] = v;
}
void launch(const float* x, float* out, int n, int threads) {
    int warps = threads / 32;  // !
    reduce<<<n / threads, threads, warps * sizeof(float)>>>(x, out);
    reduce<<<n / threads, threads, 32 * sizeof(float)>>>(x, out);  // !
}"""),
        ex("""
#define kWarpSize warpSize
template <int NumWarpQ>
struct WarpQueue {
    static constexpr int kPerLane = NumWarpQ / kWarpSize;
    float v[kPerLane > 0 ? kPerLane : 1];
};
template <int NumWarpQ>
__global__ void select_k(const float* x, float* out, int k) {
    WarpQueue<NumWarpQ> q;
    q.v[0] = __shfl_sync(0xffffffff, x[threadIdx.x], 0);
    out[threadIdx.x] = q.v[0];
}
void run(const float* x, float* out, int k) {
    if (k <= 32) {  // !
        select_k<32><<<1, 128>>>(x, out, k);
    } else if (k <= 64) {
        select_k<64><<<1, 128>>>(x, out, k);
    }
}""", note="the 32-entry tier holds 32 / 64 = 0 entries per lane of a 64-lane wave"),
        ex(_GROUP_SUM.replace("BLOCK,", "8 * WARP_SIZE,").replace("1, 1);", "1, 1);  // !"),
           note="256 threads: the 16-step ladder folds half of a 64-lane wave and lane 0 answers for both halves"),
        ex(_SCAN_TIERS.replace("ALGORITHM", "BLOCK_LOAD_WARP_TRANSPOSE")
           .replace("<32, 4>(x, n);", "<32, 4>(x, n);  // !"),
           note="a cub block collective that works warp by warp, in a block of 32 threads: half a 64-lane wave"),
    )
    passes = (
        ex(_GROUP_SUM.replace("BLOCK,", "WARP_SIZE,"),
           note="a block of 32 threads: the 32-lane group is the whole block on any wave"),
        ex(_SCAN_TIERS.replace("ALGORITHM", "BLOCK_LOAD_DIRECT"),
           note="each thread loads its own items: any block size"),
        ex("""
__global__ void transpose(float* o, const float* i, int w) {
    __shared__ float tile[32][33];
    tile[threadIdx.y][threadIdx.x] = i[threadIdx.y * w + threadIdx.x];
    __syncthreads();
    o[threadIdx.x * w + threadIdx.y] = tile[threadIdx.x][threadIdx.y];
}
void launch(float* o, const float* i, int w) {
    dim3 block(32, 8);
    dim3 grid((w + 31) / 32, (w + 31) / 32);
    transpose<<<grid, block>>>(o, i, w);
}"""),
        ex("""
constexpr int kWarpSize = warpSize;
template <int Tile>
__global__ void copy_tiles(float* o, const float* i) {
    __shared__ float tile[Tile][Tile + 1];
    tile[threadIdx.y][threadIdx.x] = i[threadIdx.y * Tile + threadIdx.x];
    __syncthreads();
    o[threadIdx.x * Tile + threadIdx.y] = tile[threadIdx.x][threadIdx.y];
}
void launch(float* o, const float* i, int k) {
    if (k <= 32) copy_tiles<32><<<1, dim3(32, 32)>>>(o, i);
    else copy_tiles<16><<<1, dim3(16, 16)>>>(o, i);
}""", note="a tile size, not a count of warps"),
        ex("""
const unsigned WARPSIZE = 32;
template <int WM, int WMITER>
__global__ void sgemm_warptiling(const float* a, float* c) {
    const unsigned warp = threadIdx.x / WARPSIZE, lane = threadIdx.x % WARPSIZE;
    for (int i = 0; i < WMITER; ++i) c[(warp * WM + i) * WARPSIZE + lane] = a[threadIdx.x] * i;
}
void run(const float* a, float* c) {
    constexpr unsigned WMITER = (32 * 32) / (WARPSIZE * 16);
    sgemm_warptiling<32, WMITER><<<1, 128>>>(a, c);
}""", note="no warp-level code in the file's kernels: a warp tile of 32 threads on any wave"),
    )

    def check(self, ctx) -> None:
        seen: set[tuple[int, int]] = set()
        fn_attr = dialect.concept("rt_attr_warp_size")
        ask = " / ".join(f"`{s}`" for b in backends.names() if (s := fn_attr.spelling(b)))

        def report(node: Node, what: str, rows: str | None = None, cross: Node | None = None) -> None:
            key = (node.start_byte, node.end_byte)
            if key in seen or ctx.guarded(node):
                return
            seen.add(key)
            if rows is not None:  # every kernel it sizes keeps 32-lane rows that compute the same at 64
                advice = rowsplits.ADVICE.format(why=rows, port=rowsplits.WHOLE_WAVE)
                ctx.report(self, node, f"host code {what}; {advice}", severity="info")
                return
            if cross is not None:  # 32-lane groups but for a shuffle that leaves them (WS018's)
                ctx.report(self, node, f"host code {what}, groups of 32 threads, but the kernel's `{_expr_text(ctx, cross)}` "
                           f"shuffles at the default width, the whole wave: {ctx.breaks} two groups share a wave and read "
                           f"each other's lanes; pass that shuffle the width 32 to keep these sizes, or size the groups "
                           f"from the device's wave width ({ask}) in the kernel and here",
                           related=(ctx.related(cross, "the default-width shuffle that leaves the 32-lane group", site=True),))
                return
            ctx.report(self, node, f"host code {what}: the host cannot know the device's wave width, which is not 32 "
                       f"{ctx.breaks}; query it ({ask}) and compute from that")

        # Kernels with warp-level code, and kernels whose block owns a wave's width of elements
        # (`blockIdx.x * warpSize`: llm.c's bias kernel, its grid `OC / 32` blocks).
        tiled = wave_tiled_kernels(ctx)
        wide = ctx.widest_wave
        warpish = set(ctx.warp_level) | {s.function for s in ctx.sites if s.function} | tiled
        decided = functools.cache(lambda: _logical_kernels(ctx))  # (asked only where a launch can use it)
        # Every launch runs a kernel of this file and none has warp-level code: the name only sizes
        # tiles of threads (a 32-thread warp tile), which its kernels read as 32 on any wave too.
        launches = ctx.module.launches
        tiles_only = not warpish and bool(launches) and all(ctx.launched(launch) for launch in launches)
        owned: dict[str | None, list] = {}  # the launches by the function that makes them (in order)
        for launch in launches:
            owned.setdefault(fnscopes.owner(ctx.module, launch.node), []).append(launch)
        for f in ctx.module.functions.values():
            if f.is_device or f.body is None:
                continue
            defs = _local_defs(ctx, f.body)
            hardcoded = ctx.src.named_under(f.body, "identifier", ctx.hardcoded_macros) if not tiles_only else ()
            kept = _logical_blocks(ctx, f, dict(defs), lambda: decided()[0]) + matched_widths.spans(ctx, f, warpish) if hardcoded else []
            for n in hardcoded:
                if not any(a <= n.start_byte < b for a, b in kept):
                    report(n, f"uses the hardcoded warp size `{ctx.text(n)}`")
            for launch in owned.get(ctx.key(f), ()):  # (by key: a host `run` in another namespace is not f)
                runs = ctx.launched(launch)
                if not runs & warpish or runs & decided()[0]:
                    continue
                rows = _rows_of(ctx, runs & warpish)
                cross = next((decided()[1][k] for k in sorted(runs) if k in decided()[1]), None)
                cfg = launch.config
                if len(cfg) >= 2 and warpflow.int_value(ctx.text(cfg[1])) == 32:
                    report(cfg[1], f"launches `{launch.kernel}` with 32-thread blocks, one NVIDIA warp", rows, cross)
                elif wide > 32:  # a block size the file gives elsewhere (a swept list, a caller's argument)
                    for v, at in launch_block_sizes(ctx.module, launch):
                        if v % wide and at.start_byte not in range(cfg[1].start_byte, cfg[1].end_byte + 1):
                            line = ctx.position(launch.node.start_byte)[0]
                            kind = "warp-level" if runs - tiled else "wave-tiled"
                            report(at, f"gives {kind} kernel `{launch.kernel}` (launched on line {line}) "
                                   f"blocks of {v} threads, not a whole {wide}-lane wave", rows, cross)
                            break
                todo, done = list(cfg), set()
                while todo:
                    e = todo.pop()
                    if (e.start_byte, e.end_byte) in done:
                        continue
                    done.add((e.start_byte, e.end_byte))
                    for n in walk(e):
                        if n.type == "identifier" and ctx.text(n) in defs:
                            todo.extend(defs.pop(ctx.text(n)))
                        if n.type == "number_literal":
                            v, op = warpflow.int_value(ctx.text(n)), _parent_op(n)
                            if (v == 32 and op in ("/", "*", "%")) or (v == 31 and op in ("+", "&")) or \
                                    (v == 5 and op in (">>", "<<")):
                                kind = "warp-level" if runs - tiled else "wave-tiled"
                                report(n, f"sizes the launch of {kind} kernel `{launch.kernel}` with "
                                       f"`{_expr_text(ctx, n)}`", rows, cross)
        for at, arg, name, test in _warp_queue_dispatch(ctx):
            if (at.start_byte, at.end_byte) not in seen and not ctx.guarded(at):
                seen.add((at.start_byte, at.end_byte))
                what = f"`{_expr_text(ctx, test)}` picks" if test is not None else "instantiates"
                ctx.report(self, at, f"host code {what} `{name}` with 32 where that template counts whole warps (it "
                           f"divides the parameter by the warp size, or sizes a cub block collective that works "
                           f"warp by warp with it): {ctx.breaks}, 32 lanes are less than one wave; query "
                           f"the device's wave width ({ask}) before choosing this tier",
                           related=(ctx.related(arg, f"the 32 `{name}` divides by the warp size", site=True),) if at != arg else ())
        for s, code in site_codes(ctx):
            if code == self.code:
                stmt = s.node
                while stmt.parent is not None and not (stmt.type.endswith("statement") or stmt.type == "declaration"):
                    stmt = stmt.parent
                text = " ".join(ctx.text(stmt).split())
                text = text if len(text) <= 60 else text[:57] + "..."
                report(s.node, f"hardcodes the warp size as 32 in `{text}`{_why(s)}")


def _warp_queue_dispatch(ctx):
    """(where to report, the 32, the template, the enclosing test) for each host instantiation of a
    template with 32 where it counts whole warps (kernelport.warpmultiples): faiss's `else if (k <=
    32) binaryDistanceAnySize<32, 2, T><<<...>>>`.  The test that picked the tier is reported when it
    compares with the same 32."""
    from ... import warpmultiples
    vis = ctx.module.visible
    facts = warpmultiples.solve(warpmultiples.items(ctx.src), vis.warp_multiples if vis is not None else None)
    if not facts:
        return
    for f in ctx.module.functions.values():
        if f.is_device or f.body is None:
            continue
        for a in ctx.src.index.under(f.body, "template_argument_list"):
            name = warpmultiples.instantiated(ctx.src, a)
            args = [c for c in a.named_children if c.type != "comment"]
            for j in facts.get(name, ()):
                if j < len(args) and warpflow.int_value(ctx.text(args[j])) == 32:
                    yield _with_test(ctx, args[j], f.body, name)


def _with_test(ctx, arg: Node, body: Node, name: str):
    """(the test's 32 or the argument, the argument, the template, the test or None)."""
    n = arg.parent
    while n is not None and n != body:
        cond = n.child_by_field_name("condition") if n.type == "if_statement" else None
        if cond is not None:
            for b in ctx.src.index.under(cond, "binary_expression"):
                lits = [c for c in (b.child_by_field_name("left"), b.child_by_field_name("right"))
                        if c is not None and c.type == "number_literal" and warpflow.int_value(ctx.text(c)) == 32]
                if lits and ctx.text(b.child_by_field_name("operator")) in ("<", "<=", "==", ">", ">="):
                    return lits[0], arg, name, b
            break  # the nearest test is the tier's; an outer one is about something else
        n = n.parent
    return arg, arg, name, None


def _rows_of(ctx, kernels: set[str]) -> str | None:
    """Why the launched warp-level kernels compute the same at 64, where each splits its block into
    32-lane rows itself (lint/rowsplits.py): a warp count or per-warp buffer from 32 is the rows'."""
    rows = ctx.row_splits
    return rows[min(kernels)] if kernels and all(k in rows for k in kernels) else None


def _logical_kernels(ctx) -> tuple[set[str], dict[str, Node]]:
    """Kernels whose warp-level group keeps 32-lane groups on any wave (kernelport.warpwidth: a block of
    at most 32 threads, rows of 32, or width-32 shuffles), with no vote that may see two groups of one
    64-lane wave: a block of 32 threads, or one sized in groups of 32, is right for them.  Beside them,
    such kernels that as written shuffle from a source lane at the default width (WS018's: on a 64-lane
    wave it reads the other group's lanes, DeepEP's `__shfl_sync(m, head, i)` in groups of `thread_id /
    32`), each with that shuffle: sizes in groups of 32 are no logical group's for them."""
    widths = ctx.analysis.widths
    if widths is None:
        return set(), {}
    crossing: dict[str, Node] = {}
    for call, key, fn in ctx.analysis.wave_shuffles:
        if fn is not None and "lane" in dialect.concept(key).params and not ctx.guarded(call):
            crossing.setdefault(fn, call)
    logical, crossed = set(), {}
    for k, g in widths.by_function.items():
        if g.width != LOGICAL or g.votes and g.shares_wave and not g.spelled_votes:  # (a port's per-warp votes)
            continue
        cross = [crossing[m] for m in [k, *sorted(g.functions)] if m in crossing] if g.shares_wave else []
        if cross:
            crossed[k] = cross[0]
        else:
            logical.add(k)
    return logical, crossed


def _logical_blocks(ctx, f, defs: dict[str, list[Node]], logical) -> list[tuple[int, int]]:
    """Byte ranges of what sizes the blocks (and the template arguments) of `f`'s launches of the kernels
    `logical()` gives (asked only where `f` makes a launch with a block argument): the block argument and
    the host locals it reads (`dim3 block_dims(WARP_SIZE, 1, 1)`)."""
    out: list[tuple[int, int]] = []
    for launch in ctx.module.launches:
        if len(launch.config) < 2 or ctx.module.function_at(launch.node) is not f or not ctx.launched(launch) & logical():
            continue
        fn = launch.target
        todo = [launch.config[1]] + ([fn] if fn is not None and fn.type == "template_function" else [])
        while todo:
            e = todo.pop()
            out.append((e.start_byte, e.end_byte))
            for n in walk(e):
                if n.type == "identifier":
                    todo.extend(defs.pop(ctx.text(n), ()))
    return out


def _local_defs(ctx, body: Node) -> dict[str, list[Node]]:
    """Host locals and the expressions assigned to them."""
    from ...launchrows import local_defs
    return local_defs(ctx.src, body)
