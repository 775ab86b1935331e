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
the others as related locations.  A helper of this file that such a function calls runs in its groups
too (GROMACS's `reduceForceIAtomics`, whose shuffle ladder starts at `warpSize >> 1`), unless the call
is in a branch taken when the width fills the wave (`if constexpr (w == warpSize)`, `w == 64`).

Silent where the function never uses the width (a helper at the wave width), on the comparison of the
width itself with the wave (`c_subWarp<T> == warpSize`: the right test), where no code divides a thread
index by the name (a size compared with the wave is no group width), and in platform branches.  A name
is the width's too when it is defined as it (`constexpr int c_subWarp = sc_gpuParallelExecutionWidth(T)`,
either way round).
"""
from __future__ import annotations

from tree_sitter import Node

from .. import backends, dialect, fnscopes
from ..source import call_args, walk

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
    fns = [f for f in ctx.module.functions.values() if f.is_device and f.body is not None]
    if not any(ctx.src.named_under(f.body, "identifier", {wave}) for f in fns):
        return
    names = widths(ctx, wave)
    if not names:
        return
    # function key -> (function, the width's use that puts it in the groups, the call that does, or None)
    ctx_of: dict[str, tuple] = {}
    todo = []
    for f in fns:
        uses = [n for n in walk(f.body, lambda n: True) if n.type == "identifier" and ctx.text(n) in names]
        if uses:
            ctx_of[ctx.key(f)] = (f, uses[0], None)
            todo.append(f)
    while todo:  # a helper the function calls runs in its groups (not under a test that they fill the wave)
        f = todo.pop()
        use = ctx_of[ctx.key(f)][1]
        for g, call in _callees(ctx, f, names, wave):
            if ctx.key(g) not in ctx_of:
                ctx_of[ctx.key(g)] = (g, use, call)
                todo.append(g)
    for key in sorted(ctx_of, key=lambda k: ctx_of[k][0].node.start_byte):
        f, use, call = ctx_of[key]
        bad = [n for n in ctx.src.named_under(f.body, "identifier", {wave})
               if not ctx.guarded(n) and not _tests_the_width(ctx, n, names)]
        if not bad:
            continue
        width, line = ctx.text(use), ctx.where(use).split(":")[0]
        how = f"takes its groups from `{width}` (line {line})" if call is None else \
            f"runs in the groups of `{width}` (line {line}) of the call at line {ctx.where(call).split(':')[0]}"
        ctx.report(rule, bad[0], f"`{f.name}` {how}, a group width the code compares with `{wave}` and divides "
                   f"by, but reads `{wave}` here: {ctx.breaks}, a group of `{width}` may be narrower than the "
                   f"wave, and lanes, last lanes and tile sizes from the wave span two groups; use `{width}` "
                   f"throughout", related=tuple(ctx.related(n, f"`{wave}` read here too", site=True) for n in bad[1:8]))


def _callees(ctx, f, names: set[str], wave: str):
    """(function of this file, the call) for each call in f outside a branch taken when the width fills
    the wave (`if constexpr (w == warpSize)`, `w == 64`)."""
    sc = fnscopes.of(ctx.module)
    for n in ctx.src.index.under(f.body, "call_expression"):
        if _fills_the_wave(ctx, n, f.body, names, wave):
            continue
        for g in sc.resolve(f, n.child_by_field_name("function"), call_args(n)):
            if g.is_device and g.body is not None and g is not f:
                yield g, n


def _fills_the_wave(ctx, n: Node, body: Node, names: set[str], wave: str) -> bool:
    while n.parent is not None and n != body:
        p = n.parent
        branch = p.child_by_field_name("consequence")
        cond = p.child_by_field_name("condition")
        if p.type in ("if_statement", "conditional_expression") and branch is not None and cond is not None and \
                branch.start_byte <= n.start_byte < branch.end_byte:
            for b in [cond, *ctx.src.index.under(cond, "binary_expression")]:
                if b.type != "binary_expression" or ctx.text(b.child_by_field_name("operator")) != "==":
                    continue
                sides = (b.child_by_field_name("left"), b.child_by_field_name("right"))
                if any(_head(ctx.src, x) in names for x in sides) and any(
                        x is not None and (ctx.text(x) == wave or ctx.text(x) == "64") for x in sides):
                    return True
        n = p
    return False


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
