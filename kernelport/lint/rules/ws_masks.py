"""WS rules on lane masks and ballots: stored ballots, mask bit operations, lane bits, and a full
mask where only part of the warp takes part (WS007, a 32-bit mask given to a `_sync` intrinsic, is
kernelport/lint/rules/ws_fullmask.py's)."""
from __future__ import annotations

from tree_sitter import Node

from ... import masksources, warpflow
from ...source import ident_name, walk
from ..rule import Rule, ex, register
from ..triggers import FULL_MASK_OP
from .. import leaderfolds
from ..lanebits import below32
from ..tags import ROW
from ..wavebounds import whole_waves
from .ws_sites import SiteRule, _expr_text, _parent_op, _why


@register
class BallotStored32Bit(SiteRule):
    code, name, fixable, fix_applicability = "WS008", "ballot-stored-32-bit", True, "unsafe"
    summary = "A ballot (lane mask) is stored in a 32-bit integer."
    docs = """\
`unsigned mask = __ballot_sync(m, p);` — a ballot has one bit per lane: 64 bits on a 64-wide
wave (`__ballot` returns `unsigned long long` in HIP, `simd_vote` is 64-bit on Metal).  A 32-bit
variable silently drops lanes 32-63: counts are halved, `__ffs` misses the leader.

**Fix**: `unsigned long long mask` (or `auto`), and the 64-bit bit operations (`__popcll`,
`__ffsll`).  An unsafe fix (`--fix --unsafe-fixes`) widens the declared type: the value is the
same on NVIDIA, but the type is not (an overload, a `printf` format, a store through `&mask`).
A mask stored through a 32-bit pointer gets no fix: the memory layout is the program's.
A helper whose callers combine what it returns with a ballot (`__popc(b & lanemask_lt())`) returns
a lane mask: a 32-bit return type is reported there (kernelport/lint/maskhelpers.py).

Lane masks are followed from every source that makes one (kernelport.masksources): the vote
built-ins, the ballot of the wave's cooperative group (`cg::coalesced_threads().ballot(p)`), the
PTX lane-mask registers an `asm` reads (`%lanemask_lt`: a helper returning it as `unsigned` is
reported at its return type), and a project helper in an included header that returns one
(`activemask()` wrapping `__activemask()`).  An explicit conversion (`(unsigned)ballot`,
`static_cast<uint32_t>(ballot)`) is reported at its type; the caller's own 32-lane half,
`(unsigned)(ballot >> (lane & 32))`, is not.  A mask passed to a 32-bit parameter is cut the same
way: the parameter's type is reported for a helper in the same file, the call's argument (naming
the parameter) for one in a header.  A fixed-size tile's ballot (`tiled_partition<32>`) is the
tile's and stays silent, as does a `%laneid` read or a 32-bit parameter given ordinary data.
A helper no call in the file reaches (a header's) whose 32-bit parameter its own 64-bit mask
operation reads (`__popcll(mask & below)`, `__ffsll(mask)`) is reported at the parameter's type:
the operation counts a wave's 64 lanes, the parameter holds 32 of them (kernelport.lint.maskparams).

Two 32-lane ballots packed into one 64-bit word (`(hi << 32) | lo`) are reported at the shift: on a
64-lane wave one ballot fills the word, and `hi << warpSize` would shift a 64-bit value by 64
(undefined).  Translate refuses such a port where a wave is 64 wide (KP226); no fix is offered.

A ballot shifted left by a count made from lane 31 (`__popc(mask << (31 - lane))`: the lanes up to
this one, since the 32-bit shift drops every bit that passes bit 31) is reported at the shift: a
64-bit mask keeps those bits (moved into bits 32-62), at every wave width, and lanes 32-63 would
shift by a negative count.  Translate refuses the port on every backend (KP236); no fix is offered
(`__popcll(mask & ((2ull << lane) - 1))` counts the same lanes at any width)."""
    flags = (
        ex("""
__global__ void count(const float* x, int* out) {
    unsigned mask = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);  // !
    if (threadIdx.x % warpSize == 0) atomicAdd(out, __popcll(mask));
}"""),
        ex("""
__global__ void votes(const float* x, void* buf) {
    unsigned* words = (unsigned*)buf;
    auto mask = __ballot_sync(__activemask(), x[threadIdx.x] > 0.0f);
    if (threadIdx.x % warpSize == 0) words[threadIdx.x / warpSize] = mask;  // !
}""", note="stored through a 32-bit pointer: the memory layout keeps 32 lanes per word"),
        ex("""
__global__ void relu_back(const unsigned* bits, float* dx) {
    unsigned word = bits[blockIdx.x];  // !
    if (__shfl_sync(0xffffffff, word, 0) & (1u << (threadIdx.x % warpSize))) dx[threadIdx.x] = 0.0f;
}""", note="a word broadcast and tested at the lane's bit is a lane mask, wherever it was read from"),
        ex("""
struct Params { unsigned int* bits; int n; };
__global__ void relu_back(Params p, float* dx) {
    const unsigned int* bits = p.bits + ((p.n + 31) & ~31) * blockIdx.x;
    unsigned int word = 0;  // !
    if (threadIdx.x % warpSize == 0) word = bits[threadIdx.x / warpSize];  // !
    if (__shfl_sync(0xffffffff, word, 0) & (1ull << (threadIdx.x % warpSize))) dx[threadIdx.x] = 0.0f;
}""", note="a lane mask read from 32-bit memory: the field and the rounding to 32 are named as related"),
        ex("""
namespace cg = cooperative_groups;
__global__ void done_count(const float* x, int* n) {
    cg::coalesced_group active = cg::coalesced_threads();
    unsigned done = active.ballot(x[threadIdx.x] > 0.0f);  // !
    if (active.thread_rank() == 0) atomicAdd(n, __popcll(done));
}""", note="the ballot of the wave's coalesced group has one bit per lane of the wave"),
        ex("""
__device__ unsigned lanes_below() {  // !
    unsigned mask;  // !
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
    return mask;
}""", note="a PTX lane-mask register read into 32 bits: the port reads a 64-bit mask there"),
        ex("""
__device__ int count_bits(unsigned m) { return __popcll(m); }  // !
__global__ void count(const float* x, int* out) {
    out[threadIdx.x] = count_bits(__ballot_sync(__activemask(), x[threadIdx.x] > 0.0f));
}""", note="a ballot passed to a 32-bit parameter: the parameter's type is reported"),
        ex("""
__device__ int count_below(uint32_t mask, int n) { return __popcll(mask & ((1ull << n) - 1)); }  // !""",
           note="a helper that counts its 32-bit parameter as a 64-lane mask (its callers are elsewhere)"),
        ex("""
__global__ void rank(const float* x, int* out) {
    unsigned long long kept = __ballot_sync(__activemask(), x[threadIdx.x] > 0.0f);
    unsigned below = (1ull << (threadIdx.x % warpSize)) - 1;  // !
    out[threadIdx.x] = __popcll(kept & below);
}""", note="a lane bit held in 32 bits and combined with a ballot: lanes 32-63's bits are 0 there"),
        ex("""
__global__ void pair(const float* x, unsigned long long* out) {
    unsigned long long lo = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);
    unsigned long long hi = __ballot_sync(0xffffffff, x[threadIdx.x] > 1.0f);
    out[threadIdx.x] = (hi << 32) | lo;  // !
}""", note="two 32-lane ballots packed in one word: a 64-lane wave's ballot fills it (translate refuses, KP226)"),
        ex("""
__global__ void prefix(const int* in, int* out) {
    unsigned long long flags = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
    out[threadIdx.x] = __popcll(flags << (31 - threadIdx.x % 32));  // !
}""", note="the lanes up to this one by a shift from lane 31: a 64-bit mask keeps the lanes above (KP236)"),
    )
    passes = (
        ex("""
__global__ void prefix(const int* in, int* out) {
    unsigned long long flags = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
    out[threadIdx.x] = __popcll(flags & ((2ull << (threadIdx.x % warpSize)) - 1)) + __popcll(flags << 1);
}""", note="the lanes up to this one selected by a mask; a shift by a count with no lane 31 in it"),
        ex("""
__global__ void set_bits(unsigned* words, const int* idx) {
    unsigned bit = 1u << (idx[threadIdx.x] & 31);
    atomicOr(&words[idx[threadIdx.x] >> 5], bit);
}""", note="a bit of a 32-bit bitset word, never combined with a ballot"),
        ex("""
__global__ void count(const float* x, int* out) {
    unsigned long long mask = __ballot(x[threadIdx.x] > 0.0f);
    if (threadIdx.x % warpSize == 0) atomicAdd(out, __popcll(mask));
}""", lang="hip"),
        ex("""
__global__ void votes(const float* x, void* buf) {
    unsigned long long* words = (unsigned long long*)buf;
    auto mask = __ballot_sync(__activemask(), x[threadIdx.x] > 0.0f);
    if (threadIdx.x % warpSize == 0) words[threadIdx.x / warpSize] = mask;
}"""),
        ex("""
__global__ void relu_back(const unsigned long long* bits, float* dx) {
    unsigned long long word = bits[blockIdx.x];
    if (__shfl(word, 0) & (1ull << (threadIdx.x % warpSize))) dx[threadIdx.x] = 0.0f;
}""", lang="hip"),
        ex("""
namespace cg = cooperative_groups;
__global__ void tile_votes(const float* x, unsigned* out) {
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    unsigned votes = tile.ballot(x[threadIdx.x] > 0.0f);
    if (tile.thread_rank() == 0) out[threadIdx.x / 32] = votes;
}""", note="a 32-thread tile's ballot holds the tile's 32 lanes"),
        ex("""
__device__ unsigned lane_id() {
    unsigned id;
    asm("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
}"""),
        ex("""
__device__ int count_bits(unsigned m) { return __popc(m); }
__global__ void bits(const unsigned* words, int* out) { out[threadIdx.x] = count_bits(words[threadIdx.x]); }""",
           note="a 32-bit parameter given a data word"),
        ex("""
__device__ int count_below(unsigned long long mask, int n) { return __popcll(mask & ((1ull << n) - 1)); }
__device__ int bits_of(uint32_t word) { return __popc(word); }""",
           note="a 64-bit mask parameter; a 32-bit word counted with the 32-bit operation"),
    )
    fixes = (("""
__global__ void count(const float* x, int* out) {
    unsigned mask = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);
    if (threadIdx.x % warpSize == 0) atomicAdd(out, __popcll(mask));
}""", """
__global__ void count(const float* x, int* out) {
    unsigned long long mask = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);
    if (threadIdx.x % warpSize == 0) atomicAdd(out, __popcll(mask));
}"""),)

    def check(self, ctx) -> None:
        super().check(ctx)
        for i in ctx.analysis.issues:  # a ballot stored through a 32-bit pointer or array (warpflow's KP207)
            if i.code == "KP207":
                decl = _declaration_of(ctx, i.node)
                related = (ctx.related(decl, "declared with a 32-bit element type here", site=True),) if decl else ()
                ctx.report(self, i.node, f"{i.message} ({ctx.breaks}); store masks in 64-bit memory "
                           "(`unsigned long long`, two words per mask where the layout is fixed)",
                           related=related + (_layout_of(ctx, decl) if decl is not None else ()))
            elif i.code in ("KP226", "KP232", "KP236"):  # a ballot packed above another; a mask returned as T and
                # other values; a ballot shifted left from lane 31
                ctx.report(self, i.node, f"{i.message} ({ctx.breaks}); {i.hint}")
        from ..maskparams import narrow_mask_params
        for t, name, op in narrow_mask_params(ctx):
            ctx.report(self, t, f"`{ctx.text(t)} {name}` holds a lane mask that `{_expr_text(ctx, op)}` reads as 64 "
                       f"lanes: {ctx.breaks}, a ballot passed here loses lanes 32-63; take it as `unsigned long long`")

    def message(self, ctx, s) -> str:
        if s.role == "arg32":
            return (f"a ballot {s.why}: {ctx.breaks}, lanes 32-63 are silently dropped from the mask; take it "
                    f"as `unsigned long long` there (and count it with the 64-bit bit operations)")
        if s.why.startswith("is returned as the template parameter"):  # kernelport.masktypes
            return (f"a ballot {s.why}: {ctx.breaks}, a 32-bit `{ctx.text(s.node)}` silently drops lanes 32-63 "
                    f"from the mask; return `unsigned long long` (or `auto`)")
        return (f"a lane mask (a ballot, or a lane bit combined with one) is stored in the 32-bit type `{ctx.text(s.node)}`{_why(s)}: {ctx.breaks}, lanes 32-63 are "
                f"silently dropped from the mask; store it in `unsigned long long` (or `auto`)")


