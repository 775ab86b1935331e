"""WS007: a 32-bit lane mask (the full `0xffffffff`, or any mask held in a 32-bit local or
parameter) passed to a `_sync` warp intrinsic, which HIP's 64-bit-mask intrinsics reject."""
from __future__ import annotations

import re

from tree_sitter import Node

from ... import backends, dialect, guards, hipbuild, masksources, warpsites
from ...source import ident_name
from .. import amdargs, macromasks
from ..rule import SOURCE_TARGETS, Rule, ex, register
from ..triggers import SYNC_INTRINSIC

# Backends whose CUDA-style `_sync` warp intrinsics take a 64-bit lane mask (HIP, ROCm >= 6.2).
_WIDE_SYNC = tuple(b for b in backends.all() if (b.lint_sync_mask_bits or 0) > 32)
_WIDE_SYNC_MASK = frozenset(t for b in _WIDE_SYNC for t in b.lint_targets)


@register
class FullMask32Bit(Rule):
    code, name = "WS007", "full-mask-32-bit"
    triggers = SYNC_INTRINSIC  # every report is a mask given to a `_sync` call or to a warp barrier
    summary = "The 32-bit full mask `0xffffffff` is passed to a `_sync` warp intrinsic."
    docs = """\
Correct on NVIDIA.  HIP's `_sync` intrinsics (ROCm 6.2 and later) take a 64-bit lane mask and
reject a 32-bit one at compile time, and on a 64-wide wave `0xffffffff` names only lanes 0-31.

**Fix**: in the HIP port drop the mask and use `__shfl_down(v, d)` (what `kernelport translate`
does: mask-less forms exist on every ROCm), or keep the CUDA spelling behind
`#ifdef __CUDA_ARCH__`.  Reported as a warning when a HIP target is configured, as info otherwise.

A mask held in a local (`unsigned mask = 0xffffffffu;`) is reported at each use, with the
declaration as a related location: the line the port changes.  A wrapper whose 32-bit parameter
is passed on as the mask (pytorch_scatter's `__shfl_up_sync(const unsigned mask, at::Half v, ...)`)
is reported whatever its callers pass, with the parameter as the related location: HIP rejects the
32-bit type itself.  So is a local declared 32-bit whatever value it holds (ds4's 8-lane group mask
`const uint32_t mask = 0xffu << (threadIdx.x & 24u);`), with its declaration as the related location,
and a vote stored in a 32-bit local (ADEPT's `unsigned mask = __ballot_sync(__activemask(), p);`
then `__shfl_sync(mask, v, lane - 1, 32)`): WS008 reports the store, WS007 each shuffle it feeds.  A
32-bit local or parameter passed to `__syncwarp(mask)` is reported too (CTranslate2's `uint32_t mask`):
HIP's `__syncwarp` takes a 64-bit mask as well.  So is a 32-bit parameter fed by a vote
(pixeltrack's `warpPrefixScan(..., uint32_t mask)` given `__ballot_sync(...)`'s result): WS008
reports the parameter, WS007 each shuffle it feeds.

Code under a platform guard is judged by the build that compiles it: the NVIDIA branch of `#ifdef
USE_ROCM` is left alone, but code only the AMD build compiles (`#ifdef __HIPCC__`, pixeltrack's HIP
scan) is hipcc's, which rejects its 32-bit masks all the same: a 32-bit literal or a mask of a 32-bit
type.  A 64-bit variable there holding `0xffffffff` compiles, and HIP's `_sync` intrinsics act on no
bit of it beyond a debug check (ROCm/gsplat's `unsigned long warp_mask = 0xFFFFFFFF`, tests/labelled4:
consistent), so it is not reported.  `unsigned long` is 64-bit on the LP64 hosts hipcc builds for.

A 32-bit full mask in a function-like macro's replacement list (Eigen's `#define shuffleInc(i, j,
mask) res(i, j) += __shfl_xor_sync(0xFFFFFFFF, res(i, j), mask)`) is reported in the `#define`,
which every use expands (kernelport/lint/macromasks.py); a mask the macro takes as a parameter is
its uses'.

Masks that come from `__activemask()` or a ballot directly (or through a 64-bit local) are not reported, nor a mask the project's HIP
build drops: a dual-built project that maps the intrinsic to its mask-less form in a branch only
that build takes (`#if defined(USE_ROCM)` / `#define __shfl_xor_sync(mask, v, l) __shfl_xor(v, l)`,
or a header included only there) is judged as that build compiles it.  The HIP build is told by
tests of `__HIP_PLATFORM_AMD__`, `__HIPCC__`, `USE_ROCM`/`*_USE_HIP` names, by a project macro
tested around an `#include <hip/...>`, or by the names in `[tool.kernelport] hip-defines` /
`--hip-define`.  So is an argument the AMD build's definition of a per-platform selector macro drops
(`#ifdef __HIP_PLATFORM_AMD__` / `#define SEL(cuda, hip) hip` / `#else` / `#define SEL(cuda, hip) cuda`): the
AMD build never compiles `SEL(__shfl_down_sync(0xffffffff, v, o), ...)`'s first argument.  A macro a feature
switch picks (both builds compile it alike) is read as the walk reads it."""
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
        ex("""
__device__ float shfl_up(const unsigned mask, float v, unsigned delta) {
    return __shfl_up_sync(mask, v, delta);  // !
}""", note="a wrapper's 32-bit mask parameter: HIP rejects the type whatever the callers pass"),
        ex("""
__device__ float sum8(float v) {
    const unsigned int mask = 0xffu << (threadIdx.x & 24u);
    for (int o = 4; o > 0; o >>= 1) v += __shfl_down_sync(mask, v, o, 8);  // !
    return v;
}""", note="a group's mask held in a 32-bit local: HIP rejects the type whatever the value"),
        ex("""
__device__ short left(short e, int lane, bool p) {
    unsigned mask = __ballot_sync(__activemask(), p);
    return __shfl_sync(mask, e, lane - 1, 32);  // !
}""", note="a vote held in a 32-bit local (WS008 reports the store): each shuffle it feeds"),
        ex("""
#ifdef __HIPCC__
__device__ int count_below(unsigned n) { return __popcll(__ballot_sync(0xffffffff, threadIdx.x < n)); }  // !
#endif""", note="code only the AMD build compiles: hipcc rejects the 32-bit mask"),
        ex("""
#define SUM_STEP(v, o) v += __shfl_xor_sync(0xffffffff, v, o)  // !
__device__ float sum8(float v) { SUM_STEP(v, 1); SUM_STEP(v, 2); SUM_STEP(v, 4); return v; }""",
           note="in a macro's replacement list: the `#define` line is the port's"),
    )
    passes = (
        ex("""
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
    return v;
}""", lang="hip"),
        ex("""
__device__ int leader_value(int v) {
    unsigned long long m = __activemask();
    return __shfl_sync(m, v, __ffsll(m) - 1);
}""", note="a vote in a 64-bit local"),
        ex("""
#include <cstdint>
__device__ float shfl_up(const uint64_t mask, float v, unsigned delta) {
    return __shfl_up_sync(mask, v, delta);
}""", note="a 64-bit mask parameter: every lane of a 64-wide wave has a bit"),
        ex("""
__device__ float sum8(float v) {
    const unsigned long long mask = 0xffull << (threadIdx.x & 56u);
    for (int o = 4; o > 0; o >>= 1) v += __shfl_down_sync(mask, v, o, 8);
    return v;
}""", note="a group's mask in a 64-bit local"),
        ex("""
#ifndef __HIPCC__
__device__ int count_below(unsigned n) { return __popc(__ballot_sync(0xffffffff, threadIdx.x < n)); }
#endif""", note="the NVIDIA branch: 32 bits are its warp"),
        ex("""
#ifdef __HIPCC__
__device__ float tile_sum(float v) {
    unsigned long long tile = 0xffffffff;
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(tile, v, o, 32);
    return v;
}
#endif""", note="AMD-only code's 64-bit mask: hipcc takes it, and HIP's `_sync` acts on no bit of it"),
        ex("""
#if defined(USE_ROCM)
#define __shfl_xor_sync(mask, var, laneMask) __shfl_xor(var, laneMask)
#endif
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}""", note="the project's HIP build maps the shuffle to its mask-less form"),
        ex("""
#ifdef __HIP_PLATFORM_AMD__
#define SEL(cuda, hip) hip
#else
#define SEL(cuda, hip) cuda
#endif
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += SEL(__shfl_down_sync(0xffffffff, v, o), __shfl_down(v, o));
    return v;
}""", note="a selector macro's NVIDIA argument: the AMD build's definition drops it"),
    )

    def severity(self, targets):
        if targets & _WIDE_SYNC_MASK:
            return "warning"
        return "info" if targets - SOURCE_TARGETS else None

    def check(self, ctx) -> None:
        aliases = None
        for mask, cls, _ in ctx.analysis.shuffle_masks:
            if _other_build(ctx, mask) or (cls == "active" and mask.type != "identifier"):
                continue  # a vote's mask passed on: WS008 follows it (a 32-bit parameter it is cut by)
            call = mask.parent.parent if mask.parent is not None else None
            if call is None or call.type != "call_expression":
                continue
            fn = ctx.text(call.child_by_field_name("function"))
            if not fn.endswith("_sync") or _dropped_on_amd(ctx, fn, mask):
                continue
            c = dialect.lookup(backends.source().name, fn)
            hip = next((c.name(b.name) for b in _WIDE_SYNC if c is not None and c.name(b.name)), None)
            made, narrow = _mask_declaration(ctx, mask), None
            if mask.type == "identifier":
                aliases = warpsites.type_aliases(ctx.src) if aliases is None else aliases
                if made is None:
                    made = narrow = _narrow_parameter(ctx, mask, aliases)  # a vote passed in too: HIP rejects the type
                else:
                    narrow = _narrow_local(ctx, made, aliases)
                if narrow is not None and cls != "full":
                    what = "parameter" if narrow.type == "parameter_declaration" else "local"
                    ctx.report(self, mask,
                               f"the mask `{ctx.text(mask)}` passed to `{fn}` is a 32-bit {what}: HIP's `_sync` "
                               f"intrinsics (ROCm >= 6.2) need a 64-bit mask and reject this one at compile time, "
                               f"and on a 64-wide wave 32 bits name only lanes 0-31 whatever value it holds; "
                               f"declare it 64-bit on HIP, or use the mask-less `{hip or 'HIP form'}` there",
                               related=(ctx.related(narrow, f"`{ctx.text(mask)}`, declared 32-bit here", site=True),))
                    continue
            if cls != "full" or masksources.wide_full(ctx.module, ctx.text(mask)):
                continue  # all ones in 64 bits (`(uint64_t) ~0`, a 64-bit constant): every lane of the wave
            if mask.type == "identifier" and narrow is None and ctx.side_of(mask) == guards.SIDE_AMD:
                continue  # AMD-only code's 64-bit variable: hipcc takes it, and its `_sync` acts on no mask bit
            ctx.report(self, mask,
                       f"32-bit full mask `{ctx.text(mask)}` passed to `{fn}`: HIP's `_sync` intrinsics (ROCm >= 6.2) "
                       f"need a 64-bit mask and on a 64-wide wave this one names only lanes 0-31; in the HIP port "
                       f"use the mask-less `{hip or 'HIP form'}` (as `kernelport translate` does)",
                       related=(ctx.related(made, f"`{ctx.text(mask)}`, the 32-bit mask, declared here", site=True),) if made else ())
        self._barrier_masks(ctx)
        for span, fn, text, name in macromasks.sites(ctx, _dropped_on_amd):  # a macro's replacement list
            ctx.report(self, span, f"32-bit full mask `{text}` passed to `{fn}` in the macro `{name}`, which every use "
                       f"expands: on a 64-wide wave it names only lanes 0-31 (and HIP's `_sync` intrinsics need a "
                       f"64-bit mask); in the HIP port use the mask-less form in the macro")

    def _barrier_masks(self, ctx) -> None:
        """A mask held in a 32-bit local or parameter passed to a warp barrier (CTranslate2's `uint32_t
        mask = ...; __syncwarp(mask);`, tests/labelled15): HIP's `__syncwarp(mask)` takes a 64-bit mask
        too.  The shuffles' and votes' masks are `check`'s (warpflow's shuffle_masks)."""
        aliases = None
        for call in ctx.src.index.under(ctx.src.root, "call_expression"):
            found = ctx.concept_of_call(call)
            if found is None or found[0].kind != "barrier" or not found[0].warp_level:
                continue
            mask = found[2].get("mask")
            if mask is None or mask.type != "identifier" or _other_build(ctx, mask):
                continue
            fn = ctx.text(call.child_by_field_name("function"))
            if _dropped_on_amd(ctx, fn, mask):
                continue
            aliases = warpsites.type_aliases(ctx.src) if aliases is None else aliases
            made = _mask_declaration(ctx, mask)
            narrow = _narrow_parameter(ctx, mask, aliases) if made is None else _narrow_local(ctx, made, aliases)
            if narrow is not None:
                what = "parameter" if narrow.type == "parameter_declaration" else "local"
                ctx.report(self, mask,
                           f"the mask `{ctx.text(mask)}` passed to `{fn}` is a 32-bit {what}: HIP's `{fn}(mask)` "
                           f"(ROCm >= 6.2) needs a 64-bit mask and rejects this one at compile time, and on a "
                           f"64-wide wave 32 bits name only lanes 0-31; declare it 64-bit on HIP",
                           related=(ctx.related(narrow, f"`{ctx.text(mask)}`, declared 32-bit here", site=True),))


