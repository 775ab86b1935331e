"""WS rule on a block's tile sized for 32 lanes while its lane index spans the wave.

HeCBench's vadd (tests/labelled11) takes a tile of `TILE_N = 256` columns per block (`blk_col =
blockIdx.x * TILE_N`) and gives each lane `VALS_N = 8` of them (`col = blk_col + lane_id * VALS_N`),
with `lane_id = threadIdx.x % WarpSize` and `WarpSize` 64 on GFX9: 256 is 32 lanes x 8, so on a
64-lane wave lanes 32-63 write the next block's columns (and past the matrix in the last block).  The
tile's width is a lane count in disguise: the block's stride `T` and the lane's stride `V` are two
constants with `T == 32 * V`, added into one index whose lane spans the hardware wave.
"""
from __future__ import annotations

from tree_sitter import Node

from ... import backends, dialect, guards, headerconsts
from ...source import walk
from ...warpsites import int_value
from ..rule import Rule, ex, register
from .ws_lanemasks import _WaveWords


@register
class TileOf32Lanes(Rule):
    code, name = "WS029", "block-tile-of-32-lanes"
    summary = "A block's tile is 32 lanes wide while the lane that indexes it spans the wave."
    docs = """\
`col = blockIdx.x * TILE_N + lane * VALS_N` with `TILE_N = 256` and `VALS_N = 8`: each block owns
`TILE_N` elements and each lane `VALS_N` of them, so the tile holds `TILE_N / VALS_N` = 32 lanes'
worth.  When the lane is the hardware lane (`threadIdx.x % warpSize`, or a per-architecture wave
constant that is 64 on CDNA), lanes 32-63 of a 64-lane wave index past the block's tile: into the
next block's elements, and past the end of the data in the last block.

**Fix**: size the tile from the wave (`wave width * VALS_N`, a per-architecture constant where a
constant expression is needed), or take the lane modulo 32 if the layout is meant for 32 lanes.

Stays silent on a lane taken modulo 32 (a logical 32-lane group: the tile is its width), on a
tile that is a multiple of 64 lanes' strides, and on an index whose other term is a warp index (rows
of warps), not a lane."""
    languages = frozenset({"cuda", "hip"})
    flags = (
        ex("""
static constexpr int TILE_N = 256;  // !
static constexpr int VALS_N = 8;
__global__ void add(const float* a, float* c) {
    int lane = threadIdx.x % warpSize;
    int col = blockIdx.x * TILE_N + lane * VALS_N;
    for (int i = 0; i < VALS_N; i++) c[col + i] = a[col + i];
}"""),
    )
    passes = (
        ex("""
static constexpr int TILE_N = 256;
static constexpr int VALS_N = 8;
__global__ void add(const float* a, float* c) {
    int lane = threadIdx.x % 32;
    int col = blockIdx.x * TILE_N + lane * VALS_N;
    for (int i = 0; i < VALS_N; i++) c[col + i] = a[col + i];
}""", note="a 32-lane group: the tile is its width"),
        ex("""
static constexpr int TILE_M = 16;
static constexpr int VALS_M = 4;
__global__ void add(const float* a, float* c) {
    int warp = threadIdx.x / warpSize;
    int row = blockIdx.y * TILE_M + warp * VALS_M;
    c[row] = a[row];
}""", note="rows per warp: a warp index, not a lane"),
    )

    def check(self, ctx) -> None:
        if "blockIdx" not in ctx.src.text and dialect.concept("block_idx").name(backends.source().name) \
                not in ctx.src.text:
            return
        consts = _constants(ctx)
        wave = _wave_names(ctx)
        for f in ctx.module.functions.values():
            if f.body is None:
                continue
            lanes = _wave_lanes(ctx, f.body, wave)
            if not lanes:
                continue
            held = _held(ctx, f.body)
            for plus in ctx.src.index.under(f.body, "binary_expression"):
                if _op(plus) != "+":
                    continue
                terms = [t for c in (plus.child_by_field_name("left"), plus.child_by_field_name("right"))
                         for t in _terms(ctx, c, held)]
                tiles = [(c, v) for t in terms for c, v in [_scaled(ctx, t, _is_block, consts)] if c is not None]
                strides = [(c, v) for t in terms for c, v in [_scaled(ctx, t, lambda n: _text(ctx, n) in lanes,
                                                                         consts)] if c is not None]
                for tile, t in tiles:
                    for stride, v in strides:
                        if v > 0 and t == 32 * v and not ctx.guarded(plus):
                            self._report(ctx, tile, t, stride, v, plus, consts)
                            break

    def _report(self, ctx, tile: Node, t: int, stride: Node, v: int, at: Node, consts) -> None:
        name = _text(ctx, tile)
        d = consts.get(name, (0, None))[1]
        where = d if d is not None and d.start_byte != tile.start_byte else None
        key = (where or tile).start_byte
        done = ctx.__dict__.setdefault("_ws029_done", set())
        if key in done:
            return
        done.add(key)
        related = (ctx.related(at, f"the index adds a lane's stride of {v} to the block's tile of {t}"),)
        if where is not None:
            related += (ctx.related(tile, f"`{name}` is the block's stride here"),)
        ctx.report(self, where or tile,
                   f"`{name}` ({t}) is 32 lanes x {_text(ctx, stride)} ({v}): each block's tile holds 32 lanes' "
                   f"elements, but the lane that indexes it spans the wave, so {ctx.breaks} lanes 32-63 index past "
                   f"the block's tile (into the next block's, and past the data in the last); size it as the "
                   f"wave width x {v}", related=related)