def _layout_of(ctx, decl: Node) -> tuple:
    """Where a pointer to mask words gets its 32-lane layout: the struct field it is read from
    (`params.bits`, declared `unsigned int* bits;`) and an offset rounded to 32 (`(n + 31) & ~31`)."""
    init = next((d.child_by_field_name("value") for d in decl.children_by_field_name("declarator")
                 if d.type == "init_declarator"), None)
    if init is None:
        return ()
    out = []
    for n in walk(init):
        if n.type == "field_expression":
            for f in _fields_named(ctx, ctx.text(n.child_by_field_name("field")), _struct_of(ctx, n)):
                out.append(ctx.related(f, "the field that holds the mask words, 32 lanes each", site=True))
        elif n.type == "binary_expression" and ctx.text(n.child_by_field_name("operator")) in ("&", "/", ">>"):
            left = n.child_by_field_name("left")
            while left is not None and left.type == "parenthesized_expression" and left.named_children:
                left = left.named_children[0]
            r = left.child_by_field_name("right") if left is not None and left.type == "binary_expression" else None
            if r is not None and r.type == "number_literal" and warpflow.int_value(ctx.text(r)) == 31:
                out.append(ctx.related(r, "rounds the mask words' offset to 32 lanes", site=True))
    return tuple(out)


