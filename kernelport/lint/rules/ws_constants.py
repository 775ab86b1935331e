"""WS rules on constants and macros that spell the warp size: hardcoded 32s, `warpSize` where a
constant expression is needed, a 64 fixed for every AMD GPU, mixed sources, bare literals."""
from __future__ import annotations

import bisect
import re

from tree_sitter import Node

from ... import backends, cexpr, dialect, headerconsts, warpflow, warpsplits
from ... import guards, own_macros
from ...source import call_args, uncomment
from .. import blockextents, constcontexts, logicaluses, membernames, recombined, rowsplits, subwave, unreadmacros, \
    warpconsts, warpcountpairs, warpfree, xorbounds
from ..rule import Rule, ex, register
from .ws_sites import SiteRule, _expr_text, _why, holds_at_64, site_codes


@register
class HardcodedWarpSize(Rule):
    code, name = "WS001", "hardcoded-warp-size"
    severities = frozenset({"info"})  # rows that compute the same at 64: advice (lint/warpconsts.py too)
    summary = "A macro or constant hardcodes the warp size as 32."
    docs = """\
`#define WARP_SIZE 32`, `constexpr int kWarpSize = 32`, an accessor named for it that only returns
32 (QUDA's `constexpr int warp_size() { return 32; }`), or any constant 32 whose value reaches a
warp-level use (a shuffle lane, a per-warp slot, a lane mask); a class's static constant member
named for it (`struct GpuConfig { static constexpr int warpSize = 32; }`, read as
`GpuConfig::warpSize`), and log2 of the warp size as 5 (`#define WARP_BITSHIFT 5`, `warpSizeLog2 =
5`: warp ids `tid >> 5`, 5-step ladders) where a use is in warp-level code or a lane, warp or
warp-count helper.  Every use inherits the 32: on AMD CDNA (gfx9, MI100-MI300) a wave has 64 lanes, on Metal the SIMD-group width is not
guaranteed, so lane and warp indices, ladders and per-warp arrays computed from it are wrong.

**Fix**: use `warpSize` at run time.  Where a constant expression is needed (array sizes,
template arguments) derive it from the architecture: 64 under `__GFX9__`, else 32 (this is the
`KP_WAVE_SIZE` that `kernelport translate` emits).  If your build already defines the macro per
architecture, list it in `portable-macros` in `[tool.kernelport]`.  A warp count multiplied by it
in another definition (`#define NUM_THREADS (NUM_WARPS * WARP_SIZE)` with `NUM_WARPS 32`) is named
too when its product at 64 lanes passes a block's 1024 threads: it has to shrink with the wave.  A use its value
cannot change is not named (`warp_id * WARP_SIZE + lane_id`, `warp_id = tid / WARP_SIZE`, `lane_id = tid % WARP_SIZE`:
it is `tid`; lint/recombined.py).  A constant not named for the warp (`static const int WS = 32;  // warp size and
bits per int`) is reported where its 32 reaches a warp-level use, naming the uses where it makes a lane or warp index
that such a use reads (`lane = threadIdx.x % WS` tested against a ballot's lane), not its other uses (`wbeg / WS`).

Stays silent on: macros that are not about warps (`#define TILE_DIM 32` for a tile), on a
definition that nothing in its (non-header) file uses, on one whose warp-level uses are all in logical 32-lane
groups (rows of 32 from the launch or the data layout: it is the rows' width; a function whose every warp call
names the width 32, `__shfl_down(v, o, 32)`: the group's width) or in functions whose only
warp operation is `__syncwarp` (its 32 lays out shared memory: lint/syncgroups.py), and on
definitions inside a platform or architecture branch (`#if defined(__GFX9__)` ... `#else`
`#define WARP_SIZE 32`), which are per-platform by construction; nor on one that is the launches' block extent
(`k<<<g, WARP_SIZE>>>`) and reaches no warp operation: a thread count (lint/blockextents.py); nor on one that only
bounds an xor-shuffle ladder's distances (`for (; s >= WARP_SIZE; s >>= 1)`, then `__shfl_xor_sync(m, v, s)`: lint/xorbounds.py);
nor on one in a source file with no warp code (no shuffle, vote, lane register or cooperative-groups tile) whose
uses read no thread index: a loop stride or a byte count (lint/warpfree.py).  A header's definition its own file never
uses is judged, in a run over a tree, with the files of the run that include it: quiet when none of them uses it where
a finding is (lint/headeruses.py); linted alone, or included by no file of the run, it is named."""
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
        ex("""
namespace device {
__host__ __device__ constexpr int warp_size() { return 32; }  // !
}
__global__ void k(float* x) {
    int lane = threadIdx.x % device::warp_size();
    x[threadIdx.x] = __shfl_xor_sync(0xffffffff, x[threadIdx.x], 1) + lane;
}""", note="an accessor that only returns 32: every call is the constant"),
    )
    passes = (
        ex("""
__host__ __device__ constexpr int tile_size() { return 32; }
__global__ void copy(float* o, const float* i) {
    __shared__ float tile[tile_size()][tile_size() + 1];
    tile[threadIdx.y][threadIdx.x] = i[threadIdx.y * tile_size() + threadIdx.x];
    __syncthreads();
    o[threadIdx.x * tile_size() + threadIdx.y] = tile[threadIdx.y][threadIdx.x];
}""", note="an accessor of a tile's size, not named for the warp"),
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
            own = m.node.parent  # a constant's own declarator (`const int WARP_SIZE = 32;`) is no use of it
            own = own.child_by_field_name("declarator") if own is not None and own.type == "init_declarator" else None
            uses = recombined.dependent_uses(ctx, [n for n in ctx.nodes("identifier") if ctx.text(n) == name
                    and not (n.parent is not None and n.parent.type == "preproc_def") and n != own], name)
            if not uses and not ctx.path.endswith((".h", ".hpp", ".cuh", ".hh", ".inl")):
                continue  # unused in a source file (a header's uses are in the files that include it)
            if logicaluses.all_logical(ctx, uses) or uses and all(xorbounds.bounds_xor_ladder(ctx, u) for u in uses):
                continue  # a logical 32-lane group's width, or only an xor ladder's bound: 32 is right there
            if blockextents.block_extent_only(ctx, name, uses):
                continue  # the launches' block extent, reaching no warp operation: a thread count
            if warpfree.warp_free(ctx, uses):
                continue  # a plain number in a file with no warp code (a stride, a byte count)
            site = logicaluses.site_role(ctx)  # a use in a logical 32-lane group sizes that group: context
            rows = rowsplits.advise_uses(ctx, self.code, uses)
            if rows is not None:  # the rows' width, correct at 64 (lint/rowsplits.py)
                ctx.report(self, m.node, f"`{name}` hardcodes the warp size as {m.value}; {rows}",
                           severity="info" if self.severity(ctx.targets) else None,
                           related=tuple(ctx.related(u, f"use of {name}", site=site(u)) for u in uses[:8]))
                continue
            used = (f"its {len(uses)} uses assume" if len(uses) > 1 else "its use assumes") if uses else "it assumes"
            companions = warpcountpairs.warp_counts(ctx, name)
            also = "".join(f"; `{c}` ({n} warps) times it is {n * 32} threads, {n * 64} at 64 lanes (past a "
                           f"block's 1024): derive it from the wave too" for c, _, n in companions)
            ctx.report(self, m.node,
                       f"`{name}` hardcodes the warp size as {m.value}: {used} 32 lanes, which is wrong {ctx.breaks}; "
                       f"use {ctx.wave} at run time and a per-architecture constant (64 under `__GFX9__`, else 32) "
                       f"where a constant expression is needed, or list `{name}` in `portable-macros` if the build "
                       f"defines it per architecture{also}",
                       related=tuple(ctx.related(v, f"{c}: a warp count paired with {name}", site=True) for c, v, _ in companions)
                       + tuple(ctx.related(u, f"use of {name}", site=site(u)) for u in uses[:8]),
                       subject=None if uses else name)  # a header's, used elsewhere: the run decides (lint/headeruses.py)
        self._header_macro_uses(ctx)
        warpconsts.check(self, ctx)  # class members named for it, and its log2 as 5
        for s, code in site_codes(ctx):
            if s.role == "ws_macro_use":
                continue
            if code == self.code and (s.node.start_byte, s.node.end_byte) not in seen:
                seen.add((s.node.start_byte, s.node.end_byte))
                name = ctx.macro_name(s.node) or warpconsts.constant_name(s.node)
                uses = warpconsts.carrying_uses(ctx, s, name) if name else []
                ctx.report(self, s.node, f"`{name or 'this constant'}` hardcodes a warp-size value "
                           f"({ctx.text(s.node).strip()}) that reaches a warp-level use{_why(s)}: wrong {ctx.breaks}; "
                           f"derive it from {ctx.wave}",
                           related=tuple(ctx.related(u, f"{name} makes a lane or warp index here that a warp-level "
                                                        f"use reads", site=True) for u in uses[:8]))


    def _header_macro_uses(self, ctx) -> None:
        """A header's warp-size macro used here at a warp-level use: one finding per macro, at its
        first use in this file (the definition is in the header, which its port rewrites)."""
        from ..finding import Related
        uses: dict[str, list] = {}
        for s, code in site_codes(ctx):
            if s.role == "ws_macro_use":
                uses.setdefault(ctx.text(s.node), []).append(s.node)
        for name, nodes in [(k, v) for k, v in uses.items() if not all(xorbounds.bounds_xor_ladder(ctx, u) for u in v)]:
            where = ctx.unit.header_macros.get(name) or headerconsts.defined_at(ctx.unit, name)
            defined = f" (defined as {where[3]} at {where[0]}:{where[1]})" if where else ""
            related = tuple(ctx.related(n, f"use of {name}", site=True) for n in nodes[1:8])
            if where:
                related = (Related(where[0], where[1], where[2], f"{name} defined here", "site"),) + related
            ctx.report(self, nodes[0], f"`{name}`{defined} hardcodes the warp size as 32: "
                       f"{'its ' + str(len(nodes)) + ' uses here assume' if len(nodes) > 1 else 'its use here assumes'} "
                       f"32 lanes, which is wrong {ctx.breaks}; use {ctx.wave} at run time and a per-architecture "
                       f"constant where a constant expression is needed ({headerconsts.port_note(ctx.unit, name)})",
                       related=related)


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
`warpSize` at run time.

A project that declares a `warpSize` of its own (mallocMC's `constexpr auto warpSize = 32;` in
its namespace) uses its constant there, which is constant: left to WS001, which judges its value."""
    flags = (
        ex("""
template <int W> __device__ float reduce(float v);
__global__ void k(float* x) {
    __shared__ float s[warpSize];  // !
    static_assert(warpSize == 64, "wave64 only");  // !
    x[0] = reduce<warpSize>(s[0]);  // !
}""", lang="hip"),
        ex("""
struct Cfg { static constexpr int warpSize = 64; };
__global__ void k(float* x) {
    static_assert(warpSize == 64, "a free function reads the built-in");  // !
    __shared__ float s[::warpSize];  // !
    x[0] = s[threadIdx.x % Cfg::warpSize];
}""", lang="hip", note="outside the class, and the global scope's, it is the built-in"),
    )
    passes = (
        ex("""
__global__ void k(float* x) {
    int lane = threadIdx.x % warpSize;
    x[threadIdx.x] = __shfl(x[threadIdx.x], (lane + 1) % warpSize);
}""", lang="hip"),
        ex("""
namespace alloc {
constexpr auto warpSize = 64;
template <int N> struct Counters { unsigned n[N]; };
__device__ unsigned first(Counters<1024 / warpSize>& c) { return c.n[0]; }
}""", lang="hip", note="the project's own constant named warpSize"),
        ex("""
struct Cfg {
#if defined(__CUDACC__) && !defined(__HIPCC__)
    static constexpr int warpSize = 32;
#else
    static constexpr int warpSize = 64;
#endif
    static_assert(warpSize == 32 || warpSize == 64, "32 or 64");
};
template <int N> struct Masks { unsigned long long m[N]; };
__global__ void k(Masks<256 / Cfg::warpSize>* out) {
    static_assert(256 % Cfg::warpSize == 0, "whole warps");
    constexpr int warps = 256 / Cfg::warpSize;
    out->m[threadIdx.x % warps] = 0;
}""", lang="hip", note="a class's own warpSize member, in its class and qualified"),
    )

    def severity(self, targets):
        return "error"

    def check(self, ctx) -> None:
        ws = dialect.concept("warp_size")
        names = {ws.name(b.name) for b in backends.all() if b.lint_reader is None} - {None}  # text read as written
        aliases = set()
        for n in ctx.nodes("preproc_def"):
            v = n.child_by_field_name("value")
            if v is not None and uncomment(ctx.text(v)).strip().strip("()").strip() in names:
                aliases.add(ctx.text(n.child_by_field_name("name")))
        if not any(t in ctx.src.text for t in names | aliases):
            return  # no identifier spells one (the text of every identifier was most of this rule's time)
        vis = ctx.module.visible
        own = {ctx.text(d.child_by_field_name("declarator")) for d in ctx.nodes("init_declarator")} | \
            set(vis.declared if vis is not None else ())  # the project's own `warpSize`: a constant
        for n in ctx.nodes("identifier", "type_identifier"):
            t = ctx.text(n)
            if (t not in names and t not in aliases) or t in own:
                continue
            if constcontexts.in_macro_definition(n) or ctx.guarded(n) and t in aliases or t in names and own_macros.shadowed(ctx.src, n, t, vis):
                continue
            if t in names and membernames.names_member(ctx, n, t):
                continue  # `Cfg::warpSize`, or a class's own `warpSize` member inside the class
            where = constcontexts.const_context(ctx, n)
            if where:
                via = f" (through `{t}`)" if t in aliases else ""
                ctx.report(self, n, f"`warpSize`{via} used in {where}, which needs a constant expression: warpSize is a "
                           f"run-time value (nvcc rejects it, and HIP's is not constexpr from ROCm 7); use a "
                           f"per-architecture constant (64 under `__GFX9__`, else 32) or an upper bound of 64")


# Runs of backends whose hardware comes in both widths (AMD: CDNA 64, RDNA 32): one fixed width
# for all of them is wrong on the narrow ones and right, by luck, on the wide ones.
_OWN = backends.hardware_runs()
_BOTH_WIDTHS = [r for r in _OWN if len({o.wave for o in _OWN if o.backend == r.backend}) > 1]
_AMD_NARROW = frozenset(r.target for r in _BOTH_WIDTHS if r.wave == 32)
_AMD_WIDE = frozenset(r.target for r in _BOTH_WIDTHS if r.wave > 32)


@register
class Hardcoded64UnderAmdGuard(Rule):
    code, name = "WS014", "hardcoded-64-under-amd-guard"
    summary = "A wave width of 64 is hardcoded for every AMD GPU (`#ifdef __HIP_PLATFORM_AMD__` ... 64)."
    docs = """\
`#ifdef __HIP_PLATFORM_AMD__` / `#if defined(USE_ROCM)` followed by `#define WARP_SIZE 64`,
`constexpr int kWarpSize = 64` (or a class's `static constexpr int warpSize = 64;` in the `#else` of
`#if defined(__CUDACC__) && !defined(__HIPCC__)`, which hipcc takes), `% 64` or `>> 6` on a thread index.  Only CDNA (gfx9: MI100-
MI300) is wave64; RDNA GPUs (gfx10-12: Radeon RX 6000/7000, W7900) are wave32, so the platform
test is the wrong question and every RDNA build computes lanes, warps and ladders for 64 lanes.

**Fix**: test the architecture (`#if defined(__GFX9__)` → 64, else 32) or use `warpSize` at run
time.  An `__GFX9__` / `__AMDGCN_WAVEFRONT_SIZE` test is what it should be and stays silent, and so does
a source file's definition that nothing in the file reads (lint/unreadmacros.py; a header's is named).
An error when `hip-rdna` is a target, a warning otherwise."""
    flags = (
        ex("""
