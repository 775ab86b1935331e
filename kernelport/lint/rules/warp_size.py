"""WS: warp-size assumptions.  Sites come from the warp-size dataflow (`kernelport.warpflow`): a
literal is reported only when its value reaches a warp-level use, so tiles, bitsets and register
loops stay silent.  Most WS rules are errors when a wave-64 target (hip-cdna) is configured,
warnings when only wave-32-or-unknown targets are, and off for an NVIDIA-only project.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ... import dialect, warpflow
from ...source import walk
from .. import guards
from ..fix import site_fix
from ..rule import Rule, ex, register

_REL = ("==", "!=", "<", "<=", ">", ">=")
_LANE_ARRAY = re.compile(r"indexes the per-warp shared array '(\w+)'")


def _parent_op(node: Node) -> str | None:
    p = node.parent
    while p is not None and p.type == "parenthesized_expression":
        p = p.parent
    if p is not None and p.type == "binary_expression":
        op = p.child_by_field_name("operator")
        return op.text.decode() if op is not None else None
    return None


def _expr_text(ctx, node: Node, limit: int = 48) -> str:
    p = node.parent
    while p is not None and p.type == "parenthesized_expression":
        p = p.parent
    n = p if p is not None and p.type == "binary_expression" else node
    if p is not None and p.type == "argument_list" and p.parent is not None:
        n = p.parent
    t = " ".join(ctx.text(n).split())
    return t if len(t) <= limit else t[:limit - 3] + "..."


def _in_loop_initializer(node: Node) -> bool:
    p = node
    while p is not None and p.type not in ("for_statement", "compound_statement", "function_definition"):
        if p.parent is not None and p.parent.type == "for_statement" and \
                p.parent.child_by_field_name("initializer") is not None and \
                (p.parent.child_by_field_name("initializer").start_byte, p.parent.child_by_field_name("initializer").end_byte) == (p.start_byte, p.end_byte):
            return True
        p = p.parent
    return False


def _file_scope_init(node: Node) -> bool:
    p = node.parent
    if p is None or p.type != "init_declarator":
        return False
    d = p.parent
    return d is not None and d.type == "declaration" and d.parent is not None and d.parent.type in (
        "translation_unit", "declaration_list", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif")


def _shared_dim(ctx, node: Node) -> str | None:
    """The shared array whose size `node` is, if any."""
    p = node.parent
    if p is None or p.type != "array_declarator" or p.child_by_field_name("size") is None:
        return None
    if (p.child_by_field_name("size").start_byte, p.child_by_field_name("size").end_byte) != (node.start_byte, node.end_byte):
        return None
    for sh in ctx.module.shared:
        if any((d.start_byte, d.end_byte) == (node.start_byte, node.end_byte) for d in sh.dims):
            return sh.name
    return None


def classify(ctx, s) -> str:
    n, role = s.node, s.role
    op = _parent_op(n)
    if role in ("ws_macro", "ws_m1_macro"):
        return "WS001"
    if role == "type32":
        return "WS008"
    if role == "bitop64":
        return "WS009"
    if role == "one":
        return "WS010"
    if role == "ladder":
        return "WS004"
    if role == "five":
        return "WS003"
    if role == "half":
        return "WS004" if s.why == "bounds a shuffle ladder" or _in_loop_initializer(n) else "WS017"
    if role == "ws":
        if _file_scope_init(n):
            return "WS001"
        if _shared_dim(ctx, n):
            return "WS011"
        if s.why == "bounds a shuffle ladder":
            return "WS005"
        if ctx.code_context(n) == "host":
            return "WS015"
        if op == "%":
            return "WS002"
        if op == "/":
            return "WS003"
        return "WS017"
    if role in ("ws_m1",):
        if op == "&":
            return "WS002"
        if op == "+":
            return "WS003"
        if op in _REL or s.why == "the last lane of a warp":
            return "WS006"
        return "WS017"
    return "WS017"


def site_codes(ctx) -> list[tuple[object, str]]:
    cached = ctx.__dict__.get("_ws_sites")
    if cached is None:
        cached = [(s, classify(ctx, s)) for s in ctx.sites]
        ctx.__dict__["_ws_sites"] = cached
    return cached


_LANE_FN = re.compile(r"(?i)(^|_)(get_?)?(lane|warp|wave|simd)_?(id|idx|index|no|num)$|^laneid$|^warpid$")


def named_helper_sites(ctx):
    """Sites in the return value of a helper named for what it computes (`lane_id()`, `warp_id()`).

    The name is the warp-level use: such a helper is usually called from other files, where the
    dataflow cannot follow it.
    """
    out = []
    confirmed = {(s.node.start_byte, s.role) for s in ctx.analysis.sites if s.confirmed}
    for s in ctx.analysis.sites:
        if s.confirmed or (s.node.start_byte, s.role) in confirmed or s.function is None:
            continue
        f = ctx.module.functions.get(s.function)
        if f is None or not f.is_device or not _LANE_FN.search(f.name.split("::")[-1]):
            continue
        p = s.node.parent
        while p is not None and p.type not in ("return_statement", "function_definition"):
            p = p.parent
        if p is None or p.type != "return_statement" or ctx.guarded(s.node):
            continue
        op = _parent_op(s.node)
        if (s.role == "ws_m1" and op == "&") or (s.role == "ws" and op in ("%", "/")) or (s.role == "five" and op == ">>"):
            s2 = type(s)(s.id, s.node, s.role, s.function, True, f"is returned by `{f.name}()`", None)
            out.append((s2, "WS002" if op in ("&", "%") else "WS003"))
    return out


class SiteRule(Rule):
    """A rule that reports confirmed wave-width sites of one kind."""

    def check(self, ctx) -> None:
        for s, code in site_codes(ctx) + named_helper_sites(ctx):
            if code == self.code:
                ctx.report(self, s.node, self.message(ctx, s), fix=site_fix(ctx, s) if self.fixable else None)

    def message(self, ctx, s) -> str:  # pragma: no cover - overridden
        raise NotImplementedError


def _has_wide_step(ctx, lit: Node) -> bool:
    """An unrolled ladder whose statement is already preceded by its `if (warpSize > 32)` step."""
    stmt = lit
    while stmt is not None and stmt.type != "expression_statement":
        stmt = stmt.parent
    prev = stmt.prev_named_sibling if stmt is not None else None
    while prev is not None and prev.type == "comment":
        prev = prev.prev_named_sibling
    return prev is not None and prev.type == "if_statement" and ctx._WIDE.search(ctx.text(prev)) is not None


def _why(s) -> str:
    w = s.why or ""
    if w.startswith(("reaches", "indexes", "bounds", "shifts", "sizes", "is returned")):
        return f" (it {w})"
    if w.startswith(("combined", "compared")):
        return f" (it is {w})"
    if w.startswith("leader"):
        return f" (it feeds a {w})"
    return ""


# ---------------------------------------------------------------------------------------------
@register
class HardcodedWarpSize(Rule):
    code, name = "WS001", "hardcoded-warp-size"
    summary = "A macro or constant hardcodes the warp size as 32."
    docs = """\
