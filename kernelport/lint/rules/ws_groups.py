"""WS rules on groups of 32 threads that code working on the hardware wave serves: a caller's
`tid % 32` lanes handed to helpers whose lanes are the wave's (kernelport.wavehelpers)."""
from __future__ import annotations

import os
import re

from tree_sitter import Node

from ... import dialect
from ...wavehelpers import wave_helpers
from ..rule import Rule, ex, register
from ... import lazy_re

# `x % 32`, `x & 31`, `x & 0x1f` (a lane in a group of 32); `x / 32`, `x >> 5` (a group's index).
_LANE_OPS = {("%", 32), ("&", 31)}
_GROUP_OPS = {("/", 32), (">>", 5)}
_THREADS = lazy_re.compile(r"\bthreadIdx\b|\bblockDim\b")
_THREAD_NAME = lazy_re.compile(r"(?i)thread|^tid$|_tid$|^tid_")
_STRIDE = lazy_re.compile(r"[+-]=\s*32\b")
_BOUND = lazy_re.compile(r"<=?\s*(32\b|min\s*\(\s*32\s*,)")

_HELPERS = """
__device__ __forceinline__ int get_lane_id() { return threadIdx.x % warpSize; }
__device__ __forceinline__ bool elect_one() { return get_lane_id() == 0; }
template <int kLanes = kWarpSize> __device__ int group_sum(int v) {
    for (int o = kLanes / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o, kLanes);
    return v;
}
"""
_SEGMENTS = """
#include <stdint.h>
__device__ __forceinline__ uint32_t getLaneId() {{
    uint32_t laneId;
    asm("mov.u32 %0, %%laneid;" : "=r"(laneId));{mark}
    return laneId;
}}
__device__ uint32_t inclusive_scan(uint32_t val) {{
    for (int i = 1; i <= 16; i <<= 1) {{
        const uint32_t t = __shfl_up_sync(0xffffffff, val, i, 32);
        if ({lane} >= i) val += t;
    }}
    return val;
}}"""