def _struct_of(ctx, field: Node) -> str | None:
    """The struct type of `params` in `params.bits`, where a parameter of the function declares it."""
    base, fn = field.child_by_field_name("argument"), ctx.function_at(field)
    p = fn.param(ctx.text(base)) if fn is not None and base is not None and base.type == "identifier" else None
    return p.type.split()[-1] if p is not None and p.type else None


def _fields_named(ctx, name: str, struct: str | None) -> list[Node]:
    """Fields `name` of this file's structs (of `struct` where it is one of them) declared with a
    32-bit pointer type."""
    out = []
    structs = [n for n in ctx.nodes("struct_specifier", "class_specifier")
               if struct is not None and ctx.text(n.child_by_field_name("name") or n) == struct]
    for f in (ctx.src.index.under(structs[0], "field_declaration") if structs else ctx.nodes("field_declaration")):
        t = f.child_by_field_name("type")
        for d in f.children_by_field_name("declarator"):
            if d.type == "pointer_declarator" and ident_name(d) == name and t is not None and \
                    " ".join(ctx.text(t).split()) in warpflow.INT32_TYPES:
                out.append(f)
    return out


def _declaration_of(ctx, store: Node) -> Node | None:
    """Where the pointer or array written by `store` (`words[i] = mask`) is declared in its function."""
    base = store.child_by_field_name("argument")
    fn = ctx.function_at(store)
    if base is None or base.type != "identifier" or fn is None:
        return None
    name = ctx.text(base)
    p = fn.param(name)
    if p is not None:
        return p.node
    for d in ctx.nodes("declaration"):
        if fn.node.start_byte <= d.start_byte < store.start_byte and \
                any(ident_name(x) == name for x in d.children_by_field_name("declarator")):
            return d
    return None