`#define WARP_SIZE 32`, `constexpr int kWarpSize = 32` or any constant 32 whose value reaches a
warp-level use (a shuffle lane, a per-warp slot, a lane mask).  Every use inherits the 32: on
AMD CDNA (gfx9, MI100-MI300) a wave has 64 lanes, on Metal the SIMD-group width is not
guaranteed, so lane and warp indices, ladders and per-warp arrays computed from it are wrong.

**Fix**: use `warpSize` at run time.  Where a constant expression is needed (array sizes,
template arguments) derive it from the architecture: 64 under `__GFX9__`, else 32 (this is the
`KP_WAVE_SIZE` that `kernelport translate` emits).  If your build already defines the macro per
architecture, list it in `portable-macros` in `[tool.kernelport]`.

Stays silent on: macros that are not about warps (`#define TILE_DIM 32` for a tile), on a
definition that nothing in its (non-header) file uses, and on
definitions inside a platform or architecture branch (`#if defined(__GFX9__)` ... `#else`
`#define WARP_SIZE 32`), which are per-platform by construction."""
    flags = (
        ex("""
#define WARP_SIZE 32  // !
__global__ void k(float* x) {
    int lane = threadIdx.x % WARP_SIZE;
    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1) + lane;
}"""),
        ex("""
constexpr int kWarpSize = 32;  // !
__device__ float sum(float v) {
    for (int o = kWarpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}"""),
    )
    passes = (
        ex("""
#define TILE_DIM 32
__global__ void copy(float* o, const float* i) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    tile[threadIdx.y][threadIdx.x] = i[threadIdx.y * TILE_DIM + threadIdx.x];
    __syncthreads();
    o[threadIdx.x * TILE_DIM + threadIdx.y] = tile[threadIdx.y][threadIdx.x];
}"""),
        ex("""
#if defined(__GFX9__)
#define WARP_SIZE 64
#else
#define WARP_SIZE 32
#endif
__global__ void k(float* x) { x[threadIdx.x % WARP_SIZE] = __shfl_down(x[0], 1); }"""),
    )

    def check(self, ctx) -> None:
        seen = set()
        for name, m in ctx.hardcoded_macros.items():
            if m.node is None:
                continue
            seen.add((m.node.start_byte, m.node.end_byte))
            uses = [n for n in ctx.nodes("identifier") if ctx.text(n) == name
                    and not (n.parent is not None and n.parent.type == "preproc_def")]
            if not uses and not ctx.path.endswith((".h", ".hpp", ".cuh", ".hh", ".inl")):
                continue  # unused in a source file (a header's uses are in the files that include it)
            used = (f"its {len(uses)} uses assume" if len(uses) > 1 else "its use assumes") if uses else "it assumes"
            ctx.report(self, m.node,
                       f"`{name}` hardcodes the warp size as {m.value}: {used} 32 lanes, which is wrong {ctx.breaks}; "
                       f"use {ctx.wave} at run time and a per-architecture constant (64 under `__GFX9__`, else 32) "
                       f"where a constant expression is needed, or list `{name}` in `portable-macros` if the build "
                       f"defines it per architecture",
                       related=tuple(ctx.related(u, f"use of {name}") for u in uses[:8]))
        for s, code in site_codes(ctx):
            if code == self.code and (s.node.start_byte, s.node.end_byte) not in seen:
                seen.add((s.node.start_byte, s.node.end_byte))
                name = ctx.macro_name(s.node) or "this constant"
                ctx.report(self, s.node, f"`{name}` hardcodes a warp-size value ({ctx.text(s.node).strip()}) that "
                           f"reaches a warp-level use{_why(s)}: wrong {ctx.breaks}; derive it from {ctx.wave}")


@register
class LaneIndexFrom32(SiteRule):
    code, name, fixable = "WS002", "lane-index-from-32", True
    summary = "A lane index is computed with `% 32`, `& 31` or `& 0x1f` and reaches a warp-level use."
    docs = """\
