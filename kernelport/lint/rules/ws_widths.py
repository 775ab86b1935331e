"""WS rules where one reduction takes its lane count from the wave width and its segments from 32.

A shuffle with a literal width (`__shfl_xor_sync(m, v, j, 32)`) reduces 32-lane segments: that is a
logical group lint otherwise trusts.  The same reduction goes wrong on a 64-lane wave when its
ladder is bounded by the hardware width (`for (j = 1; j < nw; j *= 2)` with `nw = warpSize`): the
step at 32 leaves the segment (HIP's width-32 `xor` by 32 gives lanes 0-31 their own value, lanes
32-63 a lane of the other half), and a block stage chosen by `blockDim.x > warpSize` is skipped for
a 64-thread block that still holds two 32-lane partial sums.  qiskit-aer's statevector reductions
had this form until its ROCm port (tests/labelled10).  A slot count that rounds by the wave and
divides by 32 (`(blockDim.x + warpSize - 1) >> 5`) mixes the widths in one expression.
"""
from __future__ import annotations

from tree_sitter import Node

from ... import backends, cexpr, dialect, guards
from ...source import ident_name, walk
from ...warpsites import WARP_SIZE_NAME, int_value
from ..rule import Rule, ex, register
from .ws_lanemasks import _WaveWords

_ORDER = ("<", "<=", ">", ">=")
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_HALVES = ("/=", ">>=", "/ 2", ">> 1")