@register
class MaskBitop32Bit(SiteRule):
    code, name, fixable = "WS009", "mask-bitop-32-bit", True
    summary = "`__popc`, `__ffs`, `__clz` or `__brev` is applied to a lane mask."
    docs = """\
`__popc(mask)`, `__ffs(mask) - 1`, `__clz(mask)` on a ballot or lane mask count and search 32
bits.  With 64-lane masks the upper half is ignored: warp counts and leader elections are wrong.
`__brev(mask)` reverses 32 bits (and its result is still a lane mask: `__clz(__brev(m))`, the
lowest lane, is reported too).
The same holds for the compilers' `__builtin_popcount`/`__builtin_ffs`/`__builtin_clz`, and for a
project macro that only renames one of them (`#define POPC(a) __popc(a)`, as the AMD build
defines it).

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
        ex("""
#define POPC(a) __popc(a)
__global__ void count(const float* in, int* out) {
    auto mask = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);
    out[threadIdx.x] = POPC(mask);  // !
}""", note="a macro that only renames `__popc`"),
    )
    passes = (
        ex("""
__global__ void bits(const unsigned* x, int* out) {
    out[threadIdx.x] = __popc(x[threadIdx.x]);
}"""),
        ex("""
#define POPC(a) __popc(a)
__global__ void bits(const unsigned* x, int* out) { out[threadIdx.x] = POPC(x[threadIdx.x]); }""",
           note="the same macro on a data word"),
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
        wide = f"`{fn}ll`" if fn.startswith("__") else "the 64-bit form (`__popcll`, `__ffsll`) of what it expands to"
        return (f"`{fn}` of a lane mask looks at 32 bits{_why(s)}: {ctx.breaks}, lanes 32-63 are ignored; "
                f"use {wide} on a 64-bit mask")


@register
class LaneBit32Bit(SiteRule):
    code, name, fixable, fix_applicability = "WS010", "lane-bit-32-bit", True, "unsafe"
    summary = "A lane bit is built as `1u << lane` (32-bit) and combined with a lane mask."
    docs = """\