`lane = threadIdx.x % 32` (or `& 31`, `& 0x1f`) feeding a shuffle, a ballot mask, a per-warp slot
or a leader test.  On a 64-wide wave (AMD CDNA) lanes 32-63 get lane ids 0-31 again: two lanes
claim the same slot, `lane == 0` elects two leaders per wave, shuffles read the wrong lane.

**Fix** (`--fix`): `threadIdx.x % warpSize`, `threadIdx.x & (warpSize - 1)`; identical on NVIDIA.

Only values that reach a warp-level use are reported: `i & 31` selecting a bit of a 32-bit word
(bitsets) or `threadIdx.x % 32` inside a 32x32 tile is data layout and stays silent."""
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
    )
    passes = (
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

    def message(self, ctx, s) -> str:
        return (f"`{_expr_text(ctx, s.node)}` computes a lane index from a hardcoded 32{_why(s)}: {ctx.breaks}, "
                f"lanes 32-63 alias lanes 0-31; use {ctx.wave} (`% warpSize`, `& (warpSize - 1)`)"
                if ctx.lang != "metal" else
                f"`{_expr_text(ctx, s.node)}` computes a SIMD lane from a hardcoded 32{_why(s)}: wrong {ctx.breaks}; "
                f"take the lane from a `[[thread_index_in_simdgroup]]` parameter")


@register
class WarpIndexFrom32(SiteRule):
    code, name, fixable = "WS003", "warp-index-from-32", True
    summary = "A warp index or warp count is computed with `/ 32` or `>> 5` and reaches a warp-level use."
    docs = """\
`warp = threadIdx.x / 32`, `threadIdx.x >> 5`, `nwarps = blockDim.x / 32` or `(n + 31) / 32` when
the value selects a per-warp slot, a leader warp or bounds the warps that take part.  With 64-wide
waves one wave spans two such "warps": both halves write different slots but only one of them
runs the warp-level code, so per-warp partial results are lost or read uninitialised.

**Fix** (`--fix`): `threadIdx.x / warpSize`, `(blockDim.x + warpSize - 1) / warpSize`.

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
    )
    passes = (
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

    def message(self, ctx, s) -> str:
        return (f"`{_expr_text(ctx, s.node)}` computes a warp index or count from a hardcoded 32{_why(s)}: "
                f"{ctx.breaks}, one wave spans two of these warps; divide by {ctx.wave} instead")


@register
class ShuffleLadderFrom16(SiteRule):
    def check(self, ctx) -> None:
        for s, code in site_codes(ctx):
            if code == self.code and not (s.role == "ladder" and _has_wide_step(ctx, s.node)):
                ctx.report(self, s.node, self.message(ctx, s), fix=site_fix(ctx, s))

    code, name, fixable = "WS004", "shuffle-ladder-from-16", True
    summary = "A shuffle reduction ladder starts at 16 (loop or unrolled)."
    docs = """\
`for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(m, v, o);` or the unrolled
`__shfl_xor_sync(m, v, 16); ... 8 ... 1`.  Starting at 16 folds 32 lanes: on a 64-wide wave lanes
32-63 are never combined with lanes 0-31, so every warp reduction returns half the answer.

**Fix** (`--fix`): start the loop at `warpSize / 2`; for an unrolled ladder, add a first step
`if (warpSize > 32) v += __shfl_xor_sync(m, v, 32);` (never taken on NVIDIA).

A shuffle with an explicit width argument (`__shfl_down_sync(m, v, o, 16)`) is a logical sub-warp
the code means, and stays silent."""
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
    if (warpSize > 32) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 32));
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 16));
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 8));
    return v;
}"""))

    def message(self, ctx, s) -> str:
        kind = "an unrolled shuffle ladder" if s.role == "ladder" else "a shuffle ladder"
        start = "`threads_per_simdgroup / 2` (or `simd_sum`)" if ctx.lang == "metal" else \
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


@register
class FullMask32Bit(Rule):
    code, name = "WS007", "full-mask-32-bit"
    summary = "The 32-bit full mask `0xffffffff` is passed to a `_sync` warp intrinsic."
    docs = """\
Correct on NVIDIA.  HIP's `_sync` intrinsics (ROCm 6.2 and later) take a 64-bit lane mask and
reject a 32-bit one at compile time, and on a 64-wide wave `0xffffffff` names only lanes 0-31.

**Fix**: in the HIP port drop the mask and use `__shfl_down(v, d)` (what `kernelport translate`
does: mask-less forms exist on every ROCm), or keep the CUDA spelling behind
`#ifdef __CUDA_ARCH__`.  Reported as a warning when a HIP target is configured, as info otherwise.

Masks that come from `__activemask()` or a ballot are not reported."""
    flags = (
        ex("""
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffff, v, o);  // !
    return v;
}"""),
        ex("""
