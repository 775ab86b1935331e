"""A warp-size macro that is the launch's block extent, never a lane count (WS001 stays silent).

sliding-puzzle (heldout55) launches its search kernel with one "warp" per block and sizes the kernel's
stack from the same macro:

    #define WARP_SIZE 32
    __global__ void dfs_kernel(...) { ... index -= WARP_SIZE / 4; for (j = 0; j < WARP_SIZE; ++j) ... }
    dfs_kernel<<<blocks, WARP_SIZE>>>(...);

No use reaches a warp operation: the 32 is the block's thread count (its x extent), which a 64-wide wave
runs as one half-filled wave with the same result.  The macro is silent only when (1) a launch in the file
takes it as its block extent (`<<<g, W>>>`, `dim3(W, ...)`, or a local `dim3 b(W, ...)` passed as the block),
(2) every kernel those launches run is known here and not warp-level, and (3) no use of it is in warp-level
code (warpflow's warp_level: a shuffle, vote or their callers).  A kernel launched with it that shuffles, or a
use beside a shuffle anywhere, keeps the finding.
"""
from __future__ import annotations

from tree_sitter import Node

_DIM3 = ("dim3",)


def block_extent_only(ctx, name: str, uses: list[Node]) -> bool:
    """Whether the warp-size macro `name` (its uses `uses`) is the block extent of this file's launches and
    reaches no warp-level code (see the module's docstring)."""
    warp = ctx.warp_level
    if not uses or any(ctx.key(ctx.function_at(u)) in warp for u in uses):
        return False
    launches = [la for la in ctx.module.launches if len(la.config) >= 2 and _extent(ctx, la, name)]
    if not launches:
        return False
    for la in launches:
        runs = ctx.launched(la)
        if not runs or runs & warp:  # a kernel not defined here (unknown) or one that is warp-level
            return False
    return True


def _extent(ctx, launch, name: str) -> bool:
    """The launch's block argument has `name` as its x extent: `name`, `dim3(name, ...)`, or a local
    `dim3 b(name, ...)` / `dim3 b = dim3(name, ...)` of the launching function."""
    block = _bare(launch.config[1])
    if block is None:
        return False
    if block.type == "identifier" and ctx.text(block) == name:
        return True
    if _dim3_first(ctx, block) == name:
        return True
    if block.type != "identifier":
        return False
    f = ctx.function_at(launch.node)
    if f is None or f.body is None:
        return False
    var, found = ctx.text(block), []
    for d in ctx.src.index.under(f.body, "declaration"):
        t = d.child_by_field_name("type")
        if t is None or ctx.text(t) not in _DIM3:
            continue
        for decl in d.children_by_field_name("declarator"):
            if decl.type == "init_declarator" and ctx.text(decl.child_by_field_name("declarator")) == var:
                found.append(decl)
    if len(found) != 1:
        return False  # declared twice (shadowed) or not here: not followed
    value = found[0].child_by_field_name("value")
    if value is not None and value.type == "argument_list":  # dim3 b(name, ...)
        args = value.named_children
        return bool(args) and _bare_text(ctx, args[0]) == name
    return _dim3_first(ctx, _bare(value)) == name


def _dim3_first(ctx, n: Node | None) -> str | None:
    """The first argument's text of `dim3(...)`, else None."""
    if n is None or n.type != "call_expression":
        return None
    fn, args = n.child_by_field_name("function"), n.child_by_field_name("arguments")
    if fn is None or args is None or ctx.text(fn) not in _DIM3 or not args.named_children:
        return None
    return _bare_text(ctx, args.named_children[0])


def _bare(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    return n


def _bare_text(ctx, n: Node | None) -> str | None:
    n = _bare(n)
    return ctx.text(n) if n is not None else None
