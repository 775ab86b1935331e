"""A warp-size name that only bounds an xor-shuffle ladder from above (WS001 stays silent).

bitonic-georrous6 (heldout60) sorts a block's steps of 32 and wider through shared memory and hands the
rest to an xor butterfly:

    for (; step >= WARP_SIZE; step >>= 1) { ...shared-memory compare-and-swap...; __syncthreads(); }
    for (; step > 0; step >>= 1) { partner = __shfl_xor_sync(FULL, v, step); ... }

The 32 only guarantees that the butterfly's distances are below 32: lane ^ step then stays in the lane's
aligned row of 32, which lies inside one 64-lane wave as well, so every lane reads the partner it reads on a
32-lane warp (a `__shfl_down` by the same distance would not: it crosses rows at 64).  With the wave's width
instead (translate's rewrite) the steps of 32 move to the butterfly, which is right too.  The use is silent
only when (1) it is `V >= NAME` as a `for` loop's condition whose update halves V (`V >>= 1`, `V /= 2`), and
(2) after that loop, in its enclosing block, V is assigned only by halving updates, every shuffle or vote that
reads V takes it as an xor shuffle's lane mask with no width argument, at least one does, and V (or a local
computed from it) never indexes memory or leaves through another call: the distance below 32 is all the
threshold means.
"""
from __future__ import annotations

from tree_sitter import Node

from .. import backends, dialect
from ..source import call_args

_HALVING = ("V>>=1", "V/=2", "V=V>>1", "V=V/2")
_ARITH = ("parenthesized_expression", "binary_expression", "unary_expression", "conditional_expression")
_TESTS = ("<", ">", "<=", ">=", "==", "!=", "&&", "||")


def bounds_xor_ladder(ctx, use: Node) -> bool:
    """Whether this use of a warp-size name only bounds an xor-shuffle ladder (the module's docstring)."""
    cond = _bare_up(use)
    if cond is None or cond.type != "binary_expression" or ctx.text(cond.child_by_field_name("operator")) != ">=":
        return False
    left = _bare(cond.child_by_field_name("left"))
    if left is None or left.type != "identifier" or _bare(cond.child_by_field_name("right")) != use:
        return False
    loop = cond.parent
    if loop is None or loop.type != "for_statement" or loop.child_by_field_name("condition") != cond:
        return False
    var = ctx.text(left)
    if not _halves(ctx, loop.child_by_field_name("update"), var):
        return False
    block = loop.parent
    if block is None or block.type != "compound_statement":
        return False
    after = [s for s in block.named_children if s.start_byte >= loop.end_byte]
    return _only_xor_distance(ctx, after, var)


def _only_xor_distance(ctx, stmts: list[Node], var: str) -> bool:
    """`var` read in `stmts` only as an xor shuffle's lane mask (at least once) or in arithmetic that indexes
    no memory and reaches no other call; locals computed from it obey the same."""
    names, xors, seen = {var}, 0, set()
    source = backends.source().name
    while True:
        grew = False
        for s in stmts:
            for n in _descendants(s):
                if n.type != "identifier" or ctx.text(n) not in names or n.id in seen:
                    continue
                seen.add(n.id)
                verdict = _role(ctx, n, source)
                if verdict is None:
                    return False
                if verdict == "xor":
                    xors += 1
                elif verdict != "ok" and verdict not in names:  # a local computed from it
                    names.add(verdict)
                    grew = True
        if not grew:
            return xors > 0


def _role(ctx, n: Node, source: str) -> str | None:
    """'xor' (the lane mask of a width-less xor shuffle), 'ok' (a test: a comparison's 0 or 1, a loop or
    branch condition, or a halving update), a new local's name (declared from it), or None (anything else)."""
    p, child = n.parent, n
    while p is not None and p.type in _ARITH:
        if p.type == "binary_expression" and ctx.text(p.child_by_field_name("operator")) in _TESTS:
            return "ok"
        child, p = p, p.parent
    if p is None:
        return None
    if p.type == "argument_list":
        call = p.parent
        fn = call.child_by_field_name("function") if call is not None else None
        spelled = dialect.spelled_by(source, ctx.text(fn)) if fn is not None else None
        if spelled is None or spelled[0].key != "shfl_xor" or child != n:
            return None  # legacy `__shfl_xor(v, d)` binds as the backend that spells it canonically
        bound = dialect.bind(*spelled, [ctx.text(a) for a in call_args(call)])
        return "xor" if bound and bound.get("lanemask") == ctx.text(n) and bound.get("width") is None else None
    if p.type == "init_declarator" and child == n == p.child_by_field_name("declarator"):
        return "ok"  # the local's own declaration
    if p.type == "init_declarator" and child == p.child_by_field_name("value"):
        d = p.child_by_field_name("declarator")
        return ctx.text(d) if d is not None and d.type == "identifier" else None
    if p.type == "assignment_expression" and child == n and child == p.child_by_field_name("left"):
        return "ok" if _halves(ctx, p, ctx.text(n)) else None
    return "ok" if p.type in ("condition_clause", "for_statement") else None


def _halves(ctx, n: Node | None, var: str) -> bool:
    """`n` is `var >>= 1`, `var /= 2`, `var = var >> 1` or `var = var / 2`."""
    return n is not None and "".join(ctx.text(n).split()).replace(var, "V") in _HALVING


def _descendants(n: Node):
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(x.named_children)


def _bare(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    return n


def _bare_up(n: Node) -> Node | None:
    p = n.parent
    while p is not None and p.type == "parenthesized_expression":
        p = p.parent
    return p
