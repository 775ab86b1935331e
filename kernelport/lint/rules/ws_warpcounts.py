"""WS032: a block's warp count written as the literal it is at 32 lanes, beside code that counts it
from the wave width.

hipDF's parquet encoder (tests/labelled16) sizes its per-warp slots `rpt_map[num_encode_warps]`
with `num_encode_warps = encode_block_size / warp_size` (2 on a 64-lane wave), then bounds the
slot index by `4` (`idx8 < 4 ? s->rpt_map[idx8] : 0`); gpuInitFragmentStats gives each warp of its
`__launch_bounds__(128)` block a fragment as `blockIdx.x * 4 + threadIdx.x / warp_size`.  Both 4s
are the block's warp count at 32 lanes: on a 64-lane wave the slot reads run past the array and the
fragments 2-3 of every block are never processed.  vLLM's MoE align kernel (tests/labelled17)
runs 1024 threads and keeps `shared_counts[32][8]`, 8 experts for each of 32 warps, but takes the
warp as `threadIdx.x / WARP_SIZE` with WARP_SIZE the wave width: at 64 lanes only warps 0-15 clear
their slots, and the counts of experts 128-255 are read from slots no warp owns.  Sound only where the file itself gives both
counts: the array's size (or the block size) is a constant expression of literals, constants and
a wave-width name (`warpSize`, a macro that is it, a per-platform warp-size constant), and the
literal equals its value at 32 lanes but not at 64.
"""
from __future__ import annotations

from tree_sitter import Node

from ... import dialect, lazy_re
from ...blocksizes import _binary, launch_block_sizes, reads_builtin
from ...warpsites import int_value
from ..rule import Rule, ex, register
from .ws_counts import _wave_names

_CMP = {"<": 0, "<=": 1, ">=": 0, ">": 1}  # bound of `X op L` (or its complement) is L + this
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_FIRST_ARG = lazy_re.compile(r"\(\s*([A-Za-z_][\w:]*|\d+)\s*[,)]")
_STATEMENTS = frozenset({"expression_statement", "declaration", "if_statement", "while_statement",
                         "for_statement", "do_statement", "return_statement"})


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    return n


class _Consts:
    """Integer values of the file's constant expressions with the wave width given."""

    def __init__(self, ctx):
        self.ctx, self.src = ctx, ctx.src
        vis = ctx.module.visible
        self.waves = _wave_names(ctx) | set(getattr(vis, "wave_widths", ()) or ())
        ws = dialect.concept("warp_size").spelling(ctx.lang) or "warpSize"  # a macro the AMD build makes it
        self.waves |= {n for n, m in (getattr(vis, "hip_macros", None) or {}).items()
                       if m.params is None and m.body.strip().strip("()").strip() == ws}
        self.inits: dict[str, Node] = {}
        for d in ctx.src.index.of_type("init_declarator"):
            decl, name, value = d.parent, d.child_by_field_name("declarator"), d.child_by_field_name("value")
            if decl is not None and decl.type == "declaration" and name is not None and name.type == "identifier" \
                    and value is not None and any(c.type == "type_qualifier" and ctx.text(c) in ("const", "constexpr")
                                                  for c in decl.children):
                self.inits.setdefault(ctx.text(name), value)
        self.macros = {m.name: m.value for m in ctx.module.macros.values()}

    def value(self, n: Node | None, wave: int, depth: int = 0) -> int | None:
        n = _strip(n)
        if n is None or depth > 8:
            return None
        if n.type == "number_literal":
            return int_value(self.ctx.text(n))
        if n.type == "initializer_list" and len(n.named_children) == 1:
            return self.value(n.named_children[0], wave, depth + 1)
        if n.type in ("identifier", "qualified_identifier"):
            return self.named("".join(self.ctx.text(n).split()), wave, depth + 1)
        if n.type == "binary_expression":
            l = self.value(n.child_by_field_name("left"), wave, depth + 1)
            r = self.value(n.child_by_field_name("right"), wave, depth + 1)
            return _binary(self.ctx.text(n.child_by_field_name("operator")), l, r) \
                if l is not None and r is not None else None
        return None

    def named(self, text: str, wave: int, depth: int = 0) -> int | None:
        """The value of a literal or a name (its last `::` component) spelled as text.  `depth`
        bounds the names followed (`constexpr int n = Traits::n;` names itself)."""
        if text[:1].isdigit():
            return int_value(text)
        name = text.split("::")[-1]
        if text in self.waves or name in self.waves:
            return wave
        if name in self.inits:
            return self.value(self.inits[name], wave, depth + 1)
        macro = self.macros.get(name)
        return int_value(macro.strip().strip("()")) if macro else None

    def per_wave(self, n: Node | None) -> tuple[int, int] | None:
        """(value at 32 lanes, at 64) where they differ: the expression counts warps."""
        a, b = self.value(n, 32), self.value(n, 64)
        return (a, b) if a is not None and b is not None and a != b else None