#ifdef __HIP_PLATFORM_AMD__
#define WARP_SIZE 64  // !
#else
#define WARP_SIZE 32
#endif
__global__ void k(float* x) { x[threadIdx.x % WARP_SIZE] = 0.0f; }"""),
        ex("""
__global__ void k(float* x) {
#if defined(USE_ROCM)
    int lane = threadIdx.x % 64;  // !
#else
    int lane = threadIdx.x % 32;
#endif
    x[threadIdx.x] = __shfl(x[threadIdx.x], lane);
}"""),
        ex("""
struct GpuConfig {
#if defined(__CUDACC__) && !defined(__HIPCC__)
    static constexpr int warpSize = 32;
#else
    static constexpr int warpSize = 64;  // !
#endif
};""", note="hipcc defines `__HIPCC__`, never `__CUDACC__`: the `#else` is every AMD build's"),
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
        ex("""
#ifdef __HIP_PLATFORM_AMD__
#define WARP_SIZE 64
#else
#define WARP_SIZE 32
#endif
__global__ void k(float* x) { x[threadIdx.x] = 0.0f; }  // WARP_SIZE""", note="nothing reads `WARP_SIZE` (a comment "
           "is no read): no width is wrong for it"),
    )

    def severity(self, targets):
        if targets & _AMD_NARROW:
            return "error"
        return "warning" if targets & _AMD_WIDE else None

    def check(self, ctx) -> None:
        for n in ctx.nodes("preproc_def", "number_literal"):
            if n.type == "preproc_def" and n.child_by_field_name("value") is not None:
                v, name = n.child_by_field_name("value"), ctx.text(n.child_by_field_name("name"))
                if warpflow.int_value(ctx.text(v)) == 64 and ctx.side_of(n) == guards.SIDE_AMD and (
                        warpflow.WARP_SIZE_NAME.search(name) or name in ctx.settings.portable_macros) and \
                        not unreadmacros.unread(ctx, name):  # (a definition nothing in its source file reads)
                    ctx.report(self, v, f"`{name}` is 64 for every AMD GPU: RDNA (gfx10-12) runs 32-wide waves; test "
                               f"the architecture (`__GFX9__` → 64, else 32) or use `warpSize` at run time")
                continue
            if n.type == "number_literal" and warpflow.int_value(ctx.text(n)) in (64, 63, 6):
                side = ctx.side_of(n)
                if side != guards.SIDE_AMD:
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
        if p is not None and p.type in ("init_declarator", "field_declaration"):
            # (a class's own member, `static constexpr int warpSize = 64;`: SPH-EXA's GpuConfig)
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
class MixedWarpSizeSources(Rule):
    code, name = "WS016", "mixed-warp-size-sources"
    summary = "One function uses both `warpSize` and a hardcoded 32 as the wave width."
    docs = """\
A kernel that computes `lane = tid % warpSize` but runs a ladder from 16, or sizes with
`WARP_SIZE` (32) while shuffling with `warpSize`.  The author clearly meant to be portable, but
on a 64-wide wave the two disagree: lanes numbered to 63 meet ladders and slots for 32.

**Fix**: use `warpSize` (or a per-architecture constant where a constant is needed) everywhere in
the function.  Reported once per function, at the first hardcoded use; the individual sites also
have their own findings.  The narrower width may be a name the code compares with `warpSize` and
divides by (GROMACS's `c_subWarp<T>`): a function using it, or a helper it calls, that reads
`warpSize` is reported there (`tidx & (warpSize - 1)`; not `c_subWarp<T> == warpSize`: lint/subwave.py)."""
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
        ws_names = {dialect.concept("warp_size").name(backends.source().name)}
        hard_sites: list[Node] | None = None
        for f in ctx.module.functions.values():
            own = ws_names - warpsplits.local32(ctx.src, f.body) if f.is_device and f.body is not None else ()
            portable = [n for n in ctx.src.named_under(f.body, "identifier", own) if ctx.code_context(n) != "const"] \
                if own else []  # not a device function's; a local `int warpSize = 32;` is a 32, not the built-in
            portable = [n for n in portable if not ctx.left_out(n)  # (a branch no AMD build compiles, as written or ported)
                        and not own_macros.shadowed(ctx.src, n, visible=ctx.module.visible)]  # `#define warpSize 32`: the file's constant
            if not portable:
                continue
            if hard_sites is None:  # sorted once (stable: ties keep site order); a bisect per function
                hard_sites = sorted((s.node for s, code in site_codes(ctx) if s.role in ("ws", "ws_m1", "half", "five",
                    "ladder") and code != "WS001" and not holds_at_64(ctx, s, code)), key=lambda n: n.start_byte)
                starts = [n.start_byte for n in hard_sites]
            hard = hard_sites[bisect.bisect_left(starts, f.node.start_byte):bisect.bisect_left(starts, f.node.end_byte)]
            hard += ctx.src.named_under(f.body, "identifier", ctx.hardcoded_macros)
            if not hard:
                continue
            first = min(hard, key=lambda n: n.start_byte)
            at = ctx.arch_reading(first)  # a `warpSize` the same AMD build compiles (`#if __CUDA_ARCH__`: kernelport.arch_branches)
            named = next((n for n in portable if ctx.arch_reading(n) in (None, at)), portable[0])
            ctx.report(self, first, f"`{f.name}` uses both `warpSize` (line {ctx.where(named).split(':')[0]}) and "
                       f"a hardcoded 32 (`{_expr_text(ctx, first)}`) as the wave width: {ctx.breaks}, they disagree; "
                       f"use `warpSize` throughout", related=(ctx.related(named, "warpSize used here"),))
        subwave.check(self, ctx)  # `warpSize` beside a narrower group width the code names (GROMACS)


