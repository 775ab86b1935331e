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

`below32` proves a count is in 0..31 where no 32 of its own is a hazard lint flags apart: a literal
below 32; `x & c` / `x % d` with c, d below 16 (a literal or a never-assigned local constant); a 31 or 32
only inside a wave branch compiled at 64 lanes (the author's half of a wave: `lane & 31` under
`#if WS == 64`), since elsewhere it is the `% 32` that WS002 flags and whose fix (the wave width) would
make the shift overflow (tests/test_lint_unsafe_fixes.py); `x % NAME` with NAME a macro only inside
NAME's own branch compiled at 32 lanes (the #else of `WS == 64`), with NAME's values known: this
file's definitions or, in a header that does not define it, every includer of the run
(kernelport.lint.includervalues; a per-wave value is 32 there).  A local is followed through every
declaration of it in the function (never assigned, no parameter).  Anything else (a header linted
alone, an includer with an unknown value, a `tid % WS` outside the branch) is not proven: the finding
stays.  The 32-bit mask it is combined with is not this rule's business (WS007/WS008 flag it).
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
            return any(s is not None and _fits(ctx, _strip(s), fn, chain + [n], 31) for s in (left, right))
        if op == "%" and right is not None:
            return _fits(ctx, _strip(right), fn, chain + [n], 32)
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


def _fits(ctx, n: Node, fn: Node, chain: list[Node], top: int) -> bool:
    """`n` (a mask: top 31, a divisor: top 32) keeps the count below 32 where the count's 32 is no hazard
    of its own: a value below 16 anywhere; 31 / 32 (a literal, a local constant) only inside a wave branch
    compiled at 64 lanes (`#if WS == 64 ... lane & 31`: the author's half of a wave; elsewhere it is the
    `% 32` WS002 flags, whose fix to the wave width would make the shift overflow); a macro only inside
    its own branch compiled at 32 lanes, its values known (`_macro`)."""
    low = 0 if top == 31 else 1
    if n.type == "number_literal" or (n.type == "identifier" and _locals(ctx, fn, ctx.text(n))):
        v = warpflow.int_value(ctx.text(n)) if n.type == "number_literal" else \
            _local_value(ctx, fn, ctx.text(n))
        if v is None or not low <= v <= top:
            return False
        return v < 16 or _in_branch(ctx, chain, None, 64)
    if n.type == "identifier":
        v = _macro(ctx, ctx.text(n), chain)
        return v is not None and low <= v <= top
    return False


def _local_value(ctx, fn: Node, name: str) -> int | None:
    vals = [warpflow.int_value(ctx.text(_strip(v))) for _, v in _locals(ctx, fn, name) or ()]
    return None if not vals or None in vals else max(vals)


def _in_branch(ctx, chain: list[Node], name: str | None, width: int) -> bool:
    """A node of the chain inside a wave branch (on `name`, or on any selector of the file) compiled at
    `width` lanes."""
    sel = name.__eq__ if name is not None else ctx._wave_macro_names.__contains__
    return any((b := wavebranches.enclosing(c, ctx.text, sel)) is not None and b.width == width for c in chain)


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
    if None in kinds or not _in_branch(ctx, chain, name, 32):
        return None  # (outside its 32-lane branch a 32 is WS001's: fixed to the wave, the count reaches 63)
    vals = {32 if k == "wave" else k for k in kinds} - {64}  # (an includer's 64 does not compile the branch)
    return max(vals) if vals and all(isinstance(v, int) for v in vals) else None