def _slot_arrays(ctx, consts: _Consts) -> dict[str, tuple[int, int, Node]]:
    """Arrays sized by a warp count: name -> (size at 32 lanes, at 64, its size expression)."""
    out = {}
    for a in ctx.src.index.of_type("array_declarator"):
        name, size = a.child_by_field_name("declarator"), a.child_by_field_name("size")
        if name is not None and name.type in ("identifier", "field_identifier") and \
                (got := consts.per_wave(size)) is not None and got[0] > got[1]:
            out.setdefault(ctx.text(name), (got[0], got[1], size))
    return out


def _subscripts(ctx, scope: Node, arrays) -> list[tuple[str, int, str]]:
    """(index variable, its literal offset, array) for each `A[X]` / `A[X + c]` / `s->A[X]` in scope."""
    out = []
    for s in ctx.src.index.under(scope, "subscript_expression"):
        arr = _strip(s.child_by_field_name("argument"))
        if arr is not None and arr.type == "field_expression":
            arr = arr.child_by_field_name("field")
        idx = s.child_by_field_name("index") or next(
            (c for c in s.named_children if c.type == "subscript_argument_list"), None)
        if idx is not None and idx.type == "subscript_argument_list" and len(idx.named_children) == 1:
            idx = idx.named_children[0]
        idx = _strip(idx)
        if arr is None or idx is None or ctx.text(arr) not in arrays:
            continue
        if idx.type == "identifier":
            out.append((ctx.text(idx), 0, ctx.text(arr)))
        elif idx.type == "binary_expression" and ctx.text(idx.child_by_field_name("operator")) == "+":
            x, c = _strip(idx.child_by_field_name("left")), _strip(idx.child_by_field_name("right"))
            if x is not None and c is not None and x.type == "identifier" and c.type == "number_literal" \
                    and (k := int_value(ctx.text(c))) is not None:
                out.append((ctx.text(x), k, ctx.text(arr)))
    return out