`mask & ((1u << lane) - 1)` (lanes below this one) with a 32-bit `1u`: for lanes 32-63 of a
64-wide wave the shift is undefined and the mask loses its upper half.

**Fix** (unsafe: `--fix --unsafe-fixes`): `1ull << lane`; the same bits for lanes 0-31, but a
64-bit type on NVIDIA (a 32-bit expression it meets is widened too).  A `1u << (i & 31)` that sets a bit of a 32-bit word (bitsets) does
not meet a lane mask and stays silent.  A 32-bit shift in what a helper returns where its callers
combine that with a ballot (`int lanemask_lt() { return (1 << lane) - 1; }`) is one too, and so is
a bit a loop walks through the lanes by `<<=` from `1u` and tests against a ballot (AMReX's
look-back: `unsigned int bit_mask = 0x1u;` ... `bit_mask <<= 1;` ... `status_bf & bit_mask`), a
bitset walked the same way over a data word is not."""
    flags = (
        ex("""
__global__ void rank(const float* in, int* out) {
    int lane = threadIdx.x % warpSize;
    unsigned long long mask = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);
    out[threadIdx.x] = __popcll(mask & ((1u << lane) - 1));  // !
}"""),
        ex("""
__global__ void relu_back(const unsigned long long* bits, float* dx) {
    int lane = threadIdx.x % warpSize;
    unsigned long long word = bits[blockIdx.x];
    if (__shfl(word, 0) & (1u << lane)) dx[threadIdx.x] = 0.0f;  // !
}""", lang="hip", note="a mask read back from memory and broadcast: testing the lane's bit makes it a lane mask"),
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
        ex("""
__global__ void relu_back(const unsigned long long* bits, float* dx) {
    int lane = threadIdx.x % warpSize;
    unsigned long long word = bits[blockIdx.x];
    if (__shfl(word, 0) & (1ull << lane)) dx[threadIdx.x] = 0.0f;
}""", lang="hip"),
    )
    fixes = (("""
