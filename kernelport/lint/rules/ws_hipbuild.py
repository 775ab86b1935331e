"""WS rules judged under the project's HIP build (kernelport.hipbuild): sizes and lane indices as
the macros of the branch only hipcc takes define them."""
from __future__ import annotations

import re

from ... import fnscopes, hipbuild
from ..rule import Rule, ex, register
from .ws_sites import _expr_text, _why, classify
from ... import lazy_re

# `1024 / warpSize`: one slot per wave of a block of at most that many threads.
_PER_WAVE = lazy_re.compile(r"^[(\s]*(\d+)\s*/[(\s]*warpSize[)\s]*$")
_LANE = lazy_re.compile(r"%[(\s]*warpSize\b|&[(\s]*warpSize\s*-\s*1\b|__lane_id\s*\(")
_WAVE = 64
# The second stage of a block reduction, as the examples show it (READ: how the lanes read the slots).
_REDUCE = """
#if defined(USE_ROCM)
#define NUM_WARPS (1024 / warpSize)
#define WARP_SIZE (warpSize)
#else
#define NUM_WARPS 32
#define WARP_SIZE 32
#endif
__global__ void row_sum(const float* x, float* out) {
    __shared__ float sums[NUM_WARPS];
    int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    if (lane == 0) sums[warp] = v;
    __syncthreads();
    READ
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}"""


@register
class LaneReadPastWaveSlots(Rule):
    code, name = "WS020", "lane-read-past-wave-slots"
    summary = "Every lane of a wave reads a per-wave slot array that has fewer slots than lanes."
    docs = """\
`__shared__ float sums[NUM_WARPS];` with `NUM_WARPS` = `1024 / warpSize` in the HIP build, then
`sum = sums[lane];` in every lane: the second stage of a block reduction.  At 32 lanes the array
has 1024 / 32 = 32 slots, one per lane; on a 64-lane wave it has 1024 / 64 = 16, and lanes 16-63
read past its end (garbage added to the result, or a fault).

**Fix**: read only the lanes below the slot count (`lane < NUM_WARPS ? sums[lane] : 0`), or size
the array by the most lanes a wave has.  The size is read as the project's HIP build defines it
(the branch of `#if defined(USE_ROCM)` / `__HIP_PLATFORM_AMD__`, or `[tool.kernelport] hip-defines`)."""
    flags = (ex(_REDUCE.replace("READ", "v = sums[lane];  // !")),)
    passes = (
        ex(_REDUCE.replace("READ", "v = lane < NUM_WARPS ? sums[lane] : 0.0f;"),
           note="only the lanes below the slot count read"),
        ex("""
#if defined(USE_ROCM)
#define NUM_WARPS (4096 / warpSize)
#else
#define NUM_WARPS 128
#endif
__global__ void scale(float* x) {
    __shared__ float sums[NUM_WARPS];
    int lane = threadIdx.x % warpSize;
    if (threadIdx.x < NUM_WARPS) sums[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] *= sums[lane];
}""", note="4096 / 64 = 64 slots: one per lane of the widest wave"),
    )

    def check(self, ctx) -> None:
        vis = ctx.module.visible
        defined = vis.hip_macros if vis is not None else hipbuild.file_macros(ctx.src)
        if not defined:
            return
        lanes: set[tuple[str | None, str]] = set()  # (function, local) holding a full-wave lane index
        for n in ctx.nodes("init_declarator"):
            v, d = n.child_by_field_name("value"), n.child_by_field_name("declarator")
            if v is not None and d is not None and d.type == "identifier" \
                    and _LANE.search(hipbuild.expand(ctx.text(v), defined)):
                lanes.add((fnscopes.owner(ctx.module, n), ctx.text(d)))  # by key: a::k's lane is not b::k's
        for sh in ctx.module.shared:
            for dim in sh.dims:
                size = hipbuild.expand(ctx.text(dim), defined)
                m = _PER_WAVE.match(size)
                if m is None or int(m.group(1)) // _WAVE >= _WAVE or ctx.guarded(dim):
                    continue
                slots = int(m.group(1)) // _WAVE
                for sub in _lane_reads(ctx, sh, lanes):
                    ctx.report(self, sub, f"every lane reads `{ctx.text(sub)}` but in the HIP build `{sh.name}` has "
                                          f"{ctx.text(dim)} = {m.group(1)} / {_WAVE} = {slots} slots on a {_WAVE}-lane "
                                          f"wave: lanes {slots}-{_WAVE - 1} read past its end; read only lanes "
                                          f"< {ctx.text(dim)}")