def _bare(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n


def _op(ctx, n: Node) -> str:
    o = n.child_by_field_name("operator")
    return ctx.text(o) if o is not None else ""


def _wave_word(ctx, wave: _WaveWords, n: Node) -> Node | None:
    """The first identifier under `n` that reads the wave width."""
    for d in walk(n):
        if d.type == "identifier" and ctx.text(d) in wave.names:
            return d
    return None


def _value_at(ctx, fn: Node, name: str, before: int) -> Node | None:
    """The value last given to the local `name` before byte `before` in this function (source order)."""
    last = None
    for d in walk(fn):
        if d.start_byte >= before:
            break
        if d.type == "init_declarator" and ident_name(d.child_by_field_name("declarator")) == name:
            last = d.child_by_field_name("value")
        elif d.type == "assignment_expression" and _op(ctx, d) == "=" and \
                ctx.text(d.child_by_field_name("left") or d) == name:
            last = d.child_by_field_name("right")
    return last


def _at_64(ctx, wave, expr: Node) -> int | None:
    """The value of `expr` on a 64-lane wave where it is a constant expression of the wave width
    (`warpSize / 2`), else None (`min(blockDim.x, warpSize)`: up to the wave)."""
    try:
        v = cexpr.evaluate(ctx.text(expr), {name: 64 for name in wave.names})
    except (cexpr.CExprError, ValueError, TypeError):
        return None
    return v if isinstance(v, int) else None


def _reads_wave(ctx, wave, fn: Node, expr: Node | None, before: int) -> tuple[Node, int | None] | None:
    """Where `expr` (or the value its name last held) reads the wave width, and its value at 64."""
    expr = _bare(expr)
    if expr is None:
        return None
    hit = _wave_word(ctx, wave, expr)
    if hit is None and expr.type == "identifier":
        expr = _value_at(ctx, fn, ctx.text(expr), before)
        hit = _wave_word(ctx, wave, expr) if expr is not None else None
    return (hit, _at_64(ctx, wave, expr)) if hit is not None else None


def _ladder_source(ctx, wave, fn: Node, loop: Node, var: str, width: int) -> Node | None:
    """Where the loop's offsets `var` take their extent from the wave width and reach `width` on a
    64-lane wave: the bound of a growing ladder (`j < nw`: its last step is the largest power of two
    below it), or the start of a halving one (`o = warpSize / 2`)."""
    cond, update = _bare(loop.child_by_field_name("condition")), loop.child_by_field_name("update")
    halving = update is not None and any(h in ctx.text(update) for h in _HALVES)
    if halving:
        init = loop.child_by_field_name("initializer")
        start = None
        for d in walk(init) if init is not None else ():
            if d.type == "init_declarator" and ident_name(d.child_by_field_name("declarator")) == var:
                start = d.child_by_field_name("value")
            elif d.type == "assignment_expression" and ctx.text(d.child_by_field_name("left") or d) == var:
                start = d.child_by_field_name("right")
        found = _reads_wave(ctx, wave, fn, start, loop.start_byte)
        return found[0] if found is not None and (found[1] is None or found[1] >= width) else None
    if cond is None or cond.type != "binary_expression" or _op(ctx, cond) not in _ORDER:
        return None
    left, right = _bare(cond.child_by_field_name("left")), _bare(cond.child_by_field_name("right"))
    op = _op(ctx, cond)
    if right is not None and ctx.text(right) == var:
        left, right, op = right, left, _FLIP[op]
    if left is None or ctx.text(left) != var or op not in ("<", "<="):
        return None
    found = _reads_wave(ctx, wave, fn, right, loop.start_byte)
    if found is None:
        return None
    bound = found[1]
    last = None if bound is None else 1 << max(0, (bound if op == "<=" else bound - 1).bit_length() - 1)
    return found[0] if last is None or last >= width else None


def _enclosing_loop(ctx, call: Node, var: str) -> Node | None:
    """The innermost `for` around the call whose condition or initializer names `var`."""
    p = call.parent
    while p is not None and p.type != "function_definition":
        if p.type == "for_statement":
            heads = [p.child_by_field_name(k) for k in ("condition", "initializer")]
            if any(d.type == "identifier" and ctx.text(d) == var for h in heads if h is not None for d in walk(h)):
                return p
        p = p.parent
    return None


def _shuffle_calls(ctx, root: Node | None = None):
    """(call, concept, {param: arg}) of each warp-level shuffle under root; a callee's name is looked
    up once per file (most calls are not shuffles)."""
    memo = ctx.__dict__.setdefault("_ws_shuffle_names", {})
    for call, name in ctx.calls(root):
        kind = memo.get(name)
        if kind is None:
            found = dialect.spelled_by(backends.source().name, name)
            kind = memo[name] = bool(found) and found[0].kind == "shuffle" and found[0].warp_level
        if kind:
            b = ctx.concept_of_call(call)
            if b is not None:
                yield call, b[0], b[2]


def narrow_ladders(ctx):
    """(wave-width read, the width-W shuffle it steps past, W) per ladder, and the functions they are in."""
    cached = ctx.__dict__.get("_ws_narrow_ladders")
    if cached is not None:
        return cached
    wave, found, seen = _WaveWords(ctx), [], set()
    for f in ctx.module.functions.values():
        if not f.is_device or f.body is None:
            continue
        for call, _, args in _shuffle_calls(ctx, f.body):
            width = args.get("width")
            w = int_value(ctx.text(width)) if width is not None else None
            off = _bare(args.get("delta") or args.get("lanemask"))
            if w is None or not 0 < w < 64 or off is None or off.type != "identifier" or ctx.guarded(call):
                continue
            loop = _enclosing_loop(ctx, call, ctx.text(off))
            src = _ladder_source(ctx, wave, f.body, loop, ctx.text(off), w) if loop is not None else None
            if src is not None and src.start_byte not in seen:
                seen.add(src.start_byte)
                found.append((src, call, w, f))
    ctx.__dict__["_ws_narrow_ladders"] = found
    return found


def _block_tests(ctx, wave, fn: Node):
    """`blockDim.x > warpSize` and the like: a block size compared with the wave width."""
    block = dialect.concept("block_dim").name(backends.source().name) or "blockDim"
    for n in ctx.src.index.under(fn, "binary_expression"):
        if _op(ctx, n) not in _ORDER:
            continue
        sides = [_bare(n.child_by_field_name(k)) for k in ("left", "right")]
        if None in sides:
            continue
        texts = [ctx.text(s) for s in sides]
        if any(t.startswith(block) for t in texts) and any(_wave_word(ctx, wave, s) is not None for s in sides):
            yield n


@register
class LadderPastShuffleWidth(Rule):
    code, name = "WS026", "ladder-past-shuffle-width"
    summary = "A shuffle of literal width 32 (or less) runs a ladder whose extent is the wave width."
    docs = """\
`nw = min(blockDim.x, warpSize); for (j = 1; j < nw; j *= 2) v += __shfl_xor_sync(m, v, j, 32);`
reduces 32-lane segments with a ladder as long as the hardware wave.  On a 64-lane wave the step at
32 leaves the segment: HIP's width-32 `xor` by 32 gives lanes 0-31 their own value again and lanes
32-63 a lane of the other half, so every partial sum is wrong.  A halving ladder that starts at
`warpSize / 2` over width-32 shuffles does the same on its first step.  In a function with such a
ladder, a block stage chosen by `blockDim.x > warpSize` is reported too: a 64-thread block is one
64-lane wave there but still holds two 32-lane partial sums, and the block stage that would add
them is skipped (qiskit-aer's reductions before its ROCm port, tests/labelled10).

**Fix**: use one width for the whole reduction: shuffle at `warpSize` and step to it, or keep the
32-lane segments and bound the ladder and the block test by 32.  A ladder bounded by 32 over
width-32 shuffles (a logical 32-lane group), a `warpSize` ladder at the default width, and a ladder
whose offsets stay below the width on a 64-lane wave (`j < warpSize / 4` over width 32) stay
silent."""
    languages = frozenset({"cuda", "hip"})
    flags = (
        ex("""
__global__ void total(double* x) {
    double s = x[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned nw = min(blockDim.x, warpSize);  // !
    for (unsigned j = 1; j < nw; j *= 2) s += __shfl_xor_sync(0xffffffff, s, j, 32);
    __shared__ double part[32];
    if (blockDim.x > warpSize) {  // !
        if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = s;
    }
    if (threadIdx.x == 0) x[blockIdx.x] = s;
}"""),
        ex("""
__device__ float seg_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2)  // !
        v += __shfl_down_sync(0xffffffff, v, o, 32);
    return v;
}"""),
    )
    passes = (
        ex("""
__global__ void rows(double* x) {
    double s = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (unsigned j = 1; j < 32; j *= 2) s += __shfl_xor_sync(0xffffffff, s, j, 32);
    if (blockDim.x > warpSize && (threadIdx.x & 31) == 0) x[blockIdx.x * 32 + (threadIdx.x >> 5)] = s;
}""", note="a 32-lane logical group: the block test alone is no finding"),
        ex("""
__device__ float wave_sum(float v) {
    for (int j = 1; j < warpSize; j *= 2) v += __shfl_xor_sync(0xffffffff, v, j, warpSize);
    return v;
}"""),
    )

    def check(self, ctx) -> None:
        wave, done = _WaveWords(ctx), set()
        for src, call, w, f in narrow_ladders(ctx):
            ctx.report(self, src, f"`{ctx.text(src)}` sets the extent of a shuffle ladder whose shuffles run at width "
                       f"{w} (line {ctx.where(call).split(':')[0]}): {ctx.breaks}, the step at 32 leaves the "
                       f"{w}-lane segment and the partial sums are wrong; shuffle at `{ctx.text(src)}` or bound the "
                       f"ladder by {w}", related=(ctx.related(call, f"shuffles {w}-lane segments", site=True),))
            if f.node.start_byte in done:
                continue
            done.add(f.node.start_byte)
            for t in _block_tests(ctx, wave, f.body):
                if not ctx.guarded(t):
                    ctx.report(self, t, f"`{ctx.text(t)}` chooses the block stage by the wave width, but the warp "
                               f"stage leaves {w}-lane partial sums (width {w}, line {ctx.where(call).split(':')[0]}): "
                               f"{ctx.breaks}, a block of one wave skips the stage that adds its partial sums; "
                               f"compare with {w}", related=(ctx.related(call, f"shuffles {w}-lane segments", site=True),))


@register
class RoundByWaveDivideBy32(Rule):
    code, name = "WS027", "round-by-wave-divide-by-32"
    summary = "A count rounds up by the wave width and divides by 32 (or the reverse)."
    docs = """\
`(blockDim.x + warpSize - 1) >> 5` rounds to whole waves and counts 32-lane slots: on a 64-lane
wave it is one more than the slots a 256-thread block writes (9 of 8), so a block stage reads a
slot nobody wrote.  `(n + 31) / warpSize` mixes the widths the other way (too few at 64).

**Fix**: round and divide by the same width: `(n + warpSize - 1) / warpSize`, or 31 and 32 for a
32-lane layout.  A count rounded and divided by 32 alone stays silent here (the warp-size dataflow
reports it where it reaches warp-level code)."""
    languages = frozenset({"cuda", "hip"})
    flags = (
        ex("""
__global__ void slots(const float* in, float* out) {
    __shared__ float part[32];
    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = in[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < ((blockDim.x + warpSize - 1) >> 5)) out[threadIdx.x] = part[threadIdx.x];  // !
}"""),
    )
    passes = (
        ex("""
__global__ void slots(const float* in, float* out) {
    __shared__ float part[32];
    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = in[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < ((blockDim.x + 31) >> 5)) out[threadIdx.x] = part[threadIdx.x];
}"""),
        ex("""
__host__ int waves(int n) { return (n + warpSize - 1) / warpSize; }
"""),
    )

    def check(self, ctx) -> None:
        wave = _WaveWords(ctx)
        for n in ctx.nodes("binary_expression"):
            o = n.child_by_field_name("operator")
            op = o.type if o is not None else ""  # the operator's token is its node type: no text decoded
            if op not in (">>", "/"):
                continue
            left, right = _bare(n.child_by_field_name("left")), _bare(n.child_by_field_name("right"))
            if left is None or right is None or left.type != "binary_expression":
                continue
            by32 = int_value(ctx.text(right)) == (5 if op == ">>" else 32)
            by_wave = op == "/" and _wave_word(ctx, wave, right) is not None
            terms = " ".join(ctx.text(left).split())
            added = _bare(left.child_by_field_name("right"))
            added = int_value(ctx.text(added)) if added is not None else None
            round_wave = _op(ctx, left) == "-" and added == 1 and _wave_word(ctx, wave, left) is not None
            round_31 = _op(ctx, left) == "+" and added == 31
            if ((by32 and round_wave) or (by_wave and round_31)) and not ctx.guarded(n):
                ctx.report(self, n, f"`{' '.join(ctx.text(n).split())}` rounds by one width and divides by the other "
                           f"(`{terms}`): {ctx.breaks}, the count is off by the slots of a half wave; round and "
                           f"divide by the same width")


def _reads_thread(ctx, fn: Node | None, n: Node, before: int) -> bool:
    """`n` reads the thread index, itself or through the value its local name last held."""
    thread = dialect.concept("thread_idx").name(backends.source().name) or "threadIdx"
    if thread in ctx.text(n):
        return True
    n = _bare(n)
    held = _value_at(ctx, fn, ctx.text(n), before) if fn is not None and n.type == "identifier" else None
    return held is not None and thread in ctx.text(held)


def _group_index(ctx, fn: Node | None, value: Node, thirty_twos: frozenset[str]) -> Node | None:
    """The `threadIdx.x / 32` (or `>> 5`, or by a macro that is 32) inside a shuffled value."""
    for d in walk(value):
        if d.type != "binary_expression" or d.child_by_field_name("operator") is None:
            continue
        op, right = d.child_by_field_name("operator").type, _bare(d.child_by_field_name("right"))
        left = d.child_by_field_name("left")
        if right is None or left is None or op not in ("/", ">>") or not _reads_thread(ctx, fn, left, d.start_byte):
            continue
        k = int_value(ctx.text(right))
        if (op == "/" and (k == 32 or ctx.text(right) in thirty_twos)) or (op == ">>" and k == 5):
            return d
    return None


@register
class GroupIndexBroadcast(Rule):
    code, name = "WS028", "group-index-broadcast-from-lane"
    summary = "A 32-lane group's index (`threadIdx.x / 32`) is shuffled from a fixed lane of the whole warp."
    docs = """\
`int warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);` makes the warp index uniform by reading
lane 0's.  At the default width the source lane is a lane of the hardware wave: on a 64-lane wave
lanes 32-63 read lane 0 and take the index of the 32-lane group below them, so two groups do the
same work and the odd groups' work is never done, while `threadIdx.x % 32` still numbers their
lanes 0-31 (deepmd-kit's tabulation kernels before its ROCm merge, tests/labelled10).

**Fix**: divide by the wave width (`threadIdx.x / warpSize`), or keep the 32-lane group and shuffle
within it (`__shfl_sync(m, threadIdx.x / 32, 0, 32)`, or no shuffle at all: the value is uniform in
the group already).  A shuffle of width 32 and a group index of the wave stay silent."""
    languages = frozenset({"cuda", "hip"})
    flags = (
        ex("""
#define KTILE 4
__global__ void rows(const float* in, float* out, int n) {
    int warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);  // !
    for (int i = warp; i < n; i += KTILE) if (threadIdx.x % 32 == 0) out[i] = in[i];
}"""),
    )
    passes = (
        ex("""
#define KTILE 4
__global__ void rows(const float* in, float* out, int n) {
    int warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0, 32);
    int wave = __shfl_sync(0xffffffff, threadIdx.x / warpSize, 0);
    for (int i = warp + wave; i < n; i += KTILE) if (threadIdx.x % 32 == 0) out[i] = in[i];
}"""),
    )

    def check(self, ctx) -> None:
        thirty_twos = frozenset(n for n, m in ctx.hardcoded_macros.items() if int_value(m.value) == 32)
        for call, c, args in _shuffle_calls(ctx):
            if c.key != "shfl" or args.get("value") is None or ctx.guarded(call):
                continue
            width, lane = args.get("width"), args.get("lane")
            w = int_value(ctx.text(width)) if width is not None else None
            if (width is not None and (w is None or w < 64)) or lane is None or int_value(ctx.text(lane)) is None:
                continue
            f = ctx.function_at(call)
            group = _group_index(ctx, f.body if f is not None else None, args["value"], thirty_twos)
            if group is not None:
                ctx.report(self, call, f"`{' '.join(ctx.text(group).split())}` (a 32-lane group's index) is read from "
                           f"lane {ctx.text(lane)} of the whole warp: {ctx.breaks}, lanes 32-63 take the index of the "
                           f"group below them and the odd groups' work is never done; divide by the wave width or "
                           f"shuffle at width 32")


@register
class FiveDoublingsAgainstWave(Rule):
    code, name = "WS030", "five-doublings-against-wave"
    summary = "A loop of 5 doublings (up to 32) is compared with a value the wave width bounds."
    docs = """\
`for (int i = 0; i < 5; i++) { p <<= 1; if (p > n) break; }` with `n = min(requested, warpSize)`
rounds `n` to a power of two that can be at most 32 = 2^5: the 5 is log2 of a 32-lane warp.  On a
64-lane wave `n` goes up to 64, and a request between 33 and 63 rounds to 16 instead of 32 (Kokkos'
HIP team policy rounded vector lengths so until its wave-64 fix).

**Fix**: loop while the value is below the wave width (`while (p < warpSize)`), or take the step
count from log2 of a per-architecture wave constant.

Stays silent when what the doubled value is compared with does not read the wave width (a count of
items), and on a loop of another length."""
    languages = frozenset({"cuda", "hip"})
    flags = (
        ex("""
__host__ int round_length(int requested) {
    int n = requested < warpSize ? requested : warpSize;
    int p = 1;
    for (int i = 0; i < 5; i++) {  // !
        p = p << 1;
        if (p > n) break;
    }
    return p >> 1;
}""", lang="hip"),
    )
    passes = (
        ex("""
__host__ int round_length(int requested, int items) {
    int n = requested < items ? requested : items;
    int p = 1;
    for (int i = 0; i < 5; i++) {
        p = p << 1;
        if (p > n) break;
    }
    return p >> 1;
}""", lang="hip", note="compared with a count of items, not the wave"),
    )

    def check(self, ctx) -> None:
        if "5" not in ctx.src.text:
            return
        wave = None
        for loop in ctx.nodes("for_statement"):
            five = _five_steps(ctx, loop)
            body = loop.child_by_field_name("body")
            if five is None or body is None or ctx.side_of(loop) not in (None, guards.SIDE_AMD):
                continue  # NVIDIA's code (32 lanes) or one architecture's; the AMD build's is wave-wide too
            doubled = _doubled(ctx, body)
            if not doubled:
                continue
            fn = loop.parent
            while fn is not None and fn.type != "function_definition":
                fn = fn.parent
            if fn is None:
                continue
            wave = wave or _WaveWords(ctx)
            for cmp in walk(body):
                if cmp.type != "binary_expression" or _op(ctx, cmp) not in _ORDER:
                    continue
                left, right = _bare(cmp.child_by_field_name("left")), _bare(cmp.child_by_field_name("right"))
                if left is None or right is None:
                    continue
                other = right if ctx.text(left) in doubled else left if ctx.text(right) in doubled else None
                hit = _wave_read(ctx, wave, fn, other, loop.start_byte) if other is not None else None
                if hit is not None:
                    ctx.report(self, five, f"5 doublings reach at most 32 (log2 of a 32-lane warp), but the doubled "
                               f"value is compared with `{ctx.text(other)}`, which the wave width bounds: {ctx.breaks} "
                               f"a value between 33 and 63 rounds to 16; loop while it is below the wave width",
                               related=(ctx.related(cmp, "the comparison"),
                                        ctx.related(hit, "reads the wave width")))
                    break


def _five_steps(ctx, loop: Node) -> Node | None:
    """The literal of a counted loop that runs 5 times (`i = 0; i < 5; i++`), else None."""
    init, cond, update = (loop.child_by_field_name(k) for k in ("initializer", "condition", "update"))
    cond = _bare(cond)
    if init is None or cond is None or update is None or cond.type != "binary_expression":
        return None
    var = None
    for d in ctx.src.index.under_types(init, "init_declarator", "assignment_expression"):
        if d.type == "init_declarator" and int_value(ctx.text(d.child_by_field_name("value") or d)) == 0:
            var = ident_name(d.child_by_field_name("declarator"))
        elif d.type == "assignment_expression" and int_value(ctx.text(d.child_by_field_name("right") or d)) == 0:
            var = ctx.text(d.child_by_field_name("left") or d)
    left, right, op = _bare(cond.child_by_field_name("left")), _bare(cond.child_by_field_name("right")), _op(ctx, cond)
    if var is None or left is None or right is None or ctx.text(left) != var or \
            " ".join(ctx.text(update).split()) not in (f"{var}++", f"++{var}", f"{var} += 1"):
        return None
    n = int_value(ctx.text(right))
    return right if (op == "<" and n == 5) or (op == "<=" and n == 4) else None


def _doubled(ctx, body: Node) -> set[str]:
    """The names the loop body doubles (`p <<= 1`, `p = p << 1`, `p *= 2`, `p = 2 * p`, `p += p`)."""
    out = set()
    for d in ctx.src.index.under(body, "assignment_expression"):
        left, right, op = d.child_by_field_name("left"), _bare(d.child_by_field_name("right")), _op(ctx, d)
        if left is None or right is None or left.type != "identifier":
            continue
        x, r = ctx.text(left), " ".join(ctx.text(right).split())
        if (op == "<<=" and r == "1") or (op == "*=" and r == "2") or (op == "+=" and r == x) or \
                (op == "=" and r in (f"{x} << 1", f"{x} * 2", f"2 * {x}", f"{x} + {x}")):
            out.add(x)
    return out


def _wave_read(ctx, wave: _WaveWords, fn: Node, expr: Node, before: int, calls: bool = True) -> Node | None:
    """Where `expr` (or the value its local name last held) reads the wave width: the built-in or a
    macro of it, a name for the warp size that is not 32 here (`HIPTraits::WarpSize`), or a call of
    a function of this file that returns one."""
    found = _reads_wave(ctx, wave, fn, expr, before)
    if found is not None:
        return found[0]
    expr = _bare(expr)
    if expr is not None and expr.type == "identifier":
        expr = _value_at(ctx, fn, ctx.text(expr), before) or expr
    for d in walk(expr):
        if d.type in ("identifier", "field_identifier", "qualified_identifier") and \
                WARP_SIZE_NAME.search(ctx.text(d).split("::")[-1]) and ctx.text(d).split("::")[-1] not in ctx.hardcoded_macros:
            return d
        if calls and d.type == "call_expression":
            callee = d.child_by_field_name("function")
            name = ctx.text(callee).split("::")[-1] if callee is not None else ""
            for f in ctx.module.functions.values():
                if f.body is None or f.name.split("::")[-1] != name or f.params:
                    continue
                for r in walk(f.body):
                    if r.type == "return_statement" and r.named_children and \
                            _wave_read(ctx, wave, f.node, r.named_children[0], r.start_byte, calls=False) is not None:
                        return d
    return None
