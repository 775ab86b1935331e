"""Shuffle steps guarded by a template width: `if (WarpSize >= 64) v += __shfl_down_sync(m, v, 32);` (WS004, WS017).

A function template whose integer template parameter W is the width of the lane group it folds can write its
unrolled ladder as steps each taken only where the group is wide enough (muxi-spmv's warpReduceSum):

    if (WarpSize >= 64) val += __shfl_down_sync(m, val, 32);
    if (WarpSize >= 32) val += __shfl_down_sync(m, val, 16);
    ...                                         // down to 1

That is `for (o = W / 2; o > 0; o /= 2)` unrolled: it folds exactly W lanes for every W up to 64.  The step at 32
runs only where W >= 64, so its 32 is half of a 64-lane group, not a 32-lane warp (no WS017); the step at 16 under
its own guard, after that guarded step at 32, starts no ladder "from 16" (no WS004).  Whether W matches the
hardware at a launch is the launch's question (the same as for the loop from `W / 2`).

Only a literal that is a shuffle's delta or lane argument counts, and only under a guard `W >= t` / `W > t` /
`t <= W` / `t < W` / `W == t` on an integer template parameter of the enclosing function template, in the
guarded branch (not its else), where the least W the guard allows is over 32 and over the step (a step at 16 under
`W >= 32` is the ladder's start, silent only after the guarded step at 32).  A guard on a run-time value
(`if (n >= 64)`), a guard that admits a 32-lane group (`if (W >= 32) ... 32`), or any other site in such a branch
(a 32-bit ballot word, `lane & 31`) is reported as before.
"""
from __future__ import annotations

from tree_sitter import Node

from .. import lazy_re

_GUARD = lazy_re.compile(r"^\(*\s*(?:(\w+)\s*(>=|>|==)\s*(\d+)|(\d+)\s*(<=|<|==)\s*(\w+))\s*\)*$")
_STEP_32 = lazy_re.compile(r"shfl\w*\s*\([^;]*,\s*32\s*(?:,[^;]*)?\)")


def _template_ints(fn: Node) -> frozenset[str]:
    """The integer non-type template parameters of the template declaring function `fn`."""
    t = fn.parent
    if t is None or t.type != "template_declaration":
        return frozenset()
    plist = t.child_by_field_name("parameters")
    out = set()
    for p in plist.named_children if plist is not None else ():
        if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
            continue
        ty, name = p.child_by_field_name("type"), p.child_by_field_name("declarator")
        if ty is not None and name is not None and name.type == "identifier" and \
                ty.type in ("primitive_type", "sized_type_specifier"):
            out.add(name.text.decode())
    return frozenset(out)


def _threshold(cond: Node, params: frozenset[str]) -> int | None:
    """The least group width a guard on a template width guarantees, else None."""
    m = _GUARD.match(" ".join(cond.text.decode().split()))
    if m is None:
        return None
    name, op, num = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(6), m.group(5), m.group(4))
    if name not in params:
        return None
    return int(num) + 1 if op in (">", "<") else int(num)


def _function(node: Node) -> Node | None:
    p = node.parent
    while p is not None and p.type != "function_definition":
        p = p.parent
    return p


def _guards(stmt: Node, params: frozenset[str]):
    """(if_statement, threshold) of each template-width guard whose taken branch holds `stmt`."""
    child, p = stmt, stmt.parent
    while p is not None and p.type != "function_definition":
        if p.type == "if_statement" and p.child_by_field_name("consequence") is not None:
            cons = p.child_by_field_name("consequence")
            if (cons.start_byte, cons.end_byte) == (child.start_byte, child.end_byte):
                t = _threshold(p.child_by_field_name("condition"), params)
                if t is not None:
                    yield p, t
        child, p = p, p.parent


def _shuffle_step(lit: Node) -> int | None:
    """The value of `lit` when it is an argument of a shuffle call, else None."""
    args = lit.parent
    call = args.parent if args is not None and args.type == "argument_list" else None
    fn = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
    if fn is None or "shfl" not in fn.text.decode() or lit.type != "number_literal":
        return None
    try:
        return int(lit.text.decode().rstrip("uUlL"), 0)
    except ValueError:
        return None


def guarded_step(node: Node) -> bool:
    """A shuffle's literal step taken only where the template width is over 32 lanes and over the step."""
    step = _shuffle_step(node)
    fn = _function(node) if step else None
    if fn is None:
        return False
    return any(t > max(32, step) for _, t in _guards(node, _template_ints(fn)))


def guarded_wide_step_before(lit: Node) -> bool:
    """The step at 16 of an unrolled ladder sits under a template-width guard whose statement is preceded by the
    guarded step at 32 (`if (W >= 64) v += __shfl_down_sync(m, v, 32);`): the ladder folds W lanes."""
    step = _shuffle_step(lit)
    fn = _function(lit) if step else None
    if fn is None:
        return False
    params = _template_ints(fn)
    for guard, _ in _guards(lit, params):
        prev = guard.prev_named_sibling
        while prev is not None and prev.type == "comment":
            prev = prev.prev_named_sibling
        if prev is None or prev.type != "if_statement" or prev.child_by_field_name("alternative") is not None:
            continue
        t = _threshold(prev.child_by_field_name("condition"), params)
        if t is not None and t > 32 and _STEP_32.search(prev.child_by_field_name("consequence").text.decode()):
            return True
    return False