@register
class WarpSizeLiteral(SiteRule):
    code, name = "WS017", "warp-size-literal"
    summary = "Another literal whose value is the warp width (32, 31, 16, 0xffffffff) reaches a warp-level use."
    docs = """\
The warp-size dataflow followed a 32, 31, 16 or full 32-bit mask to a warp-level use that the
more specific rules do not name: a lane test `lane < 16` in warp code, a ballot compared with
`0xffffffff` ("all lanes voted yes", never true for 64 lanes), a per-warp count.  The message
says which use confirmed it.

A hardware lane tested against a share of a 32-lane warp is one too: faiss packs 32 six-bit
values into the lower `laneId < 24` lanes (32 * 6 / 8), 48 on a 64-lane wave.  The lane is a
local taken modulo `warpSize` or from a lane-id helper, or a parameter named as a lane (`int
laneId`); shares are the multiples of 4 from 12 to 28.  A smaller count (`lane < 8`) and the
lanes of a 32-lane logical group (`% 32`, a literal shuffle width) stay silent.

**Fix**: express it through `warpSize` (`warpSize / 2`, `warpSize - 1`, `kWarpSize * 3 / 4`), and
compare ballots with `__activemask()` or the ballot of the lanes present."""
    flags = (
        ex("""
__global__ void all_positive(const float* x, int* out) {
    unsigned long long m = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);
    if (m == 0xffffffff) out[blockIdx.x] = 1;  // !
}"""),
        ex("""
__global__ void dot(const float* a, const float* b, float* out, int k) {
    const int lane = threadIdx.x % warpSize;
    float s = 0.0f;
    for (int i = lane * 4; i < k; i += 32 * 4)  // !
        for (int j = 0; j < 4; j++) s += a[i + j] * b[i + j];
    for (int o = warpSize / 2; o > 0; o /= 2) s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0) out[blockIdx.x] = s;
}""", note="a loop the lanes walk together: its stride is the lane count times the lane's chunk"),
        ex("""
__global__ void flags64(const int* x, unsigned long long* out) {
    __shared__ unsigned int half[256];
    int tid = threadIdx.x, lane64 = tid & 63;
    unsigned int bits = __ballot_sync(0xffffffff, x[blockIdx.x * 256 + tid] != 0);
    if (lane64 == 32) half[tid] = bits;  // !
    __syncthreads();
    if (lane64 == 0) out[(blockIdx.x * 256 + tid) / 64] = ((unsigned long long)half[tid + 32] << 32) | bits;
}""", note="two 32-lane ballots make one 64-lane mask: lane 32 leads the second warp (the packing itself, "
                "`<< 32`, is WS008's: a 64-lane wave's ballot fills the word)"),
        ex("""
template <typename T, int Bits> struct Packed;
template <> struct Packed<unsigned char, 6> {
    static __device__ unsigned char read(int laneId, const unsigned char* in) {
        unsigned char v = 0;
        if (laneId < 24) v = in[laneId];  // !
        return v;
    }
};""", note="32 six-bit values fill the bytes of 24 lanes (48 of a 64-lane wave)"),
    )
    passes = (
        ex("""
__global__ void all_positive(const float* x, int* out) {
    if (__all_sync(0xffffffff, x[threadIdx.x] > 0.0f)) out[blockIdx.x] = 1;
}"""),
        ex("""
__global__ void dot(const float* a, const float* b, float* out, int k) {
    const int lane = threadIdx.x % warpSize;
    float s = 0.0f;
    for (int i = lane * 32; i < k; i += warpSize * 32)
        for (int j = 0; j < 32; j++) s += a[i + j] * b[i + j];
    for (int o = warpSize / 2; o > 0; o /= 2) s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0) out[blockIdx.x] = s;
}""", note="32 values per lane: the chunk, not the lane count"),
        ex("""
__global__ void split(const long* x, long* out) {
    __shared__ long part[256];
    int tid = threadIdx.x;
    long v = x[blockIdx.x * 256 + tid];
    if ((tid & 63) == 32) part[tid] = v >> 32;
    __syncthreads();
    out[blockIdx.x * 256 + tid] = (part[tid] << 32) + (v & 0xffffffffL);
}""", note="a 64-bit word split at 32: no ballot in it"),
        ex("""
__global__ void corners(const float* x, float* out, int laneId) {
    if (laneId < 8) out[laneId] = x[laneId * 3];
    int lane = threadIdx.x % 32;
    float v = __shfl_down_sync(0xffffffff, x[threadIdx.x], 16, 32);
    if (lane < 16) out[16 + lane] = v;
}""", note="8 items, not a share; and the lanes of a 32-lane logical group"),
        ex("""
#define TILE_DIM 32
__global__ void half_tile(float* o, const float* i) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    tile[threadIdx.y][threadIdx.x] = i[threadIdx.y * TILE_DIM + threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 16) o[threadIdx.y * 16 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}""", note="a tile's column, not a lane"),
    )

    def check(self, ctx) -> None:
        super().check(ctx)
        from ..laneshares import lane_share_tests
        seen = {(s.node.start_byte, s.node.end_byte) for s in ctx.analysis.sites if s.confirmed}
        for lit, test, lane in lane_share_tests(ctx):
            if (lit.start_byte, lit.end_byte) not in seen:
                n = warpflow.int_value(ctx.text(lit))
                ctx.report(self, lit, f"`{_expr_text(ctx, test)}` tests the lane `{lane}` against {n} of a 32-lane "
                                      f"warp's lanes: {ctx.breaks}, the wave has 64 lanes and the share is "
                                      f"{n * 2}; express it through {ctx.wave} ({n // 4}/8 of the wave's lanes)")

    def message(self, ctx, s) -> str:
        if s.role == "full_value":
            return (f"`{_expr_text(ctx, s.node)}` compares a ballot with the 32-bit all-ones mask: {ctx.breaks}, a "
                    f"full wave's ballot has 64 bits, so the test never holds; use `__all_sync` or compare with "
                    f"`__activemask()`")
        return (f"`{_expr_text(ctx, s.node)}` uses {ctx.text(s.node)} as a warp-width value{_why(s)}: wrong "
                f"{ctx.breaks}; express it through {ctx.wave}")