@register
class ThirtyTwoLaneGroupWaveHelper(Rule):
    code, name = "WS021", "32-lane-group-wave-helper"
    summary = "Threads are laid out in groups of 32 but call a helper that works on the whole hardware wave."
    docs = """\
`lane = tid % 32`, `warp = tid / 32`, loops that stride by 32: the function gives each group of 32
threads its own work (a channel, a rank, a token), then calls a helper whose lanes are the
hardware wave's: one that takes its lane as `threadIdx.x % warpSize` (or `__lane_id()`), elects
lane 0 of the wave, or reduces over a group that defaults to the warp size (`template <int N =
kWarpSize>`), or shuffles from a source lane at the default width itself (`__shfl_sync(m, v, i)`).
On NVIDIA both are 32 lanes.  On a 64-lane wave (AMD CDNA) two groups share a wave:
the helper sums both groups' values, only the first group's leader is elected, and the second
group's work is never written (DeepEP's dispatch kernels, fixed by sizing the groups by
`kWarpSize`).

**Fix**: size the groups by the wave width the helpers use (`tid % kWarpSize`, `tid / kWarpSize`,
strides of `kWarpSize`), or call the helpers at an explicit group size of 32 (`group_sum<32>(v)`)
where the groups must stay 32 threads.  The helpers are found in the file and in the project
headers it includes (either branch of an `#ifdef`: the HIP build's is the port's).

The same mix the other way round: a function that works in segments of 32 lanes (its shuffles at the
width 32) and tests the wave's lane, read from PTX `%laneid` or `threadIdx.x % warpSize` (directly or
through a helper): `if (getLaneId() >= i) v += __shfl_up_sync(m, v, i, 32)`.  Lanes 32-63 of a 64-lane
wave are lanes 0-31 of the second segment, but the test sees 32-63 (GPUPrefixSums' scans).  **Fix**:
test the segment's lane (`threadIdx.x & 31`, `getLaneId() & 31`).  Stays silent where every launch in the
run makes blocks of at most 32 threads, on a shuffle's source lane (taken modulo the width), and on tests
against the wave width (`lane < warpSize`)."""
    flags = (
        ex(_HELPERS + """
__global__ void count_per_channel(const int* x, int* out, int n) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;  // !
    int c = 0;
    for (int i = lane; i < n; i += 32) c += x[warp * n + i];
    c = group_sum(c);
    if (elect_one()) out[warp] = c;
}"""),
        ex(_HELPERS + """
template <int kNumThreads>
__global__ void send(const int* x, int* out) {
    constexpr int num_warps = kNumThreads / 32;  // !
    const int warp_id = threadIdx.x / 32;  // !
    if (elect_one()) out[warp_id] = x[warp_id * num_warps];
}""", note="the groups' count and index from 32, the leader from the wave"),
        ex(_SEGMENTS.format(lane="getLaneId()", mark="  // !"),
           note="segments of 32 lanes (the shuffle's width) gated by the wave's lane from `%laneid`"),
    )
    passes = (
        ex(_HELPERS + """
__global__ void count_per_channel(const int* x, int* out, int n) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int c = 0;
    for (int i = lane; i < n; i += 32) c += x[warp * n + i];
    c = group_sum<32>(c);
    if (lane == 0) out[warp] = c;
}""", note="a group of 32 that really is 32 wide: the reduction at 32 lanes, its own lane 0"),
        ex(_HELPERS + """
__global__ void count_per_channel(const int* x, int* out, int n) {
    const int lane = threadIdx.x % kWarpSize, warp = threadIdx.x / kWarpSize;
    int c = 0;
    for (int i = lane; i < n; i += kWarpSize) c += x[warp * n + i];
    c = group_sum(c);
    if (elect_one()) out[warp] = c;
}""", note="the groups sized by the wave width the helpers use"),
        ex("""
#define TILE_DIM 32
__device__ int get_lane_id() { return threadIdx.x % warpSize; }
__global__ void copy(float* o, const float* i, int* lanes) {
    const int col = threadIdx.x % TILE_DIM, row = threadIdx.x / TILE_DIM;
    o[row * TILE_DIM + col] = i[col * TILE_DIM + row];
    lanes[threadIdx.x] = get_lane_id();
}""", note="a 32-wide tile, named so"),
        ex(_SEGMENTS.format(lane="(getLaneId() & 31)", mark=""), note="the segment's own lane"),
    )

    def check(self, ctx) -> None:
        self._segment_tests(ctx)
        vis = ctx.module.visible
        known = dict(vis.wave_helpers) if vis is not None else {}
        helpers = {**known, **wave_helpers(ctx.module, ctx.path, known)}
        hard = ctx.hardcoded_macros  # a default of a warp-size name hardcoded as 32 is 32 lanes
        helpers = {n: h for n, h in helpers.items() if h.defaults_to is None or h.defaults_to not in hard}
        if not helpers:
            return
        confirmed = {(s.node.start_byte, s.node.end_byte) for s in ctx.sites}
        for f in ctx.module.functions.values():
            if f.body is None or not f.is_device:
                continue
            calls = [(c, n) for c, n in ctx.calls(f.body) if n in helpers and not _sized(ctx, c, helpers[n])]
            fk = ctx.key(f)  # (once per function, not once per shuffle of the file)
            calls += [(c, ctx.text(c.child_by_field_name("function"))) for c, key, fn in ctx.analysis.wave_shuffles
                      if fn == fk and "lane" in dialect.concept(key).params]
            if not calls:
                continue
            defs = _group_defs(ctx, f) + _argument_groups(ctx, calls)
            lanes = {name for name, _, lane in defs if lane}
            strides = _strides(ctx, f, lanes)
            by_statement: dict[int, list] = {}
            for name, lit, lane in defs:
                if (lit.start_byte, lit.end_byte) not in confirmed and not ctx.guarded(lit):
                    by_statement.setdefault(_statement(lit).start_byte, []).append((name, lit))
            call, callee = min(calls, key=lambda c: c[0].start_byte)
            h = helpers.get(callee)
            why = (f"whose {h.why.removeprefix('its ')} ({os.path.relpath(h.path)}:{h.line})" if h is not None
                   else "a shuffle from a source lane at the default width, the whole wave")
            for group in by_statement.values():
                names = ", ".join(f"`{n}`" for n, _ in group)
                related = tuple(ctx.related(c, f"calls {n}, which works on the wave", site=True) for c, n in calls[:3]) + \
                    tuple(ctx.related(s, "a stride or bound of 32 lanes", site=True) for s in strides[:6])
                ctx.report(self, group[0][1],
                           f"{names} lay{'s' if len(group) == 1 else ''} the threads out in groups of 32, but "
                           f"`{f.name}` calls `{callee}` (line {ctx.where(call).split(':')[0]}), {why}: "
                           f"{ctx.breaks} two groups share a wave and the "
                           f"helper spans both; size the groups by the wave width, or call the helper at 32 lanes",
                           related=related)


    def _segment_tests(self, ctx) -> None:
        """Tests of the wave's lane in a function that works in segments of 32 lanes (segmentlanes),
        reported where the lane is read (what a fix, or a port, makes the segment's lane)."""
        from ..segmentlanes import wave_lane_tests
        for read, tests, fname, w in wave_lane_tests(ctx).values():
            lane = ctx.text(tests[0])
            related = tuple(ctx.related(t, "a test of this lane in segments of 32 lanes", site=True)
                            for t in tests[:8])
            ctx.report(self, read, f"this reads the wave's lane, but `{fname}` works in segments of {w} lanes (its "
                       f"shuffles' width {w}) and tests it (`{lane}`, line {ctx.where(tests[0]).split(':')[0]}): "
                       f"{ctx.breaks} lanes 32-63 are lanes 0-{w - 1} of later segments, and the test decides "
                       f"them as lanes past the segment's end; take the segment's lane (`& {w - 1}`)",
                       related=related)