def _lane_reads(ctx, sh, lanes):
    """`sh[lane]` in the array's function, with no `lane <` bound around it."""
    for sub in ctx.nodes("subscript_expression"):
        base, idx = sub.child_by_field_name("argument"), sub.child_by_field_name("indices")
        if base is None or idx is None or ctx.text(base) != sh.name:
            continue
        lane = ctx.text(idx).strip("[] ")
        owner = fnscopes.owner(ctx.module, sub)
        if owner != fnscopes.owner(ctx.module, sh.node) or (owner, lane) not in lanes or ctx.guarded(sub):
            continue
        if not _bounded(ctx, sub, lane):
            yield sub


def _bounded(ctx, node, lane: str) -> bool:
    bound = re.compile(rf"\b{re.escape(lane)}\s*<|>\s*{re.escape(lane)}\b")
    n = node.parent
    while n is not None and n.type != "function_definition":
        if n.type in ("if_statement", "conditional_expression", "while_statement", "for_statement"):
            c = n.child_by_field_name("condition")
            if c is not None and bound.search(ctx.text(c)):
                return True
        n = n.parent
    return False


# What a 32 in AMD-only code does, by the rule that would report it outside the guard.  Only these
# shapes say that the 32 counts a wave's lanes; a bare 32 reaching a shuffle (WS017) does not there:
# `__shfl_down(v, 32)` or a ladder from 32 is the step a 64-lane wave needs, `min(n, 32)` a cap.
_AMD_KIND = {"WS002": "takes lane ids modulo 32", "WS003": "counts warps of 32 lanes",
             "WS004": "starts a shuffle ladder at 16", "WS005": "walks or scans 32 lanes",
             "WS006": "takes lane 31 as the last", "WS008": "keeps 32 bits of a lane mask",
             "WS009": "keeps 32 bits of a lane mask", "WS010": "shifts a 32-bit lane bit",
             "WS011": "sizes a per-warp array by 32", "WS015": "sizes a launch by 32-lane warps"}