@register
class LiteralWarpCount(Rule):
    code, name = "WS032", "literal-warp-count"
    summary = "A block's warp count written as its 32-lane literal where the file counts the same warps from the wave width."
    docs = """\
A block of 128 threads holds 4 NVIDIA warps but 2 CDNA waves of 64.  Code that counts the block's
warps from the wave width (`rpt_map[block_size / warpSize]`, `threadIdx.x / warpSize`) and then
writes the count as the literal `4` is right only at 32 lanes: on a 64-lane wave a slot index
bounded by 4 reads past the 2-slot array, and a grid that hands each block warps
`blockIdx.x * 4 + threadIdx.x / warpSize` skips warps 2-3 of every block's share.

Reported at the literal's comparison with an index of an array sized by a warp count
(`X < 4` where `A[X]` or `A[X + c]` follows in the same statement and `A` has `N / warpSize`
slots, with `4` == N / 32), and at `blockIdx.x * K + threadIdx.x / warpSize` in a kernel whose
block size (`__launch_bounds__`, else every launch in the file) is K * 32 threads but not K * 64.
And at a warp index counted from the wave width (`warp = threadIdx.x / warpSize`) that subscripts
an array whose extent is the literal warp count of that block at 32 lanes (`counts[32][8]` in a
1024-thread kernel) where the same array is also read at an index counted from neither the thread
nor the wave (`counts[expert / 8]`): at 64 lanes half the slots belong to no warp.
The wave width is `warpSize`, a macro that is it, or a header constant defined per platform as
that platform's wave width.  A literal that is the count at 64 lanes too (a block of whole
64-lane waves it does not count), a count from a fixed `32`, or a block size the file does not say
stay silent.

**Fix**: spell the count from the wave width, `N / warpSize` (the array's own size expression)."""
    languages = frozenset({"cuda", "hip"})
    flags = (
        ex("""
constexpr int block_size = 128;
constexpr int num_warps = block_size / warpSize;
struct state { unsigned slots[num_warps]; };
__device__ void runs(state* s, unsigned t) {
    unsigned idx = t / 8;
    unsigned m = (idx < 4) ? s->slots[idx] : 0;  // !
    unsigned n = (idx < 3) ? s->slots[idx + 1] : 0;  // !
    if (t == 0) s->slots[0] = m | n;
}""", note="4 slots at 32 lanes, 2 at 64: the reads run past the array"),
        ex("""
__global__ void __launch_bounds__(128) frag_stats(int* out, int n) {
    int frag = blockIdx.x * 4 + threadIdx.x / warpSize;  // !
    if (frag < n && threadIdx.x % warpSize == 0) out[frag] = frag;
}""", note="a 128-thread block is 2 waves of 64: fragments 2 and 3 of each block are skipped"),
        ex("""
__global__ void align(const int* ids, int* out, int n) {
    __shared__ int counts[32][8];
    const int warp = threadIdx.x / warpSize;  // !
    for (int i = 0; i < 8; ++i) counts[warp][i] = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        int e = ids[i];
        int group = e / 8;
        atomicAdd(&counts[group][e % 8], 1);
    }
}
void run(const int* ids, int* out, int n) { align<<<1, 1024>>>(ids, out, n); }""",
           note="32 warps of the 1024-thread block at 32 lanes, 16 at 64: slots 16-31 are never cleared"),
    )
    passes = (
        ex("""
constexpr int block_size = 128;
constexpr int num_warps = block_size / warpSize;
struct state { unsigned slots[num_warps]; };
__device__ void runs(state* s, unsigned t) {
    unsigned idx = t / 8;
    unsigned m = (idx < num_warps) ? s->slots[idx] : 0;
    unsigned k = (idx < 2) ? s->slots[idx] : 0;
    if (t == 0) s->slots[0] = m | k;
}""", note="bounded by the array's own count, or by its count at 64 lanes"),
        ex("""
struct state { unsigned slots[4]; };
__device__ void runs(state* s, unsigned t) {
    unsigned idx = t / 8;
    if (t == 0) s->slots[0] = (idx < 4) ? s->slots[idx] : 0;
}""", note="four slots whatever the wave: not a warp count"),
        ex("""
__global__ void __launch_bounds__(128) frag_stats(int* out, int n) {
    int a = blockIdx.x * (128 / warpSize) + threadIdx.x / warpSize;
    int b = blockIdx.x * 4 + threadIdx.x / 32;
    if (a < n && b < n) out[a] = b;
}
__global__ void __launch_bounds__(256) tiles(int* out, int n) {
    int t = blockIdx.x * 4 + threadIdx.x / warpSize;
    if (t < n) out[t] = t;
}""", note="a count from the wave width, 32-thread rows, a 4 that is not the 256-thread block's warps"),
        ex("""
__global__ void reduce(const float* in, float* out) {
    __shared__ float partial[32];
    __shared__ int counts[32][8];
    const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
    float v = in[threadIdx.x];
    if (lane == 0) partial[warp] = v;
    const int w32 = threadIdx.x / 32;
    counts[w32][0] = 0;
    __syncthreads();
    int k = (int)in[0];
    if (warp == 0) v = lane < blockDim.x / warpSize ? partial[lane] : 0.f;
    out[threadIdx.x] = v + partial[0] + counts[k][0];
}
void run(const float* in, float* out) { reduce<<<1, 1024>>>(in, out); }""",
           note="slots read back by lanes counted from the wave, and 32-lane warps that own all 32 slots"),
    )

    def check(self, ctx) -> None:
        if ctx.widest_wave <= 32:
            return
        consts = _Consts(ctx)
        arrays = _slot_arrays(ctx, consts)
        for f in ctx.module.functions.values():
            if f.body is None or not (f.is_kernel or f.is_device):
                continue
            if arrays:
                self._bounds(ctx, f, arrays)
            if f.is_kernel:
                self._grid(ctx, f, consts)
                self._slots(ctx, f, consts)

    def _bounds(self, ctx, f, arrays) -> None:
        for b in ctx.src.index.under(f.body, "binary_expression"):
            op = ctx.text(b.child_by_field_name("operator"))
            if op not in _CMP or ctx.guarded(b):
                continue
            x, lit = _strip(b.child_by_field_name("left")), _strip(b.child_by_field_name("right"))
            if x is not None and x.type == "number_literal":
                x, lit, op = lit, x, _FLIP[op]
            if x is None or lit is None or x.type != "identifier" or lit.type != "number_literal":
                continue
            value = int_value(ctx.text(lit))
            stmt = b.parent
            while stmt is not None and stmt.type not in _STATEMENTS:
                stmt = stmt.parent
            if value is None or stmt is None:
                continue
            hit = next(((arr, c) for name, c, arr in _subscripts(ctx, stmt, arrays)
                        if name == ctx.text(x) and value + _CMP[op] + c == arrays[arr][0]), None)
            if hit is None:
                continue
            arr, c = hit
            n32, n64, size = arrays[arr]
            ctx.report(self, lit, f"`{value}` bounds `{arr}[{ctx.text(x)}{f' + {c}' if c else ''}]` at the "
                       f"{n32} slots `{arr}` has at 32 lanes; sized `{' '.join(ctx.text(size).split())}` it has "
                       f"{n64} on a 64-lane wave {ctx.breaks}, so the index runs past it: bound it by the array's "
                       f"own count", related=(ctx.related(size, f"`{arr}` sized by the wave width"),))

    def _grid(self, ctx, f, consts: _Consts) -> None:
        block = _launch_threads(ctx, f, consts)
        if block is None:
            return
        threads, at = block
        for add in ctx.src.index.under(f.body, "binary_expression"):
            if ctx.text(add.child_by_field_name("operator")) != "+" or ctx.guarded(add):
                continue
            sides = [_strip(add.child_by_field_name("left")), _strip(add.child_by_field_name("right"))]
            mul = next((s for s in sides if s is not None and s.type == "binary_expression"
                        and ctx.text(s.child_by_field_name("operator")) == "*"), None)
            div = next((s for s in sides if s is not None and s is not mul and s.type == "binary_expression"
                        and ctx.text(s.child_by_field_name("operator")) == "/"), None)
            if mul is None or div is None or consts.per_wave(div.child_by_field_name("right")) is None or \
                    not reads_builtin(ctx.src, div.child_by_field_name("left"), "thread_idx", ctx.lang):
                continue
            l, r = _strip(mul.child_by_field_name("left")), _strip(mul.child_by_field_name("right"))
            lit = next((s for s in (l, r) if s is not None and s.type == "number_literal"), None)
            other = r if lit is l else l
            k = int_value(ctx.text(lit)) if lit is not None else None
            if k is None or not reads_builtin(ctx.src, other, "block_idx", ctx.lang) or \
                    k * 32 != threads or k * 64 == threads:
                continue
            ctx.report(self, lit, f"`{k}` is the warp count of the {threads}-thread block at 32 lanes; "
                       f"`{' '.join(ctx.text(div).split())}` counts {threads // 64 or 1} waves of 64 {ctx.breaks}, "
                       f"so the warps {threads // 64}..{k - 1} of each block's share are never run: "
                       f"use `{threads} / {ctx.text(div.child_by_field_name('right'))}`",
                       related=(ctx.related(at, f"a block of {threads} threads"),))


    def _slots(self, ctx, f, consts: _Consts) -> None:
        block = _launch_threads(ctx, f, consts) or _launched_threads(ctx, f)
        if block is None or block[0] % 64:
            return
        threads, at = block
        sized = {}  # arrays whose first extent is the block's warp count at 32 lanes
        for a in ctx.src.index.under(f.body, "array_declarator"):
            inner = a
            while inner.child_by_field_name("declarator") is not None and \
                    inner.child_by_field_name("declarator").type == "array_declarator":
                inner = inner.child_by_field_name("declarator")
            name, size = inner.child_by_field_name("declarator"), _strip(inner.child_by_field_name("size"))
            if name is not None and size is not None and size.type == "number_literal" and \
                    int_value(ctx.text(size)) == threads // 32:
                sized[ctx.text(name)] = size
        if not sized:
            return
        warps, plain = {}, set()  # locals that are a warp index from the wave width; locals from neither
        for d in ctx.src.index.under(f.body, "init_declarator"):
            name, value = d.child_by_field_name("declarator"), _strip(d.child_by_field_name("value"))
            if name is None or name.type != "identifier" or value is None:
                continue
            if value.type == "binary_expression" and ctx.text(value.child_by_field_name("operator")) == "/" and \
                    consts.per_wave(value.child_by_field_name("right")) is not None and \
                    reads_builtin(ctx.src, value.child_by_field_name("left"), "thread_idx", ctx.lang):
                warps[ctx.text(name)] = value
            elif not reads_builtin(ctx.src, value, "thread_idx", ctx.lang) and \
                    not any(consts.per_wave(c) is not None for c in ctx.src.index.under(value, "identifier")) and \
                    value.type != "number_literal":
                plain.add(ctx.text(name))
        subs = _subscripts(ctx, f.body, sized)
        for arr in sized:
            owned = [warps[x] for x, c, a in subs if a == arr and not c and x in warps]
            other = [x for x, c, a in subs if a == arr and x in plain and x not in warps]
            if not owned or not other:
                continue
            div = owned[0]
            ctx.report(self, div, f"`{' '.join(ctx.text(div).split())}` numbers the warps of the {threads}-thread "
                       f"block from the wave width, but `{arr}` has the {threads // 32} slots of its 32-lane warps; "
                       f"its {threads // 64} waves of 64 lanes own only slots 0..{threads // 64 - 1} {ctx.breaks}, so "
                       f"slots {threads // 64}..{threads // 32 - 1}, read at `{arr}[{other[0]}]`, belong to no warp: "
                       f"count the warps of the array's layout (`threadIdx.x / 32`) or size it from the wave",
                       related=(ctx.related(at, f"a block of {threads} threads"),))


