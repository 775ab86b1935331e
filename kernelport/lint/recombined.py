"""Uses of a warp-size constant that its value cannot change: `q * C + r` where the function sets
`q = x / C` and `r = x % C` (or `x & (C - 1)`) from the same `x`, once each, so the sum is `x`
whatever `C` is (ExLlamaV2's norm kernels: `column = warp_id * WARP_SIZE + lane_id + NUM_THREADS * i`
is `threadIdx.x + NUM_THREADS * i`).  WS001 names a constant's uses as the lines that assume 32
lanes; these do not, whatever its value."""
from __future__ import annotations

import re

from tree_sitter import Node

from ..source import walk

_ASSIGNS = ("assignment_expression", "update_expression")


def dependent_uses(ctx, uses: list[Node], name: str) -> list[Node]:
    """`uses` without the ones whose value does not depend on the constant `name`."""
    return [u for u in uses if not recombines(ctx, u, name)]


def recombines(ctx, use: Node, name: str) -> bool:
    """`use` is a `C` of `q * C + r`, q = x / C and r = x % C (or x & (C - 1), a local or written in
    place), one x that holds no C and that the function never assigns."""
    f, total, n = ctx.function_at(use), None, use
    for _ in range(6):  # up through `*`, `%`, `&`, `-` and parentheses to the sum
        p = n.parent
        if _binary(ctx, p, "+"):
            total = p
            break
        if p is None or p.type not in ("binary_expression", "parenthesized_expression"):
            return False
        n = p
    if f is None or total is None:
        return False
    a, b = _inner(total.child_by_field_name("left")), _inner(total.child_by_field_name("right"))
    for prod, rest in ((a, b), (b, a)):
        if not _binary(ctx, prod, "*"):
            continue
        q, c = _inner(prod.child_by_field_name("left")), _inner(prod.child_by_field_name("right"))
        if _compact(ctx, q) == name:
            q, c = c, q
        if q is None or q.type != "identifier" or _compact(ctx, c) != name:
            continue
        x = _single_init(ctx, f.body, ctx.text(q), name, ("/",))
        if x is not None and x == _remainder_of(ctx, f.body, rest, name) and name not in _names(x) \
                and not _assigned(ctx, f.body, x):
            return True
    return False


def _remainder_of(ctx, body: Node, r: Node | None, name: str) -> str | None:
    """The x of a remainder by C: a local set once to `x % C` / `x & (C - 1)`, or that expression."""
    if r is not None and r.type == "identifier":
        return _single_init(ctx, body, ctx.text(r), name, ("%", "&"))
    return _operand_of(ctx, r, name, ("%", "&"))


def _single_init(ctx, body: Node, var: str, name: str, ops: tuple[str, ...]) -> str | None:
    """The x of `var`'s only definition `var = x OP C` in `body` (`&` with `C - 1`), never assigned again."""
    inits = [d for d in _walk(body, "init_declarator")
             if (n := d.child_by_field_name("declarator")) is not None and ctx.text(n) == var]
    if len(inits) != 1 or _assigned(ctx, body, var):
        return None
    return _operand_of(ctx, inits[0].child_by_field_name("value"), name, ops)


def _operand_of(ctx, v: Node | None, name: str, ops: tuple[str, ...]) -> str | None:
    """x of `x OP C` (`x & (C - 1)` for `&`)."""
    v = _inner(v)
    if not any(_binary(ctx, v, op) for op in ops):
        return None
    right = _compact(ctx, _inner(v.child_by_field_name("right")))
    if right != (f"{name}-1" if _binary(ctx, v, "&") else name):
        return None
    return _compact(ctx, _inner(v.child_by_field_name("left")))


def _assigned(ctx, body: Node, text: str) -> bool:
    for a in _walk(body, *_ASSIGNS):
        target = a.child_by_field_name("left") or a.child_by_field_name("argument")
        if target is not None and _compact(ctx, target) == text:
            return True
    return False


def _binary(ctx, n: Node | None, op: str) -> bool:
    o = n.child_by_field_name("operator") if n is not None and n.type == "binary_expression" else None
    return o is not None and ctx.text(o) == op


def _names(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_]\w*", text))


def _inner(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n


def _compact(ctx, n: Node | None) -> str | None:
    return None if n is None else "".join(ctx.text(n).split())


def _walk(root: Node, *types: str):
    return (n for n in walk(root) if n.type in types)