@register
class AmdOnlyCode32Lanes(Rule):
    code, name = "WS023", "amd-only-code-assumes-32-lanes"
    summary = "Device code only the AMD build compiles counts lanes as 32 (`#if USE_ROCM` ... `i < 32`)."
    docs = """The other WS rules leave code under a platform guard alone: the NVIDIA branch of `#ifdef
USE_ROCM` is right at 32, and an AMD branch is usually the port's own answer.  But a hand-written
AMD branch can still count 32 lanes: `for (int i = 0; i < 32; ++i)` collecting the lanes of an
`__activemask()` by shuffling from lane i, `threadIdx.x % 32` as the lane of a wave-wide shuffle,
a ladder starting at 16.  Only hipcc compiles that code, and on CDNA (and on RDNA in wave64
mode) a wave has 64 lanes: lanes 32-63 are skipped or alias lanes 0-31.  The 32 is reported when
the warp-size dataflow sees it reach a warp-level use, as elsewhere; code under a test of the
architecture (`__AMDGCN_WAVEFRONT_SIZE == 32`, `__GFX11__`) is written for one wave width and stays
silent, and so does a logical 32-lane group (a shuffle with width 32).  Only a 32 in a lane-counting
shape is reported (a lane id, a warp index, a loop over lanes, a ladder from 16, a 32-bit lane
mask, a per-warp array): a shuffle distance of 32 (`for (o = 32; ...)`) is the step a 64-lane wave
needs, and a cap such as `n < 32 ? n : 32` says nothing about the wave.

**Fix**: `warpSize` (or a constant chosen under `__AMDGCN_WAVEFRONT_SIZE`), 64-bit lane masks."""
    flags = (
        ex("""
#if defined(USE_ROCM)
__device__ float label_sum(float v, long long label) {
    unsigned long long active = __activemask();
    float s = 0.0f;
    for (int i = 0; i < 32; ++i) {  // !
        long long l = __shfl_sync(active, label, i);
        float o = __shfl_sync(active, v, i);
        if (l == label) s += o;
    }
    return s;
}
#endif"""),
        ex("""
__global__ void pair_sum(float* x) {
    float v = x[threadIdx.x];
#ifdef __HIP_PLATFORM_AMD__
    int lane = threadIdx.x % 32;  // !
    v += __shfl(v, lane ^ 1);
#else
    v += __shfl_xor_sync(0xffffffff, v, 1);
#endif
    x[threadIdx.x] = v;
}"""),
        ex("""
#if defined(__AMDGCN_WAVEFRONT_SIZE) && (__AMDGCN_WAVEFRONT_SIZE == 64)
#define WS 64
#else
#define WS 32
#endif
__global__ void k(const int* x, int* out) {
    const int lane = threadIdx.x % WS;
#if defined(WS) && (WS == 64)
    const unsigned int bm = __ballot_sync(~0ull, x[threadIdx.x] > 0);  // !
    const int sublane = lane & 31;
#else
    const unsigned int bm = __ballot_sync(~0u, x[threadIdx.x] > 0);
    const int sublane = lane;
#endif
    out[threadIdx.x] = bm & (1u << sublane) ? 1 : 0;
}""", note="the 64-wide branch's `lane & 31` is half a wave, but a wave's ballot kept in 32 bits is still cut"),
    )
    passes = (
        ex("""
#if __AMDGCN_WAVEFRONT_SIZE == 32
__device__ float label_sum(float v, long long label) {
    unsigned int active = __activemask();
    float s = 0.0f;
    for (int i = 0; i < 32; ++i) {
        long long l = __shfl_sync(active, label, i);
        float o = __shfl_sync(active, v, i);
        if (l == label) s += o;
    }
    return s;
}
#endif""", note="written for wave32 (an architecture test): 32 is the wave there"),
        ex("""
#ifndef USE_ROCM
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
#endif""", note="the NVIDIA branch: 32 is the warp there"),
        ex("""
#ifdef USE_ROCM
#define TILE_DIM 32
__global__ void transpose(const float* in, float* out, int n) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    out[x * n + y] = tile[threadIdx.x][threadIdx.y];
}
__device__ float row_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor(v, o, 32);
    return v;
}
#endif""", note="a 32x32 tile and a logical 32-lane group (width 32) in AMD code"),
        ex("""
#ifdef USE_ROCM
__device__ float wave_sum(float v) {
    for (int o = 32; o > 0; o /= 2) v += __shfl_down(v, o);
    return __shfl(v, 0);
}
#endif""", note="a ladder from 32: the 64-lane wave's first step"),
    )

    def check(self, ctx) -> None:
        for s in ctx.amd_only_sites:
            what = _AMD_KIND.get(classify(ctx, s))
            if what is None:
                continue
            ctx.report(self, s.node, f"`{_expr_text(ctx, s.node)}` {what}{_why(s)} in code only the AMD build "
                                     f"compiles: a CDNA wave has 64 lanes, so lanes 32-63 are skipped or alias "
                                     f"lanes 0-31; use {ctx.wave} and 64-bit lane masks")
