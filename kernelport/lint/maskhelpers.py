"""Helpers whose return value their callers use as a lane mask (tests/labelled9: sphexa's
`lanemask_lt()`, called as `__popc(ballot & lanemask_lt())`).

A device function of the file is a mask helper when a call of it is an operand of `&`, `|` or `^`
whose other operand holds a vote: a ballot call, a wrapper of the file that returns one
(`ballotSync(p)`), or a local initialised or assigned from either.  What it returns is then a lane
mask of the whole wave, and on a 64-lane wave:

- a 32-bit return type (`int`, `unsigned`, `uint32_t`) drops lanes 32-63: WS008, at the type;
- a lane bit shifted from a 32-bit literal in what it returns (`(1 << lane) - 1`, `2 << lane`) loses
  the lanes past 31 (and the shift is undefined there): WS010, at the shift.

A helper whose calls meet only data (`bits & mask_of(i)` with `bits` a plain word) stays silent.
"""
from __future__ import annotations

from tree_sitter import Node

from .. import warpflow
from ..source import ident_name, walk

_INT32 = frozenset({"int", "unsigned", "unsigned int", "signed", "signed int", "uint32_t", "int32_t", "uint"})
_BITWISE = frozenset({"&", "|", "^"})


def sites(ctx) -> list[tuple[str, Node, str]]:
    """(code, node, message) of each finding, computed once per file."""
    cached = ctx.__dict__.get("_mask_helper_sites")
    if cached is None:
        cached = ctx.__dict__["_mask_helper_sites"] = list(_find(ctx))
    return cached


def _find(ctx):
    fns = {f.name: f for f in ctx.module.functions.values() if f.is_device and f.body is not None}
    wrappers = {n for n, f in fns.items() if any(_vote(ctx, c) for c in _returned_calls(ctx, f))}
    helpers: dict[str, Node] = {}  # helper -> the first caller expression that uses it as a mask
    for f in fns.values():
        masks = _mask_names(ctx, f, wrappers)
        for call, name in ctx.calls(f.body):
            if name not in fns or name in wrappers or name in helpers:
                continue
            p = call.parent
            while p is not None and p.type == "parenthesized_expression":
                p = p.parent
            if p is None or p.type != "binary_expression" or ctx.text(p.child_by_field_name("operator")) not in _BITWISE:
                continue
            other = p.child_by_field_name("left") if p.child_by_field_name("right") == call or \
                _inside(call, p.child_by_field_name("right")) else p.child_by_field_name("right")
            if other is not None and _holds_vote(ctx, other, masks, wrappers):
                helpers[name] = p
    for name, use in helpers.items():
        f = fns[name]
        line = ctx.position(use.start_byte)[0]
        rtype = f.node.child_by_field_name("type")
        if rtype is not None and " ".join(ctx.text(rtype).split()) in _INT32:
            yield ("WS008", rtype, f"`{name}` returns a lane mask (its callers combine it with a ballot, line {line}) "
                   f"in the 32-bit type `{ctx.text(rtype)}`: {ctx.breaks}, lanes 32-63 are dropped; return "
                   f"`unsigned long long` (or `auto`)")
        for r in ctx.src.index.under(f.body, "return_statement"):
            for b in walk(r):
                if b.type == "binary_expression" and ctx.text(b.child_by_field_name("operator")) == "<<":
                    left = b.child_by_field_name("left")
                    if left is not None and left.type == "number_literal" and \
                            warpflow.int_value(ctx.text(left)) is not None and "ll" not in ctx.text(left).lower():
                        yield ("WS010", b, f"`{ctx.text(b)}` builds a lane bit of the mask `{name}` returns (its callers "
                               f"combine it with a ballot, line {line}) in 32 bits: {ctx.breaks}, lanes 32-63 shift "
                               f"out; shift a 64-bit one (`1ull << lane`)")


def _returned_calls(ctx, f):
    for r in ctx.src.index.under(f.body, "return_statement"):
        yield from ctx.src.index.under(r, "call_expression")


def _vote(ctx, call: Node) -> bool:
    found = ctx.concept_of_call(call)
    return found is not None and found[0].key in ("ballot", "activemask")


def _calls_vote(ctx, node: Node, wrappers: set[str]) -> bool:
    for c in ctx.src.index.under(node, "call_expression"):  # (the index's kind group, not a walk of every node)
        fn = c.child_by_field_name("function")
        if _vote(ctx, c) or (fn is not None and ctx.text(fn) in wrappers):
            return True
    return False


def _mask_names(ctx, f, wrappers: set[str]) -> set[str]:
    """Locals of `f` given a vote (`unsigned b = __ballot_sync(m, p);`, `b = ballotSync(p);`)."""
    out: set[str] = set()
    for d in ctx.src.index.under(f.body, "init_declarator"):
        v = d.child_by_field_name("value")
        if v is not None and _calls_vote(ctx, v, wrappers):
            name = ident_name(d.child_by_field_name("declarator"))
            if name:
                out.add(name)
    for a in ctx.src.index.under(f.body, "assignment_expression"):
        lhs, rhs = a.child_by_field_name("left"), a.child_by_field_name("right")
        if lhs is not None and lhs.type == "identifier" and rhs is not None and _calls_vote(ctx, rhs, wrappers):
            out.add(ctx.text(lhs))
    return out


def _holds_vote(ctx, node: Node, masks: set[str], wrappers: set[str]) -> bool:
    return _calls_vote(ctx, node, wrappers) or any(
        i.type == "identifier" and ctx.text(i) in masks for i in walk(node))


def _inside(n: Node, root: Node | None) -> bool:
    return root is not None and root.start_byte <= n.start_byte and n.end_byte <= root.end_byte