#define FULL_MASK 0xffffffffu
__device__ int any_set(int p) { return __any_sync(FULL_MASK, p); }  // !"""),
    )
    passes = (
        ex("""
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
    return v;
}""", lang="hip"),
        ex("""
__device__ int leader_value(int v) {
    unsigned m = __activemask();
    return __shfl_sync(m, v, __ffs(m) - 1);
}"""),
    )

    def severity(self, targets):
        if targets & {"hip-cdna", "hip-rdna"}:
            return "warning"
        return "info" if targets - {"cuda"} else None

    def check(self, ctx) -> None:
        for mask, cls, _ in ctx.analysis.shuffle_masks:
            if cls != "full" or ctx.guarded(mask):
                continue
            call = mask.parent.parent if mask.parent is not None else None
            if call is None or call.type != "call_expression":
                continue
            fn = ctx.text(call.child_by_field_name("function"))
            if not fn.endswith("_sync"):
                continue
            c = dialect.lookup("cuda", fn)
            hip = c.name("hip") if c is not None else None
            ctx.report(self, mask,
                       f"32-bit full mask `{ctx.text(mask)}` passed to `{fn}`: HIP's `_sync` intrinsics (ROCm >= 6.2) "
                       f"need a 64-bit mask and on a 64-wide wave this one names only lanes 0-31; in the HIP port "
                       f"use the mask-less `{hip or 'HIP form'}` (as `kernelport translate` does)")


@register
class BallotStored32Bit(SiteRule):
    code, name = "WS008", "ballot-stored-32-bit"
    summary = "A ballot (lane mask) is stored in a 32-bit integer."
    docs = """\
`unsigned mask = __ballot_sync(m, p);` — a ballot has one bit per lane: 64 bits on a 64-wide
wave (`__ballot` returns `unsigned long long` in HIP, `simd_vote` is 64-bit on Metal).  A 32-bit
variable silently drops lanes 32-63: counts are halved, `__ffs` misses the leader.

**Fix**: `unsigned long long mask` (or `auto`), and the 64-bit bit operations (`__popcll`,
`__ffsll`).  No automatic fix: widening the type is not neutral on NVIDIA for every use."""
    flags = (
        ex("""
__global__ void count(const float* x, int* out) {
    unsigned mask = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);  // !
    if (threadIdx.x % warpSize == 0) atomicAdd(out, __popcll(mask));
}"""),
    )
    passes = (
        ex("""
__global__ void count(const float* x, int* out) {
    unsigned long long mask = __ballot(x[threadIdx.x] > 0.0f);
    if (threadIdx.x % warpSize == 0) atomicAdd(out, __popcll(mask));
}""", lang="hip"),
    )

    def message(self, ctx, s) -> str:
        return (f"a ballot is stored in the 32-bit type `{ctx.text(s.node)}`{_why(s)}: {ctx.breaks}, lanes 32-63 are "
                f"silently dropped from the mask; store it in `unsigned long long` (or `auto`)")


@register
class MaskBitop32Bit(SiteRule):
    code, name, fixable = "WS009", "mask-bitop-32-bit", True
    summary = "`__popc`, `__ffs` or `__clz` is applied to a lane mask."
    docs = """\
`__popc(mask)`, `__ffs(mask) - 1`, `__clz(mask)` on a ballot or lane mask count and search 32
bits.  With 64-lane masks the upper half is ignored: warp counts and leader elections are wrong.

**Fix** (`--fix` for `__popc`/`__ffs` of an unsigned mask): `__popcll`, `__ffsll`; identical on a
32-bit unsigned value.  `__clz` has no neutral fix (`__clzll` counts 32 more zeros).  `__popc` of
ordinary data (not a lane mask) stays silent."""
    flags = (
        ex("""
__global__ void compact(const float* in, int* out) {
    unsigned long long mask = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);
    int total = __popc(mask);  // !
    int first = __ffs(mask) - 1;  // !
    out[threadIdx.x] = total + first;
}"""),
    )
    passes = (
        ex("""
__global__ void bits(const unsigned* x, int* out) {
    out[threadIdx.x] = __popc(x[threadIdx.x]);
}"""),
    )
    fixes = (("""
__global__ void compact(const float* in, int* out) {
    unsigned long long mask = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);
    out[threadIdx.x] = __popc(__ballot_sync(0xffffffff, in[threadIdx.x] > 1.0f));
}""", """
__global__ void compact(const float* in, int* out) {
    unsigned long long mask = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);
    out[threadIdx.x] = __popcll(__ballot_sync(0xffffffff, in[threadIdx.x] > 1.0f));
}"""),)

    def message(self, ctx, s) -> str:
        fn = ctx.text(s.node.child_by_field_name("function"))
        return (f"`{fn}` of a lane mask looks at 32 bits{_why(s)}: {ctx.breaks}, lanes 32-63 are ignored; "
                f"use `{fn}ll` on a 64-bit mask")


@register
class LaneBit32Bit(SiteRule):
    code, name = "WS010", "lane-bit-32-bit"
    summary = "A lane bit is built as `1u << lane` (32-bit) and combined with a lane mask."
    docs = """\
`mask & ((1u << lane) - 1)` (lanes below this one) with a 32-bit `1u`: for lanes 32-63 of a
64-wide wave the shift is undefined and the mask loses its upper half.

**Fix**: `1ull << lane`.  A `1u << (i & 31)` that sets a bit of a 32-bit word (bitsets) does
not meet a lane mask and stays silent."""
    flags = (
        ex("""
__global__ void rank(const float* in, int* out) {
    int lane = threadIdx.x % warpSize;
    unsigned long long mask = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);
    out[threadIdx.x] = __popcll(mask & ((1u << lane) - 1));  // !
}"""),
    )
    passes = (
        ex("""
__global__ void rank(const float* in, int* out) {
    int lane = threadIdx.x % warpSize;
    unsigned long long mask = __ballot(in[threadIdx.x] > 0.0f);
    out[threadIdx.x] = __popcll(mask & ((1ull << lane) - 1));
}""", lang="hip"),
        ex("""
__global__ void set_bits(const float* x, unsigned* bits, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] > 0.5f) atomicOr(&bits[i >> 5], 1u << (i & 31));
}"""),
    )

    def message(self, ctx, s) -> str:
        return (f"`{_expr_text(ctx, s.node)}` builds a lane bit in 32 bits{_why(s)}: {ctx.breaks}, lanes 32-63 shift "
                f"past the end (undefined) and the mask loses its upper half; use `1ull << lane`")


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
(`tile[32][33]`) indexed by thread coordinates stays silent."""
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
    )
    passes = (
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


@register
class FullMaskInPartialWarp(Rule):
    code, name = "WS012", "full-mask-in-partial-warp"
    summary = "A warp operation with a full lane mask runs where only part of the warp is active."
    docs = """\
