"""Shift counts below 32 by construction (WS010's look-alike, heldout22's LC framework).

`1 << sublane` is a 32-bit lane bit; WS010 flags it because lanes 32-63 of a 64-wide wave shift past
the end.  FPcompress's and PFPL's headers build it from a count that never reaches 32:

    const int lane = tid % WS;          // WS: 32 at every includer, or per wave
    #if defined(WS) && (WS == 64)
      const int sublane = lane & 31;    // the author's half of a 64-wide wave
    #else
      const int sublane = lane;         // compiled only where WS is not 64
    #endif
    ... __popc(bm & ((1 << sublane) - 1)) ...

`below32` proves a count is in 0..31: a literal below 32, `x & c` with c <= 31, `x % d` with d a
literal or a known value of at most 32, or a local that is never assigned and whose every declaration
in the function is such a value.  A macro divisor is known from this file's definitions or, in a
header that does not define it, from every includer of the run (kernelport.lint.includervalues); a
value per wave (64 on a 64-wide wave) counts as 32 only where the chain sits in that macro's wave
branch compiled at 32 lanes.  Anything else (a parameter, an assigned local, a header linted alone, an
includer with another value) is not proven: the finding stays.  The 32-bit mask it is combined with is
not this rule's business (WS007/WS008 flag it).
"""
from __future__ import annotations

from pathlib import Path

from tree_sitter import Node

from .. import wavebranches, warpflow
from ..source import ident_name

_DEPTH = 4


def below32(ctx, n: Node | None) -> bool:
    fn = n
    while fn is not None and fn.type != "function_definition":
        fn = fn.parent
    return n is not None and fn is not None and _below(ctx, n, fn, [n], 0)


def _strip(n: Node) -> Node:
    while n.type in ("parenthesized_expression", "cast_expression") and n.named_children:
        n = n.child_by_field_name("value") if n.type == "cast_expression" else n.named_children[0]
    return n


def _below(ctx, n: Node, fn: Node, chain: list[Node], depth: int) -> bool:
    n = _strip(n)
    if n.type == "number_literal":
        v = warpflow.int_value(ctx.text(n))
        return v is not None and 0 <= v < 32
    if n.type == "binary_expression":
        op = ctx.text(n.child_by_field_name("operator"))
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        if op == "&":
            return any(s is not None and _value(ctx, _strip(s), fn, chain + [n]) in range(0, 32) for s in (left, right))
        if op == "%" and right is not None:
            return _value(ctx, _strip(right), fn, chain + [n]) in range(1, 33)
        return False
    if n.type == "identifier" and depth < _DEPTH:
        decls = _locals(ctx, fn, ctx.text(n))
        return bool(decls) and all(_below(ctx, v, fn, chain + [d], depth + 1) for d, v in decls)
    return False


def _locals(ctx, fn: Node, name: str) -> list[tuple[Node, Node]] | None:
    """(declarator, value) of every declaration of `name` in `fn`; [] where one has no value, the
    function assigns it, or it is a parameter."""
    out = []
    for d in ctx.src.index.under(fn, "init_declarator"):
        dn = d.child_by_field_name("declarator")
        if dn is not None and ctx.text(dn) == name:
            v = d.child_by_field_name("value")
            if v is None:
                return []
            out.append((d, v))
    for t in ("assignment_expression", "update_expression"):
        for a in ctx.src.index.under(fn, t):
            target = a.child_by_field_name("left") or a.child_by_field_name("argument")
            if target is not None and ctx.text(target) == name:
                return []
    decl = fn.child_by_field_name("declarator")
    for p in ctx.src.index.under(decl, "parameter_declaration") if decl is not None else ():
        pd = p.child_by_field_name("declarator")
        if pd is not None and ident_name(pd) == name:
            return []
    return out


def _value(ctx, n: Node, fn: Node, chain: list[Node]) -> int | None:
    """The largest value `n` takes (a literal, a local constant, a macro known here), or None."""
    if n.type == "number_literal":
        return warpflow.int_value(ctx.text(n))
    if n.type != "identifier":
        return None
    name = ctx.text(n)
    decls = _locals(ctx, fn, name)
    if decls:
        vals = [warpflow.int_value(ctx.text(_strip(v))) for _, v in decls]
        return None if None in vals else max(vals)
    return _macro(ctx, name, chain)


def _macro(ctx, name: str, chain: list[Node]) -> int | None:
    from . import includervalues
    from .units import project
    from .wavebounds import _defines_per_wave, _defs
    if _defs(ctx.src, name):
        kinds = {"wave"} if _defines_per_wave(ctx.src, name) else \
            {warpflow.int_value(ctx.text(d.child_by_field_name("value")).strip().strip("()"))
             if d.child_by_field_name("value") is not None else None for d in _defs(ctx.src, name)}
    elif Path(str(ctx.path)).suffix in includervalues._HEADERS:
        kinds = includervalues.kinds(project(), Path(str(ctx.path)), name) or {None}
    else:
        return None
    if "wave" in kinds:
        at32 = any((b := wavebranches.enclosing(c, ctx.text, name.__eq__)) is not None and b.width == 32 for c in chain)
        kinds = (kinds - {"wave"}) | {32 if at32 else 64}
    return None if None in kinds or not all(isinstance(k, int) for k in kinds) else max(kinds)
