"""WS rules judged under the project's HIP build (kernelport.hipbuild): sizes and lane indices as
the macros of the branch only hipcc takes define them."""
from __future__ import annotations

import re

from ... import hipbuild
from ..rule import Rule, ex, register

# `1024 / warpSize`: one slot per wave of a block of at most that many threads.
_PER_WAVE = re.compile(r"^[(\s]*(\d+)\s*/[(\s]*warpSize[)\s]*$")
_LANE = re.compile(r"%[(\s]*warpSize\b|&[(\s]*warpSize\s*-\s*1\b|__lane_id\s*\(")
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
                f = ctx.function_at(n)
                lanes.add((f.name if f else None, ctx.text(d)))
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
        f = ctx.function_at(sub)
        if (f.name if f else None) != sh.function or (sh.function, lane) not in lanes or ctx.guarded(sub):
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