def _text(ctx, n: Node) -> str:
    return " ".join(ctx.text(n).split())


def _op(n: Node) -> str:
    o = n.child_by_field_name("operator")
    return o.type if o is not None else ""


def _bare(n: Node | None) -> Node | None:
    while n is not None and n.type in ("parenthesized_expression", "cast_expression"):
        n = n.child_by_field_name("value") if n.type == "cast_expression" else \
            (n.named_children[0] if n.named_child_count == 1 else None)
    return n


def _constants(ctx) -> dict[str, tuple[int, Node | None]]:
    """Integer constants visible here by name -> (value, its literal where this file defines it): this
    file's `const`/`constexpr` ones and macros of one literal, and its headers' (kernelport.headerconsts)."""
    out: dict[str, tuple[int, Node | None]] = {}
    for name, c in headerconsts.constants(ctx.src).items():
        v = int_value(c.value.strip())
        if v is not None:
            out[name] = (v, c.value_node)
    for name, m in ctx.module.macros.items():
        v = int_value(m.value.strip()) if m.value_node is not None else None
        if v is not None:
            out.setdefault(name, (v, m.value_node))
    vis = ctx.module.visible
    for name, c in (vis.constants.items() if vis is not None else ()):
        v = int_value(c.value.strip())
        if v is not None:
            out.setdefault(name, (v, None))
    return out


def _value(ctx, n: Node, consts) -> int | None:
    n = _bare(n)
    if n is None:
        return None
    if n.type == "number_literal":
        return int_value(ctx.text(n))
    if n.type == "identifier" and ctx.text(n) in consts:
        return consts[ctx.text(n)][0]
    return None


def _wave_names(ctx) -> set[str]:
    """Names that read the wave width: the built-in and macros of it (_WaveWords), and a macro that
    is 64 in an AMD or architecture branch (`#if defined(__GFX9__)` `#define WarpSize 64` `#else` 32)."""
    names = set(_WaveWords(ctx).names)
    for d in ctx.nodes("preproc_def"):
        n, v = d.child_by_field_name("name"), d.child_by_field_name("value")
        if n is not None and v is not None and int_value(ctx.text(v).strip()) == 64 and \
                ctx.side_of(d) in (guards.SIDE_ARCH, guards.SIDE_AMD):
            names.add(ctx.text(n))
    return names


def _wave_lanes(ctx, body: Node, wave: set[str]) -> set[str]:
    """Locals holding the hardware lane: `x % W` or `x & (W - 1)` of the thread index, W the wave."""
    thread = dialect.concept("thread_idx").name(backends.source().name) or "threadIdx"
    out = set()
    for d in ctx.src.index.under(body, "init_declarator"):
        v, n = _bare(d.child_by_field_name("value")), d.child_by_field_name("declarator")
        if v is None or n is None or n.type != "identifier" or v.type != "binary_expression":
            continue
        left, right = _bare(v.child_by_field_name("left")), _bare(v.child_by_field_name("right"))
        if left is None or right is None or thread not in ctx.text(left):
            continue
        if _op(v) == "&" and right.type == "binary_expression" and _op(right) == "-":
            right = _bare(right.child_by_field_name("left"))
        elif _op(v) != "%":
            continue
        if right is not None and right.type == "identifier" and ctx.text(right) in wave:
            out.add(ctx.text(n))
    return out


def _held(ctx, body: Node) -> dict[str, Node]:
    """Locals initialised once in the function -> their value (a second assignment forgets them)."""
    out: dict[str, Node] = {}
    twice: set[str] = set()
    for d in walk(body):
        if d.type == "init_declarator":
            n, v = d.child_by_field_name("declarator"), d.child_by_field_name("value")
            if n is not None and n.type == "identifier" and v is not None:
                if ctx.text(n) in out:
                    twice.add(ctx.text(n))
                out[ctx.text(n)] = v
        elif d.type == "assignment_expression":
            left = d.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                twice.add(ctx.text(left))
    return {k: v for k, v in out.items() if k not in twice}


def _terms(ctx, n: Node | None, held: dict[str, Node], depth: int = 0) -> list[Node]:
    """The added terms of `n`, through locals initialised once (`blk_col + lane * V` -> its terms)."""
    n = _bare(n)
    if n is None or depth > 3:
        return []
    if n.type == "binary_expression" and _op(n) == "+":
        return _terms(ctx, n.child_by_field_name("left"), held, depth + 1) + \
            _terms(ctx, n.child_by_field_name("right"), held, depth + 1)
    if n.type == "identifier" and ctx.text(n) in held:
        return _terms(ctx, held[ctx.text(n)], held, depth + 1)
    return [n]


def _is_block(n: Node) -> bool:
    """`blockIdx.x` (any dimension)."""
    return n.type == "field_expression" and n.child_by_field_name("argument") is not None and \
        n.child_by_field_name("argument").text.decode() == "blockIdx"


def _scaled(ctx, t: Node, is_index, consts) -> tuple[Node | None, int]:
    """(the constant, its value) of a term `i * K` or `K * i` where `is_index(i)`; (None, 0) otherwise."""
    t = _bare(t)
    if t is None or t.type != "binary_expression" or _op(t) != "*":
        return None, 0
    a, b = _bare(t.child_by_field_name("left")), _bare(t.child_by_field_name("right"))
    for i, k in ((a, b), (b, a)):
        if i is not None and k is not None and is_index(i):
            v = _value(ctx, k, consts)
            if v is not None:
                return k, v
    return None, 0
