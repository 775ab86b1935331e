"""A reversed ballot word read as a number: `__brev(m) >> 28`, `__brev(m) + 1`, `out[i] = __brev(m)` (stop 65's note).

The port reverses a ballot word it widens in the wave's width (`(__brevll(m) >> (64 - warpSize))`,
kernelport/wide_ballot_holders.py's `brev_lanes`): lane 0 at bit `warpSize - 1`, as CUDA's at bit 31.  What that
keeps is a lane's position counted from the wave's top: `__clz` of it (the lowest voter), `__ffs` (the highest),
`__popc`, a zero test.  Read as a number, the 64-lane wave's reversed word is not the 32-lane warp's (`>> 28`
keeps lanes 0-35, not 0-3; the sum and the stored word hold the other warp's lanes): no one reading is the
original's on 64- and 32-lane waves, so such a read is refused, KP244 at it.  Bit tests of it (`r & 1`) are
kernelport/literal_lanes.py's (KP251).
"""
from __future__ import annotations

from tree_sitter import Node

from .literal_lanes import _TRUTH  # (the statements whose condition a value is: a truth test)
from .source import ident_name

CODE = "KP244"
_POSITIONS = frozenset({"__clz", "__clzll", "__ffs", "__ffsll", "__popc", "__popcll"})


def _up(n: Node) -> Node:
    while n.parent is not None and n.parent.type == "parenthesized_expression":
        n = n.parent
    return n


def _zero(tr, n: Node | None) -> bool:
    while n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n is not None and n.type == "number_literal" and tr.src.text_of(n).rstrip("uUlL") in ("0", "0x0")


def numeric_read(tr, value: Node, depth: int = 0) -> Node | None:
    """Where the reversed word `value` is read as a number (the expression), None where each read keeps a
    lane's position (a count, a truth or zero test; through the local it initializes or is assigned to)."""
    top = _up(value)
    p = top.parent
    if p is None or depth > 4:
        return None
    if p.type in _TRUTH or p.type == "conditional_expression" and p.child_by_field_name("condition") == top:
        return None
    if p.type == "unary_expression" and tr.src.text_of(p).lstrip().startswith("!"):
        return None
    if p.type == "argument_list" and p.parent is not None and p.parent.type == "call_expression":
        f = p.parent.child_by_field_name("function")
        name = tr.src.text_of(f).split("::")[-1].strip() if f is not None else ""
        if name in _POSITIONS:
            return None
        return _in_helper(tr, top, tr.module.functions.get(name), depth) if name in tr.module.functions else p.parent
    if p.type == "return_statement":  # a helper returning it (`reverseBits(x)`): what its calls' values meet
        fn = p.parent
        while fn is not None and fn.type != "function_definition":
            fn = fn.parent
        g = tr.module.function_at(p)
        calls = [c for c in tr.src.index.of_type("call_expression")
                 if g is not None and fn is not None and not fn.start_byte <= c.start_byte < fn.end_byte and
                 tr.src.text_of(c.child_by_field_name("function")).split("::")[-1].strip() == g.name]
        return next((r for r in (numeric_read(tr, c, depth + 1) for c in calls) if r is not None), None)
    if p.type == "binary_expression":
        op = tr.src.text_of(p.child_by_field_name("operator"))
        other = p.child_by_field_name("right") if p.child_by_field_name("left") == top else p.child_by_field_name("left")
        if op in ("&&", "||") or op in ("==", "!=") and _zero(tr, other):
            return None
        if op == "&" and other.type == "number_literal":
            return None  # (a literal bit test: literal_lanes' KP251)
        return p
    name, scope = None, None
    if p.type == "init_declarator" and p.child_by_field_name("value") == top:
        name, scope = ident_name(p.child_by_field_name("declarator")), p.parent.parent if p.parent else None
    elif p.type == "assignment_expression" and p.child_by_field_name("right") == top and \
            p.child_by_field_name("left").type == "identifier" and tr.src.text_of(p.child_by_field_name("operator")) == "=":
        name, scope = tr.src.text_of(p.child_by_field_name("left")), p.parent
        while scope is not None and scope.type != "compound_statement":
            scope = scope.parent
    if name is None or scope is None:
        return p  # (a store, a return, a helper's argument: the word as a number)
    for u in tr.src.named_under(scope, "identifier", [name]):
        if u.start_byte < p.end_byte or u.parent is not None and (u.parent.type == "declaration" or u.parent.type ==
                                                                  "init_declarator" and u.parent.child_by_field_name("value") != u):
            continue  # (a declarator of the name; `unsigned s = r;` copies it: a read, followed)
        if u.parent is not None and u.parent.type == "assignment_expression" and u.parent.child_by_field_name("left") == u:
            continue
        got = numeric_read(tr, u, depth + 1)
        if got is not None:
            return got
    return None


def _in_helper(tr, arg: Node, fn, depth: int) -> Node | None:
    """The numeric read of the word passed as `arg` to the file's own helper `fn`, through its parameter."""
    args = [c for c in arg.parent.named_children if c.type != "comment"]
    k = args.index(arg) if arg in args else -1
    body = fn.node.child_by_field_name("body") if fn is not None and fn.node is not None else None
    if body is None or not 0 <= k < len(fn.params) or fn.params[k].pointer:
        return arg.parent.parent
    for u in tr.src.named_under(body, "identifier", [fn.params[k].name]):
        got = numeric_read(tr, u, depth + 1)
        if got is not None:
            return got
    return None


def refuse(tr, call: Node) -> bool:
    """KP244 at a numeric read of the reversed widened word `call` (`__brev(m)`); True when refused."""
    at = numeric_read(tr, call)
    if at is None:
        return False
    tr.problem(CODE, at, f"`{tr.src.text_of(at)}` reads a reversed ballot word (`{tr.src.text_of(call)}`, line "
               f"{call.start_point[0] + 1}) as a number: the port reverses the wave's lanes in the wave's width, "
               "which on a 64-lane wave is not the 32-lane warp's word (other bits, the other warp's lanes): only "
               "a lane's position (`__clz`, `__ffs`, `__popc`, a zero test) reads the same on 64- and 32-lane waves",
               "read the lane it means from the ballot word itself (`__ffs(m)`, `31 - __clz(m)`, `(m >> k) & 1`)")
    return True