`if (tid < 32) { v += __shfl_down_sync(0xffffffff, v, 16); ... }` or calling a full-mask warp
helper under `if (lane < 16)` / `if (i < n)`: the mask claims lanes that are not there.  With a
bound that is a multiple of 32 on the thread index this is whole warps on NVIDIA but half a
64-wide wave on AMD CDNA (a warning or error per targets); with any other thread-dependent
condition only part of an NVIDIA warp is active too, which is undefined everywhere (always an
error).

**Fix**: let the whole warp (wave) execute the warp operation and mask the data instead
(`v = (tid < n) ? x[tid] : 0; v = warp_sum(v);`), or pass the mask of the lanes really present
(`__ballot_sync(0xffffffff, tid < n)` before the branch)."""
    flags = (
        ex("""
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
__global__ void k(float* x, int n) {
    float v = x[threadIdx.x];
    if (threadIdx.x < 32) v = warp_sum(v);  // !
    if (threadIdx.x < n) v += __shfl_xor_sync(0xffffffff, v, 1);  // !
    x[threadIdx.x] = v;
}"""),
    )
    passes = (
        ex("""
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
__global__ void k(float* x, int n) {
    int warp = threadIdx.x / warpSize;
    float v = (threadIdx.x < n) ? x[threadIdx.x] : 0.0f;
    if (warp == 0) v = warp_sum(v);
    unsigned m = __ballot_sync(0xffffffff, threadIdx.x < n);
    if (threadIdx.x < n) v = __shfl_down_sync(m, v, 1);
    x[threadIdx.x] = v;
}"""),
    )

    def check(self, ctx) -> None:
        for h in ctx.divergence.partial_warp_ops:
            cond = " ".join(ctx.text(h.frame.node).split())
            cond = cond if len(cond) <= 40 else cond[:37] + "..."
            what = f"`{h.callee}` runs full-mask warp operations" if h.callee else "this warp operation claims every lane"
            if _whole_warps(ctx, h.frame.node):
                ctx.report(self, h.node,
                           f"{what} inside `{cond}` (line {ctx.where(h.frame.node).split(':')[0]}): whole warps on "
                           f"NVIDIA, but {ctx.breaks}, only part of the wave is active and the mask names absent "
                           f"lanes; run the warp operation with the whole wave and mask the data instead")
            else:
                ctx.report(self, h.node,
                           f"{what} inside the thread-dependent `{cond}` (line {ctx.where(h.frame.node).split(':')[0]}): "
                           f"only some lanes are active, so the mask names lanes that are not there (undefined on "
                           f"NVIDIA, AMD and Metal); let the whole warp execute it and mask the data, or pass the "
                           f"ballot of the active lanes", severity="error")


_PORTABLE_LANE = re.compile(r"(%|/)\s*warpSize\b|&\s*\(\s*warpSize\s*-\s*1\s*\)|__lane_id\s*\(")


def _portable_lane_vars(ctx) -> set[str]:
    """Locals holding a lane or warp index computed from warpSize (`lane = tid % warpSize`)."""
    out = set()
    for n in ctx.nodes("init_declarator"):
        if True:
            v, d = n.child_by_field_name("value"), n.child_by_field_name("declarator")
            if v is not None and d is not None and d.type == "identifier" and _PORTABLE_LANE.search(ctx.text(v)):
                out.add(ctx.text(d))
    return out


def _indexed_by(ctx, sh, names: set[str]) -> bool:
    for n in ctx.nodes("subscript_expression"):
        if True:
            base = n
            while base.type == "subscript_expression":
                base = base.child_by_field_name("argument")
            if base.type == "identifier" and ctx.text(base) == sh.name:
                idx = ctx.text(n.child_by_field_name("indices"))
                if any(re.search(rf"\b{re.escape(v)}\b", idx) for v in names) or _PORTABLE_LANE.search(idx):
                    return True
    return False


def _whole_warps(ctx, cond: Node) -> bool:
    n = cond
    while n is not None and n.type in ("condition_clause", "parenthesized_expression") and n.named_children:
        n = n.named_children[0]
    if n is None or n.type != "binary_expression":
        return False
    op = ctx.text(n.child_by_field_name("operator"))
    if op not in ("<", "<=", ">", ">="):
        return False
    for side in (n.child_by_field_name("left"), n.child_by_field_name("right")):
        t = ctx.text(side).strip("() ")
        v = warpflow.int_value(t)
        if (v is not None and v > 0 and v % 32 == 0) or t in ctx.hardcoded_macros:
            return True
    return False


@register
class WarpSizeConstantExpression(Rule):
    code, name = "WS013", "warpsize-in-constant-expression"
    summary = "`warpSize` is used where a constant expression is required."
    docs = """\