def _sized(ctx, call: Node, h) -> bool:
    """The caller passes the group size itself (`group_sum<32>(v)`, a width argument)."""
    if h.defaults_to is None:
        return False
    fn = call.child_by_field_name("function")
    args = call.child_by_field_name("arguments")
    return (fn is not None and fn.type == "template_function") or \
        (args is not None and any(ctx.text(a).strip() in ("32", "16", "8") for a in args.named_children))


def _bare(ctx, n: Node) -> Node:
    """The expression under parentheses and casts (`static_cast<int>(threadIdx.x)` too)."""
    while n.type in ("parenthesized_expression", "cast_expression") or \
            (n.type == "call_expression" and n.child_by_field_name("function") is not None
             and n.child_by_field_name("function").type == "template_function"
             and ctx.text(n.child_by_field_name("function")).endswith("_cast")):
        if n.type == "parenthesized_expression":
            n = n.named_children[0]
        elif n.type == "cast_expression":
            n = n.child_by_field_name("value")
        else:
            n = n.child_by_field_name("arguments").named_children[0]
    return n


def _group_defs(ctx, f) -> list[tuple[str, Node, bool]]:
    """(local, its literal 32, whether it is a lane) of each local taken from a thread index by 32."""
    from ... import warpflow
    threads: set[str] = {p for p in f.template_params if _THREAD_NAME.search(p)}
    out = []
    for d in ctx.src.index.under(f.body, "init_declarator"):
        name_n, v = d.child_by_field_name("declarator"), d.child_by_field_name("value")
        if name_n is None or v is None or name_n.type != "identifier":
            continue
        name, text = ctx.text(name_n), ctx.text(v)
        ids = set(ctx.src.texts_under(v, "identifier")) | {ctx.text(v).strip()}
        derived = bool(_THREADS.search(text)) or bool(ids & threads) or any(_THREAD_NAME.search(i) for i in ids)
        if not derived:
            continue
        threads.add(name)
        e = _bare(ctx, v)
        if e.type != "binary_expression":
            continue
        op, right = ctx.text(e.child_by_field_name("operator")), e.child_by_field_name("right")
        val = warpflow.int_value(ctx.text(right)) if right is not None and right.type == "number_literal" else None
        if (op, val) in _LANE_OPS | _GROUP_OPS:
            out.append((name, right, (op, val) in _LANE_OPS))
    return out


def _argument_groups(ctx, calls) -> list[tuple[str, Node, bool]]:
    """(expression, its literal 32, whether it is a lane) of each thread index taken by 32 inside the arguments
    of a call to a wave helper: `helper(&counts[(threadIdx.x + blockIdx.x * blockDim.x) / 32])`, the group's
    slot passed to the helper that works on the wave (a local would be _group_defs')."""
    from ... import warpflow
    out = []
    for call, _ in calls:
        args = call.child_by_field_name("arguments")
        for e in ctx.src.index.under(args, "binary_expression") if args is not None else ():
            op, left, right = ctx.text(e.child_by_field_name("operator")), e.child_by_field_name("left"), \
                e.child_by_field_name("right")
            if left is None or right is None or right.type != "number_literal":
                continue
            ids = set(ctx.src.texts_under(left, "identifier"))
            if not (_THREADS.search(ctx.text(left)) or any(_THREAD_NAME.search(i) for i in ids)):
                continue
            if (op, warpflow.int_value(ctx.text(right))) in _LANE_OPS | _GROUP_OPS:
                out.append((" ".join(ctx.text(e).split()), right, (op, warpflow.int_value(ctx.text(right))) in _LANE_OPS))
    return out