@register
class AssertsWarpSize32(Rule):
    code, name = "WS019", "asserts-warp-size-32"
    summary = "A `static_assert` or an `assert` requires the warp size to be 32."
    docs = """\
`static_assert(kWarpSize == 32, "unexpected warp size")`, or at run time `assert(warpSize == 32)`
(QMCPACK's phase-factor kernel; it aborts a 64-lane wave's debug build): the code says it was
written for 32 lanes and nothing else.  Where the constant is made per-architecture for the port (64 on AMD
CDNA), the build stops here; where it is not, the rest of the code computes with 32 lanes on a
64-wide wave.  Either way the code under the assertion needs its 64-lane case (the extra ladder
step, the wider masks) before the assertion may admit 64.

Read as: the condition holds with the warp-size names (`kWarpSize`, `WARP_SIZE`, ...) at 32 and
fails at 64.  Stays silent on `kWarpSize == 32 || kWarpSize == 64`, on `kWarpSize % 32 == 0`, on
conditions of names that are no warp size (`TILE == 32`) and on `if constexpr` branches (they
choose per width)."""
    flags = (
        ex("""
#include "device_defs.h"
template <typename T> __device__ void sort_warp(T* v) {
    static_assert(kWarpSize == 32, "unexpected warp size");  // !
    v[threadIdx.x] = __shfl_xor_sync(0xffffffff, v[threadIdx.x], 16);
}"""),
        ex("""
template <int BS> __global__ void phase(float* v) {
    assert(warpSize == 32);  // !
    v[threadIdx.x] *= 2.f;
}""", note="at run time: a 64-lane wave aborts here"),
    )
    passes = (
        ex("""
#include "device_defs.h"
template <typename T> __device__ void sort_warp(T* v) {
    static_assert(kWarpSize == 32 || kWarpSize == 64, "unexpected warp size");
    static_assert(kTile == 32, "tiles of 32");
    v[threadIdx.x] = __shfl_xor_sync(0xffffffff, v[threadIdx.x], kWarpSize / 2);
}"""),
    )

    def check(self, ctx) -> None:
        asserts = [(c, call_args(c)[0]) for c, name in ctx.calls() if name == "assert" and call_args(c)]
        for n, cond in [(n, n.child_by_field_name("condition")) for n in ctx.nodes("static_assert_declaration")] + asserts:
            if cond is None or ctx.guarded(n):
                continue
            text = ctx.text(cond)
            names = {m for m in re.findall(r"[A-Za-z_]\w*", text) if warpflow.WARP_SIZE_NAME.search(m)}
            if not names:
                continue
            try:
                at32 = cexpr.evaluate(text, {m: 32 for m in names})
                at64 = cexpr.evaluate(text, {m: 64 for m in names})
            except (cexpr.CExprError, ZeroDivisionError, TypeError, RecursionError):
                continue  # other names decide it
            if at32 and not at64:
                ctx.report(self, n, f"`{' '.join(text.split())}` admits only 32-lane warps: wrong {ctx.breaks}; "
                           f"give the code under it its 64-lane case, then admit 64")