`__shared__ float s[warpSize]`, `template_fn<warpSize>()`, `static_assert(warpSize == 32)`,
`constexpr int W = warpSize;`, `#if warpSize == 64`.  `warpSize` is a run-time value: nvcc never
accepted it there, and from ROCm 7 HIP's `warpSize` is not `constexpr` either (older ROCm
accepted it, so such HIP code stops compiling on upgrade).  In `#if` it is not a macro at all
and silently evaluates to 0.

**Fix**: a per-architecture constant where a constant is needed (64 under `__GFX9__`, else 32;
the `KP_WAVE_SIZE` of kernelport's HIP ports), an upper bound (64) for array sizes, and
`warpSize` at run time."""
    flags = (
        ex("""
template <int W> __device__ float reduce(float v);
__global__ void k(float* x) {
    __shared__ float s[warpSize];  // !
    static_assert(warpSize == 64, "wave64 only");  // !
    x[0] = reduce<warpSize>(s[0]);  // !
}""", lang="hip"),
    )
    passes = (
        ex("""
__global__ void k(float* x) {
    int lane = threadIdx.x % warpSize;
    x[threadIdx.x] = __shfl(x[threadIdx.x], (lane + 1) % warpSize);
}""", lang="hip"),
    )

    def severity(self, targets):
        return "error"

    def check(self, ctx) -> None:
        ws = dialect.concept("warp_size")
        names = {ws.name("cuda"), ws.name("hip")}
        aliases = set()
        for n in ctx.nodes("preproc_def"):
            v = n.child_by_field_name("value")
            if v is not None and ctx.text(v).strip().strip("()").strip() in names:
                aliases.add(ctx.text(n.child_by_field_name("name")))
        for n in ctx.nodes("identifier", "type_identifier"):
            t = ctx.text(n)
            if t not in names and t not in aliases:
                continue
            if _in_macro_definition(n) or ctx.guarded(n) and t in aliases:
                continue
            where = _const_context(ctx, n)
            if where:
                via = f" (through `{t}`)" if t in aliases else ""
                ctx.report(self, n, f"`warpSize`{via} used in {where}, which needs a constant expression: warpSize is a "
                           f"run-time value (nvcc rejects it, and HIP's is not constexpr from ROCm 7); use a "
                           f"per-architecture constant (64 under `__GFX9__`, else 32) or an upper bound of 64")


def _in_macro_definition(n: Node) -> bool:
    p = n.parent
    while p is not None:
        if p.type in ("preproc_def", "preproc_function_def"):
            return True
        p = p.parent
    return False


def _const_context(ctx, node: Node) -> str | None:
    n = node
    while n is not None:
        p = n.parent
        if p is None:
            return None
        if p.type == "array_declarator" and p.child_by_field_name("size") is not None and \
                (p.child_by_field_name("size").start_byte, p.child_by_field_name("size").end_byte) == (n.start_byte, n.end_byte):
            return "an array size"
        if p.type == "template_argument_list":
            return "a template argument"
        if p.type == "static_assert_declaration":
            return "a static_assert"
        if p.type in ("case_statement",) and n.type != "compound_statement" and p.child_by_field_name("value") is not None \
                and (p.child_by_field_name("value").start_byte, p.child_by_field_name("value").end_byte) == (n.start_byte, n.end_byte):
            return "a case label"
        if p.type in ("preproc_if", "preproc_elif") and p.child_by_field_name("condition") is not None and \
                (p.child_by_field_name("condition").start_byte, p.child_by_field_name("condition").end_byte) == (n.start_byte, n.end_byte):
            return "a preprocessor condition (where it is not a macro and reads as 0)"
        if p.type == "launch_bounds":
            return "`__launch_bounds__`"
        if p.type == "enumerator":
            return "an enumerator"
        if p.type == "declaration" and any(c.type == "type_qualifier" and ctx.text(c) == "constexpr" for c in p.children):
            return "a constexpr initializer"
        if p.type in ("compound_statement", "function_definition", "field_declaration_list"):
            return None
        n = p
    return None


@register
class Hardcoded64UnderAmdGuard(Rule):
    code, name = "WS014", "hardcoded-64-under-amd-guard"
    summary = "A wave width of 64 is hardcoded for every AMD GPU (`#ifdef __HIP_PLATFORM_AMD__` ... 64)."
    docs = """\
`#ifdef __HIP_PLATFORM_AMD__` / `#if defined(USE_ROCM)` followed by `#define WARP_SIZE 64`,
`constexpr int kWarpSize = 64`, `% 64` or `>> 6` on a thread index.  Only CDNA (gfx9: MI100-
MI300) is wave64; RDNA GPUs (gfx10-12: Radeon RX 6000/7000, W7900) are wave32, so the platform
test is the wrong question and every RDNA build computes lanes, warps and ladders for 64 lanes.

**Fix**: test the architecture (`#if defined(__GFX9__)` → 64, else 32) or use `warpSize` at run
time.  An `__GFX9__` / `__AMDGCN_WAVEFRONT_SIZE` test is what it should be and stays silent.
An error when `hip-rdna` is a target, a warning otherwise."""
    flags = (
        ex("""
#ifdef __HIP_PLATFORM_AMD__
#define WARP_SIZE 64  // !
#else
#define WARP_SIZE 32
#endif"""),
        ex("""
__global__ void k(float* x) {
#if defined(USE_ROCM)
    int lane = threadIdx.x % 64;  // !
#else
    int lane = threadIdx.x % 32;
#endif
    x[threadIdx.x] = __shfl(x[threadIdx.x], lane);
}"""),
    )
    passes = (
        ex("""
#if defined(__GFX9__)
#define KP_WAVE_SIZE 64
#else
#define KP_WAVE_SIZE 32
#endif"""),
        ex("""
#ifdef __HIP_PLATFORM_AMD__
#define BLOCK 64
#endif"""),
    )

    def severity(self, targets):
        if "hip-rdna" in targets:
            return "error"
        return "warning" if targets & {"hip-cdna"} else None

    def check(self, ctx) -> None:
        for n in ctx.nodes("preproc_def", "number_literal"):
            if n.type == "preproc_def" and n.child_by_field_name("value") is not None:
                v, name = n.child_by_field_name("value"), ctx.text(n.child_by_field_name("name"))
                if warpflow.int_value(ctx.text(v)) == 64 and guards.side_of(n, ctx.src) == "amd" and (
                        warpflow.WARP_SIZE_NAME.search(name) or name in ctx.settings.portable_macros):
                    ctx.report(self, v, f"`{name}` is 64 for every AMD GPU: RDNA (gfx10-12) runs 32-wide waves; test "
                               f"the architecture (`__GFX9__` → 64, else 32) or use `warpSize` at run time")
                continue
            if n.type == "number_literal" and warpflow.int_value(ctx.text(n)) in (64, 63, 6):
                side = guards.side_of(n, ctx.src)
                if side != "amd":
                    continue
                if self._is_wave(ctx, n):
                    ctx.report(self, n, f"`{_expr_text(ctx, n) if n.parent.type == 'binary_expression' else ctx.text(n)}` "
                               f"hardcodes a 64-wide wave for every AMD GPU: RDNA (gfx10-12) runs 32-wide waves; test "
                               f"the architecture (`__GFX9__` → 64, else 32) or use `warpSize` at run time")

    def _is_wave(self, ctx, n: Node) -> bool:
        v = warpflow.int_value(ctx.text(n))
        p = n.parent
        if p is not None and p.type == "preproc_arg":
            p = p.parent
        if p is not None and p.type == "preproc_def":
            return v == 64 and bool(warpflow.WARP_SIZE_NAME.search(ctx.text(p.child_by_field_name("name"))))
        if p is not None and p.type == "init_declarator":
            nm = p.child_by_field_name("declarator")
            return v == 64 and nm is not None and bool(warpflow.WARP_SIZE_NAME.search(ctx.text(nm)))
        if p is not None and p.type == "binary_expression":
            op = ctx.text(p.child_by_field_name("operator"))
            left = ctx.text(p.child_by_field_name("left"))
            threadish = "threadIdx" in left or re.search(r"\b(tid|lane|thread)\w*", left)
            return bool(threadish) and ((op in ("%", "/") and v == 64) or (op == "&" and v == 63) or
                                        (op == ">>" and v == 6))
        return False