def _strides(ctx, f, lanes: set[str]) -> list[Node]:
    """Loops over a group's lanes in steps (or up to a bound) of 32."""
    out = []
    if not lanes:
        return out
    mention = re.compile(r"\b(" + "|".join(map(re.escape, sorted(lanes))) + r")\b")
    for loop in ctx.src.index.under(f.body, "for_statement"):
        upd, cond = loop.child_by_field_name("update"), loop.child_by_field_name("condition")
        if not mention.search(ctx.text(loop)):
            continue
        if upd is not None and _STRIDE.search(ctx.text(upd)):
            out.append(upd)
        elif cond is not None and _BOUND.search(ctx.text(cond)):
            out.append(cond)
    return out


def _statement(n: Node) -> Node:
    while n.parent is not None and n.type not in ("declaration", "expression_statement"):
        n = n.parent
    return n


# In a macro body (unparsed text): a 32 that scales a step (`32 * (UNROLL)`, `__j * 32`, `+= 32`).
_MACRO_STRIDE = lazy_re.compile(rb"\b32\s*\*|\*\s*32\b|[+-]=\s*32\b")
_LANE_PARAM = lazy_re.compile(r"(?i)lane")
_COPY = """
#define WARP_COPY(UNROLL, LANE_ID, N, DST, SRC)                               \\
    {                                                                         \\
        constexpr int kStride = STEP * (UNROLL);                              \\
        for (int i = (LANE_ID); i < (N) / kStride * kStride; i += kStride)    \\
            for (int j = 0; j < (UNROLL); ++j) (DST)[i + j * STEP] = (SRC)[i + j * STEP]; \\
    }
"""


@register
class MacroLaneStride32(Rule):
    code, name = "WS022", "macro-lane-stride-32"
    summary = "A function-like macro that takes a lane steps it by a hardcoded 32."
    docs = """\
`#define WARP_COPY(UNROLL, LANE_ID, N, DST, SRC)` starts each lane at `LANE_ID` and steps by `32 *
UNROLL` (and `j * 32` inside an unrolled step): the 32 is the warp's lane count.  Its callers pass
the lane they have, in a port the hardware lane (`threadIdx.x % warpSize`, 0-63 on AMD CDNA):
lanes 32-63 then copy the elements of the next step, which lanes 0-31 copy too, and in the last
full step lane 63 reaches index N + 31, past both buffers (DeepEP's `UNROLLED_WARP_COPY`).  The
warp-size dataflow does not see into a macro body before it is used, so this rule reads the
definition: a parameter named as a lane, and a 32 that scales a step.

**Fix**: step by the wave width (`kWarpSize` where a constant is needed, `warpSize` at run time)."""
    flags = (ex("""
#define WARP_COPY(UNROLL, LANE_ID, N, DST, SRC) \\
    for (int i = (LANE_ID); i < (N); i += 32 * (UNROLL)) (DST)[i] = (SRC)[i];  // !
"""),)
    passes = (
        ex(_COPY.replace("STEP", "kWarpSize"), note="the step is the wave width"),
        ex("""
#define TILE_DIM 32
#define COPY_TILE(ROW, DST, SRC) \\
    for (int c = 0; c < TILE_DIM; ++c) (DST)[(ROW) * 32 + c] = (SRC)[(ROW) * 32 + c];
""", note="no lane: a tile's row"),
    )

    def check(self, ctx) -> None:
        for d in ctx.nodes("preproc_function_def"):
            params, value = d.child_by_field_name("parameters"), d.child_by_field_name("value")
            if params is None or value is None or ctx.guarded(d):
                continue
            lanes = [ctx.text(p) for p in params.named_children if _LANE_PARAM.search(ctx.text(p))]
            body = ctx.text(value).encode()
            if not lanes or not re.search(rb"\bfor\s*\([^;]*\b" + re.escape(lanes[0].encode()) + rb"\b", body):
                continue  # no loop starts at the lane
            hits = [value.start_byte + m.start() + m.group(0).find(b"32") for m in _MACRO_STRIDE.finditer(body)]
            if not hits:
                continue
            name = ctx.text(d.child_by_field_name("name"))
            from ..finding import Related
            related = tuple(Related(ctx.path, *ctx.position(b), "a step of 32 lanes", "site") for b in hits[1:12])
            ctx.report(self, (hits[0], hits[0] + 2),
                       f"`{name}` starts each lane at `{lanes[0]}` and steps by 32 lanes ({len(hits)} "
                       f"step{'s' if len(hits) > 1 else ''} of 32 in its body): {ctx.breaks} its callers' lanes run "
                       f"to 63, so lanes 32-63 repeat the next step's elements and the last step reads past `N`; "
                       f"step by the wave width", related=related)