def _other_build(ctx, mask: Node) -> bool:
    """Code a platform or architecture guard gives to a build whose `_sync` intrinsics are not HIP's
    (the NVIDIA branch of `#ifdef USE_ROCM`, a test of the AMD architecture): judged there.  Code only
    the AMD build compiles (`#ifdef __HIPCC__`, tests/labelled19's pixeltrack scan) is hipcc's: its
    32-bit `_sync` mask is rejected all the same.  An argument the AMD build's definition of a selector macro
    drops (`#define SEL(c, h) h` there) is NVIDIA's alone too (kernelport/lint/amdargs.py)."""
    return ctx.side_of(mask) not in (None, guards.SIDE_AMD) or amdargs.dropped_on_amd(ctx, mask)


def _narrow_type(text: str, aliases: dict[str, str]) -> bool:
    """A 32-bit integer type as hipcc sizes it: `unsigned long` is 64-bit on the LP64 hosts hipcc
    builds for (kernelport/cscalar.py), so HIP's `sizeof(mask) == 8` accepts it (ROCm/gsplat's
    `unsigned long warp_active_mask`, tests/labelled4: its value is what may name only 32 lanes)."""
    t = " ".join(text.split()).removeprefix("std::").removeprefix("const ")
    for _ in range(8):
        if t not in aliases:
            break
        t = aliases[t]
    return t not in ("unsigned long", "unsigned long int") and masksources.is_int32(text, aliases)