@register
class HostGeometryFrom32(Rule):
    code, name = "WS015", "host-geometry-from-32"
    summary = "Host code computes launch geometry or shared-memory sizes from a hardcoded warp size."
    docs = """\
Host code sizing a launch of a warp-level kernel with 32: `int warps = threads / 32;`,
`k<<<blocks, threads, (threads / 32) * sizeof(float)>>>`, `32 * sizeof(T)` shared bytes,
`<<<n, 32>>>` for a kernel that assumes a block is one warp, or any host use of a hardcoded
`WARP_SIZE` macro.  The host pass cannot know the device's wave width: on 64-wide AMD waves the
shared buffers and warp counts are wrong.

**Fix**: ask the device (`cudaDeviceGetAttribute(&w, cudaDevAttrWarpSize, dev)`,
`hipDeviceGetAttribute(&w, hipDeviceAttributeWarpSize, dev)`) and compute from that; this is
the `kp_device_warp_size()` of kernelport's HIP ports.  Launches of kernels with no warp-level
code (a 32x8 transpose tile) stay silent."""
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
    )
    passes = (
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
    )

    def check(self, ctx) -> None:
        seen: set[tuple[int, int]] = set()
        fn_attr = dialect.concept("rt_attr_warp_size")
        ask = f"`{fn_attr.spelling('cuda')}` / `{fn_attr.spelling('hip')}`"

        def report(node: Node, what: str) -> None:
            key = (node.start_byte, node.end_byte)
            if key in seen or ctx.guarded(node):
                return
            seen.add(key)
            ctx.report(self, node, f"host code {what}: the host cannot know the device's wave width, which is not 32 "
                       f"{ctx.breaks}; query it ({ask}) and compute from that")

        warpish = set(ctx.warp_level) | {s.function for s in ctx.sites if s.function}
        for f in ctx.module.functions.values():
            if f.is_device or f.body is None:
                continue
            for n in walk(f.body):
                if n.type == "identifier" and ctx.text(n) in ctx.hardcoded_macros:
                    report(n, f"uses the hardcoded warp size `{ctx.text(n)}`")
            defs = _local_defs(ctx, f.body)
            for launch in ctx.module.launches:
                if launch.function != f.name or launch.kernel not in warpish:
                    continue
                cfg = launch.config
                if len(cfg) >= 2 and warpflow.int_value(ctx.text(cfg[1])) == 32:
                    report(cfg[1], f"launches `{launch.kernel}` with 32-thread blocks, one NVIDIA warp")
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
                                report(n, f"sizes the launch of warp-level kernel `{launch.kernel}` with "
                                       f"`{_expr_text(ctx, n)}`")
        for s, code in site_codes(ctx):
            if code == self.code:
                stmt = s.node
                while stmt.parent is not None and not (stmt.type.endswith("statement") or stmt.type == "declaration"):
                    stmt = stmt.parent
                text = " ".join(ctx.text(stmt).split())
                text = text if len(text) <= 60 else text[:57] + "..."
                report(s.node, f"hardcodes the warp size as 32 in `{text}`{_why(s)}")


