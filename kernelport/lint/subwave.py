"""The wave width read where a function's groups come from a narrower width the code names (WS016).

A project whose kernels lay data out in groups that may be narrower than the wave names that width
and says so in its code: it compares the name with the wave width (`if constexpr (c_subWarp<T> ==
warpSize)`) and divides thread indices by it (`widx = tidx / c_subWarp<T>`).  GROMACS's HIP non-bonded
kernels are the case (tests/labelled8): `c_subWarp<T> = sc_gpuParallelExecutionWidth(T)` is 32 for a
pairlist built for 32-lane warps, run on a 64-lane CDNA wave.  In a function that uses that width, a
read of the wave width is the other width: `tidx & (warpSize - 1)` numbers lanes to 63 where the groups
hold 32 (only the first group's lane 0 writes), `(tidx & (warpSize - 1)) == warpSize - 1` picks one
last lane for two groups, `c_clSizeSq<T> == warpSize` takes a 64-thread tile for one group and
scalarises the second group's mask with the first's.  It is WS016's mix of two widths in one function,
with the narrower one a name instead of a literal 32; reported once per function at the first read,
the others as related locations.

Silent where the function never uses the width (a helper at the wave width), on the comparison of the
width itself with the wave (`c_subWarp<T> == warpSize`: the right test), where no code divides a thread
index by the name (a size compared with the wave is no group width), and in platform branches.  A name
is the width's too when it is defined as it (`constexpr int c_subWarp = sc_gpuParallelExecutionWidth(T)`,
either way round).
"""
from __future__ import annotations

from tree_sitter import Node

from .. import backends, dialect
from ..source import walk

_EQ = ("==", "!=")
_DIV = ("/", "%")


def _head(src, n: Node | None) -> str | None:
    """The name an operand reads: `w`, `ns::w`, `w<T>`, `w(T)` all read w."""
    while n is not None and n.type == "parenthesized_expression":
        n = n.named_children[0] if n.named_children else None
    if n is not None and n.type == "call_expression":
        n = n.child_by_field_name("function")
    while n is not None and n.type in ("template_function", "qualified_identifier"):
        n = n.child_by_field_name("name")
    return src.text_of(n) if n is not None and n.type == "identifier" else None


def _sources(ctx):
    yield ctx.src
    vis = ctx.module.visible
    if vis is not None and vis.elsewhere is not None:
        for mod in vis.elsewhere.modules():
            yield mod.source


def widths(ctx, wave: str) -> set[str]:
    """The names the code treats as a group width narrower than (or equal to) the wave."""
    compared: set[str] = set()
    divisors: set[str] = set()
    aliases: list[tuple[str, str]] = []
    for src in _sources(ctx):
        for b in src.index.under(src.root, "binary_expression"):
            op = b.child_by_field_name("operator")
            op = src.text_of(op) if op is not None else ""
            left, right = b.child_by_field_name("left"), b.child_by_field_name("right")
            if op in _EQ:
                for this, other in ((left, right), (right, left)):
                    if other is not None and other.type == "identifier" and src.text_of(other) == wave:
                        name = _head(src, this)
                        if name is not None and name != wave:
                            compared.add(name)
            elif op in _DIV:
                name = _head(src, right)
                if name is not None:
                    divisors.add(name)
        for d in src.index.under(src.root, "init_declarator"):
            name, value = _head(src, d.child_by_field_name("declarator")), _head(src, d.child_by_field_name("value"))
            if name is not None and value is not None:
                aliases.append((name, value))
    out = compared & divisors
    for _ in range(4):  # `c_subWarp = sc_gpuParallelExecutionWidth(T)`: either name is the width
        grown = {b for a, b in aliases if a in out} | {a for a, b in aliases if b in out}
        if grown <= out:
            break
        out |= grown
    return out - {wave}


def check(rule, ctx) -> None:
    wave = dialect.concept("warp_size").name(backends.source().name)
    names: set[str] | None = None
    for f in ctx.module.functions.values():
        if not f.is_device or f.body is None:
            continue
        reads = [n for n in ctx.src.named_under(f.body, "identifier", {wave}) if not ctx.guarded(n)]
        if not reads:
            continue
        if names is None:
            names = widths(ctx, wave)
            if not names:
                return
        uses = [n for n in walk(f.body, lambda n: True) if n.type == "identifier" and ctx.text(n) in names]
        if not uses:
            continue
        group = {ctx.text(u) for u in uses}
        bad = [n for n in reads if not _tests_the_width(ctx, n, names)]
        if not bad:
            continue
        width = ctx.text(uses[0])
        ctx.report(rule, bad[0], f"`{f.name}` takes its groups from `{width}` (a group width: the code compares "
                   f"it with `{wave}` and divides by it) but reads `{wave}` here: {ctx.breaks}, a group of "
                   f"`{width}` may be narrower than the wave, and lanes, last lanes and tile sizes from the wave "
                   f"span two groups; use `{width}` throughout",
                   related=tuple(ctx.related(n, f"`{wave}` read here too") for n in bad[1:8]) +
                   (ctx.related(uses[0], f"the group width `{width}`" + (
                       f" (and {', '.join(sorted(group - {width}))})" if len(group) > 1 else "")),))


def _tests_the_width(ctx, n: Node, names: set[str]) -> bool:
    """`width == warpSize`: the comparison that decides whether a group fills the wave."""
    p = n.parent
    while p is not None and p.type == "parenthesized_expression":
        p = p.parent
    if p is None or p.type != "binary_expression":
        return False
    op = p.child_by_field_name("operator")
    if op is None or ctx.text(op) not in _EQ:
        return False
    other = p.child_by_field_name("left") if p.child_by_field_name("right") == n else p.child_by_field_name("right")
    return _head(ctx.src, other) in names