def _mask_declaration(ctx, mask: Node) -> Node | None:
    """The local declaration that gives a mask variable its 32-bit full value (`unsigned mask =
    0xffffffffu;`): the line a port changes (type and value), while the finding sits at each use."""
    if mask.type != "identifier":
        return None
    name, fn = ctx.text(mask), mask.parent
    while fn is not None and fn.type != "function_definition":
        fn = fn.parent
    decls = [d for d in ctx.src.index.under(fn, "init_declarator") if d.start_byte < mask.start_byte and
             ident_name(d.child_by_field_name("declarator")) == name] if fn is not None else []
    return decls[-1] if decls else None  # the nearest before the use (a shadowing inner one wins)


def _narrow_local(ctx, made: Node, aliases: dict[str, str]) -> Node | None:
    """The local declaration of a mask variable, when its declared type is a 32-bit integer
    (`const uint32_t mask = 0xffu << (threadIdx.x & 24u);`, a group's mask): HIP rejects the type
    whatever the value, and 32 bits cannot name lanes 32-63 of a 64-wide wave."""
    decl = made.parent
    t = decl.child_by_field_name("type") if decl is not None and decl.type == "declaration" else None
    return made if t is not None and _narrow_type(ctx.text(t), aliases) else None


def _narrow_parameter(ctx, mask: Node, aliases: dict[str, str]) -> Node | None:
    """The parameter declaration a mask identifier names, when its type is a 32-bit integer (`const
    unsigned mask`): a wrapper that forwards its mask to a `_sync` intrinsic fixes it at 32 bits for
    every caller."""
    fn = mask.parent
    while fn is not None and fn.type != "function_definition":
        fn = fn.parent
    d = fn.child_by_field_name("declarator") if fn is not None else None
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    params = d.child_by_field_name("parameters") if d is not None else None
    for p in (params.named_children if params is not None else ()):
        t = p.child_by_field_name("type")
        if p.type == "parameter_declaration" and t is not None and \
                ident_name(p.child_by_field_name("declarator")) == ctx.text(mask):
            return p if _narrow_type(ctx.text(t), aliases) else None
    return None


def _dropped_on_amd(ctx, fn: str, mask: Node) -> bool:
    """The project's HIP build maps `fn` through a macro whose body never uses the mask argument
    (`#define __shfl_xor_sync(mask, var, lane) __shfl_xor(var, lane)` under `USE_ROCM`)."""
    vis = ctx.module.visible
    mac = vis.hip_macros.get(fn) if vis is not None else None
    if mac is None:
        mac = hipbuild.file_macros(ctx.src).get(fn)
    args = [a for a in mask.parent.named_children if a.type != "comment"]
    i = next((k for k, a in enumerate(args) if a.id == mask.id), None)
    if mac is None or mac.params is None or i is None or i >= len(mac.params):
        return False
    return re.search(rf"\b{re.escape(mac.params[i])}\b", mac.body) is None