def _local_defs(ctx, body: Node) -> dict[str, list[Node]]:
    """Host locals and the expressions assigned to them."""
    defs: dict[str, list[Node]] = {}
    from ...source import ident_name
    for n in walk(body):
        if n.type == "init_declarator":
            name = ident_name(n.child_by_field_name("declarator"))
            v = n.child_by_field_name("value")
            if name and v is not None:
                defs.setdefault(name, []).append(v)
        elif n.type == "declaration":
            for d in n.children_by_field_name("declarator"):
                if d.type == "function_declarator":  # dim3 block(32, 8)
                    nm = d.child_by_field_name("declarator")
                    args = d.child_by_field_name("parameters")
                    if nm is not None and args is not None:
                        defs.setdefault(ctx.text(nm), []).append(args)
        elif n.type == "assignment_expression":
            left = n.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                defs.setdefault(ctx.text(left), []).append(n.child_by_field_name("right"))
    return defs


@register
class MixedWarpSizeSources(Rule):
    code, name = "WS016", "mixed-warp-size-sources"
    summary = "One function uses both `warpSize` and a hardcoded 32 as the wave width."
    docs = """\
A kernel that computes `lane = tid % warpSize` but runs a ladder from 16, or sizes with
`WARP_SIZE` (32) while shuffling with `warpSize`.  The author clearly meant to be portable, but
on a 64-wide wave the two disagree: lanes numbered to 63 meet ladders and slots for 32.

**Fix**: use `warpSize` (or a per-architecture constant where a constant is needed) everywhere in
the function.  Reported once per function, at the first hardcoded use; the individual sites also
have their own findings."""
    flags = (
        ex("""
__global__ void k(float* x) {
    int lane = threadIdx.x % warpSize;
    float v = x[threadIdx.x];
    for (int o = 16; o > 0; o /= 2)  // !
        v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) x[blockIdx.x] = v;
}"""),
    )
    passes = (
        ex("""
__global__ void k(float* x) {
    int lane = threadIdx.x % warpSize;
    float v = x[threadIdx.x];
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) x[blockIdx.x] = v;
}"""),
    )

    def check(self, ctx) -> None:
        ws_names = {dialect.concept("warp_size").name("cuda")}
        for f in ctx.module.functions.values():
            if not f.is_device or f.body is None:
                continue
            portable = [n for n in walk(f.body) if n.type == "identifier" and ctx.text(n) in ws_names
                        and ctx.code_context(n) != "const"]
            if not portable:
                continue
            hard = [s.node for s, code in site_codes(ctx)
                    if s.role in ("ws", "ws_m1", "half", "five", "ladder") and code != "WS001"
                    and f.node.start_byte <= s.node.start_byte < f.node.end_byte]
            hard += [n for n in walk(f.body) if n.type == "identifier" and ctx.text(n) in ctx.hardcoded_macros]
            if not hard:
                continue
            first = min(hard, key=lambda n: n.start_byte)
            ctx.report(self, first, f"`{f.name}` uses both `warpSize` (line {ctx.where(portable[0]).split(':')[0]}) and "
                       f"a hardcoded 32 (`{_expr_text(ctx, first)}`) as the wave width: {ctx.breaks}, they disagree; "
                       f"use `warpSize` throughout", related=(ctx.related(portable[0], "warpSize used here"),))


@register
class WarpSizeLiteral(SiteRule):
    code, name = "WS017", "warp-size-literal"
    summary = "Another literal whose value is the warp width (32, 31, 16, 0xffffffff) reaches a warp-level use."
    docs = """\
The warp-size dataflow followed a 32, 31, 16 or full 32-bit mask to a warp-level use that the
more specific rules do not name: a lane test `lane < 16` in warp code, a ballot compared with
`0xffffffff` ("all lanes voted yes", never true for 64 lanes), a per-warp count.  The message
says which use confirmed it.

**Fix**: express it through `warpSize` (`warpSize / 2`, `warpSize - 1`), and compare ballots with
`__activemask()` or the ballot of the lanes present."""
    flags = (
        ex("""
__global__ void all_positive(const float* x, int* out) {
    unsigned long long m = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);
    if (m == 0xffffffff) out[blockIdx.x] = 1;  // !
}"""),
    )
    passes = (
        ex("""
__global__ void all_positive(const float* x, int* out) {
    if (__all_sync(0xffffffff, x[threadIdx.x] > 0.0f)) out[blockIdx.x] = 1;
}"""),
    )

    def message(self, ctx, s) -> str:
        if s.role == "full_value":
            return (f"`{_expr_text(ctx, s.node)}` compares a ballot with the 32-bit all-ones mask: {ctx.breaks}, a "
                    f"full wave's ballot has 64 bits, so the test never holds; use `__all_sync` or compare with "
                    f"`__activemask()`")
        return (f"`{_expr_text(ctx, s.node)}` uses {ctx.text(s.node)} as a warp-width value{_why(s)}: wrong "
                f"{ctx.breaks}; express it through {ctx.wave}")