def _launched_threads(ctx, f) -> tuple[int, Node] | None:
    """The one thread count every launch of kernel `f` in the file gives its block (and where)."""
    got = set()
    for launch in ctx.launches_of(f):
        sizes = launch_block_sizes(ctx.module, launch)
        if len(sizes) != 1:
            return None
        got.add(sizes[0])
    if len({t for t, _ in got}) != 1:
        return None
    return next(iter(got))


def _launch_threads(ctx, f, consts: _Consts) -> tuple[int, Node] | None:
    """The thread count `__launch_bounds__` gives kernel `f` (and where), where it does not depend on
    the wave width.  A kernel marked by a header's macro (`CUDF_KERNEL void __launch_bounds__(n) k`)
    parses without the attribute's node: its first argument is read from the text before the name."""
    if f.launch_bounds is not None and f.launch_bounds.named_children:
        first = f.launch_bounds.named_children[0]
        a, b = consts.value(first, 32), consts.value(first, 64)
        return (a, first) if a is not None and a == b else None
    decl = f.node.child_by_field_name("declarator")
    spelled = (dialect.concept("launch_bounds").spelling(ctx.lang) or "").split("(")[0]
    if decl is None or not spelled:
        return None
    gap = ctx.src.data[f.node.start_byte:decl.start_byte].decode("utf-8", "replace")
    at = gap.find(spelled)
    m = _FIRST_ARG.match(gap, at + len(spelled)) if at >= 0 else None
    if m is None:
        return None
    a, b = consts.named(m.group(1), 32), consts.named(m.group(1), 64)
    return (a, f.node) if a is not None and a == b else None