__global__ void rank(const float* in, int* out) {
    int lane = threadIdx.x % warpSize;
    unsigned long long mask = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);
    out[threadIdx.x] = __popcll(mask & ((1u << lane) - 1));
}""", """
__global__ void rank(const float* in, int* out) {
    int lane = threadIdx.x % warpSize;
    unsigned long long mask = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);
    out[threadIdx.x] = __popcll(mask & ((1ull << lane) - 1));
}"""),)

    def quiet(self, ctx, s) -> bool:  # `1 << sublane` with sublane = tid % 32, lane & 31 (kernelport.lint.lanebits)
        return _parent_op(s.node) == "<<" and below32(ctx, s.node.parent.child_by_field_name("right"))

    def message(self, ctx, s) -> str:
        if _parent_op(s.node) != "<<":  # `bit = 1u;` then `bit <<= 1` in a loop over the lanes (masksources)
            return (f"`{ctx.text(s.node)}` starts a lane bit that a loop shifts through the lanes in 32 bits{_why(s)}: "
                    f"{ctx.breaks}, past lane 31 it shifts out and lanes 32-63 are never tested; start it as `1ull`")
        return (f"`{_expr_text(ctx, s.node)}` builds a lane bit in 32 bits{_why(s)}: {ctx.breaks}, lanes 32-63 shift "
                f"past the end (undefined) and the mask loses its upper half; use `1ull << lane`")


@register
class FullMaskInPartialWarp(Rule):
    code, name = "WS012", "full-mask-in-partial-warp"
    severities = frozenset({"error"})  # a full mask under a thread-dependent test: undefined on every target
    divergence_reads = ("partial_warp_ops",)
    triggers = FULL_MASK_OP  # a hazard is a full-mask shuffle or vote, or a call of a function that runs one
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
(`__ballot_sync(0xffffffff, tid < n)` before the branch).  A condition on a value every lane shares
is no partial region: one lane's value broadcast at the whole warp (`__shfl_sync(0xffffffff, v, 0)`, or
from a ballot's first lane), a full-mask warp reduction (kernelport/lint/lanebroadcasts.py), a vote, a
warp index (`threadIdx.x / warpSize`), a kernel argument or `blockIdx`.  A ladder loop from 16 under
`if (tid < 32)` whose result only `tid == 0` reads is silent too: at wave 64 lane 0 reads only the 32 active
lanes (kernelport/lint/leaderfolds.py).  A condition on `threadIdx.y` (`warp_id = threadIdx.y` in rows of 32)
is whole warps only where blockDim.x is a multiple of 32 and whole waves only where it is a multiple of 64: quiet
where every launch in view makes it a multiple of 64, reported as the wave's hazard otherwise
(kernelport/lint/rowtags.py).  A 32-lane warp index (`threadIdx.x / 32`) is reported at its 32 (WS003), not here."""
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
        ex("""
#define WS 32
#if defined(__AMDGCN_WAVEFRONT_SIZE) && (__AMDGCN_WAVEFRONT_SIZE == 64)
#define WAVE 64
#else
#define WAVE 32
#endif
static const int TPB = 512;
static const int ROWS = 96;
__global__ void last_warp(const long long* in, long long* out) {
    long long v = in[threadIdx.x];
    if (threadIdx.x + WS >= TPB) v += __shfl_xor_sync(~0, v, 1);  // !
    if (threadIdx.x + WAVE >= ROWS) v += __shfl_xor_sync(~0, v, 2);  // !
    out[threadIdx.x] = v;
}""", note="the last 32 threads are half of a 64-wide wave; 96 - WAVE is no multiple of 64"),
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
        ex("""
#if defined(__AMDGCN_WAVEFRONT_SIZE) && (__AMDGCN_WAVEFRONT_SIZE == 64)
#define WS 64
#else
#define WS 32
#endif
static const int TPB = 512;
__global__ void last_warp(const long long* in, long long* out) {
    long long v = in[threadIdx.x];
    if (threadIdx.x + WS >= TPB) v += __shfl_xor_sync(~0, v, 1);
    if (threadIdx.x < WS) v += __shfl_xor_sync(~0, v, 2);
    out[threadIdx.x] = v;
}""", note="WS is each build's wave (FPcompress): the last warp and the first are whole waves"),
        ex("""
__global__ void scan(const unsigned* in, unsigned* out, unsigned end) {
    unsigned v = in[threadIdx.x];
    unsigned pos = __shfl_sync(0xffffffff, v, 0);
    while (pos < end) {
        unsigned hit = __ballot_sync(0xffffffff, v > pos);
        pos += __shfl_sync(0xffffffff, v, __ffs(hit | 1u) - 1) + 1;
    }
    out[threadIdx.x] = pos;
}""", note="pos is lane 0's value and then a ballot-chosen lane's: the same in every lane (streamlz's cursors)"),
        ex("""
__device__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
__global__ void rows(const float* x, float* out) {
    float v = x[threadIdx.y * blockDim.x + threadIdx.x];
    if (threadIdx.y == 0) v = warp_sum(v);
    out[threadIdx.y * blockDim.x + threadIdx.x] = v;
}
void run(const float* x, float* out) { rows<<<8, dim3(64, 4)>>>(x, out); }""",
           note="rows of 64 threads: each row is whole waves of 64 and whole warps of 32"),
    )

    def check(self, ctx) -> None:
        for h in ctx.divergence.partial_warp_ops:
            cond = " ".join(ctx.text(h.frame.node).split())
            cond = cond if len(cond) <= 40 else cond[:37] + "..."
            what = f"`{h.callee}` runs full-mask warp operations" if h.callee else "this warp operation claims every lane"
            line = ctx.where(h.frame.node).split(':')[0]
            related = (ctx.related(h.frame.node, "the condition that leaves part of the wave out", site=True),)
            if whole_waves(ctx, h.frame.node):
                continue
            if h.callee is None and (leaderfolds.leader_fold(ctx, leaderfolds.loop_of_call(h.node)) or
                                     leaderfolds.unrolled_fold(ctx, h.node)):
                continue  # a ladder from 16 over the first 32 threads, lane 0's result alone used  # `threadIdx.x + WS >= TPB` with WS the wave of each build: whole waves, or none
            if h.frame.kind == "cut":  # lanes that returned have exited: allowed on NVIDIA, absent on AMD
                if _whole_warps(ctx, h.frame.node, 64):
                    continue  # `if (tid >= 128) return;`: whole 64-lane waves return, or none
                ctx.report(self, h.node,
                           f"{what} after the early return under `{cond}` (line {line}): the lanes that "
                           f"returned have exited (which NVIDIA's mask allows), but {ctx.breaks}, the mask "
                           f"names lanes of the wave that are not there; return after the warp operation, "
                           f"or mask the data instead", related=related)
            elif h.frame.tag == ROW:
                ctx.report(self, h.node,
                           f"{what} inside `{cond}` (line {line}), which depends on `threadIdx.y`/`.z`: whole "
                           f"32-lane warps only where blockDim.x is a multiple of 32, and {ctx.breaks} whole waves "
                           f"only where it is a multiple of 64 (no launch in view makes it one), so the mask names "
                           f"absent lanes; launch rows of a multiple of 64 threads, or run the warp operation with "
                           f"the whole wave and mask the data", related=related)
            elif _whole_warps(ctx, h.frame.node):
                ctx.report(self, h.node,
                           f"{what} inside `{cond}` (line {line}): whole warps on "
                           f"NVIDIA, but {ctx.breaks}, only part of the wave is active and the mask names absent "
                           f"lanes; run the warp operation with the whole wave and mask the data instead",
                           related=related)
            else:
                ctx.report(self, h.node,
                           f"{what} inside the thread-dependent `{cond}` (line {line}): "
                           f"only some lanes are active, so the mask names lanes that are not there (undefined on "
                           f"NVIDIA, AMD and Metal); let the whole warp execute it and mask the data, or pass the "
                           f"ballot of the active lanes", severity="error", related=related)


def _whole_warps(ctx, cond: Node, width: int = 32) -> bool:
    """A bound on the thread index that is a multiple of `width` (a macro that hardcodes the warp
    size, or `n | 31`, for 32): whole warps of that width on either side of it."""
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
        if (v is not None and v > 0 and v % width == 0) or (width == 32 and t in ctx.hardcoded_macros):
            return True
        while side is not None and side.type == "parenthesized_expression" and side.named_children:
            side = side.named_children[0]
        if width == 32 and side is not None and side.type == "binary_expression" and \
                ctx.text(side.child_by_field_name("operator")) == "|" and 31 in {warpflow.int_value(ctx.text(side.child_by_field_name(k))) for k in ("left", "right")}:
            return True  # `t <= (n | 31)`: n rounded up to the last lane of a 32-lane warp
    return False
