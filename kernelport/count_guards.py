"""A ladder whose steps a thread count guards, and the tests that bound that count by CUDA's warp.

HeCBench gemv's `warpReduceSum(sum, threadNum)`: `if (threadNum >= 32) sum += __shfl_down_sync(m, sum, 16);
if (threadNum >= 16) sum += __shfl_down_sync(m, sum, 8); ...`.  A step at offset o runs only where the count
exceeds o (`c > o`, `c >= 2 * o`), so lane 0 folds the first min(c, width) lanes (the first power of two
below c otherwise) and reads no lane at or past c.  Where c is the block's thread count (`blockDim.x`) and a
test on the path bounds it by CUDA's warp (`blockDim.x <= WARP_SIZE`, `<= 32`, `< 33`, or the `>` test's
other branch, or an early return under it), lane 0 holds the block's fold at either width: the port's bound
is its wave (the macro is rewritten to it) and its ladder gains the step at 32 under `c >= 64`, so it folds
the whole block there too.  Lanes 1-31 of a down ladder still hold partial folds (as a second level's down
ladder: fold_levels' DOWN2); an xor butterfly leaves the block's fold in every lane.  An unguarded step, a
step guarded by another name, a bound that lets the count pass 32 (`<= 64`, `>= 32`), a bound on another
name, or a count that is not the block's (a parameter `n`: lanes 32-63 of a 64 wave would be a later
CUDA warp's, with a leader the port lacks) leave a first-level fold: width-dependent (fold_levels).
"""
from __future__ import annotations

from tree_sitter import Node

from . import blockdims

BLOCK_COUNTS = frozenset({"blockDim.x"})  # the block's thread count (a 1-D block's lanes, in order)
_MIRROR = {">": "<", ">=": "<=", "<": ">", "<=": ">="}
_NEGATE = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}
_STOP = ("for_statement", "while_statement", "do_statement", "for_range_loop", "function_definition",
         "lambda_expression", "compound_statement")


def _text(src, n: Node) -> str:
    return "".join(src.text_of(n).split())


def _bare(n: Node | None) -> Node | None:
    while n is not None and n.type in ("parenthesized_expression", "condition_clause") and n.named_children:
        n = n.named_children[-1]
    return n


def _compare(src, n: Node | None) -> tuple[Node, str, Node] | None:
    n = _bare(n)
    if n is None or n.type != "binary_expression":
        return None
    op = src.text_of(n.child_by_field_name("operator"))
    left, right = _bare(n.child_by_field_name("left")), _bare(n.child_by_field_name("right"))
    return (left, op, right) if op in _MIRROR and left is not None and right is not None else None


def step_count(module, owner, call: Node, offset: Node) -> str | None:
    """The count that guards the ladder step `call` at `offset` (`if (c >= 2 * o)`, `if (c > o)` directly
    around its statement), as text without spaces; None where no such test guards it alone."""
    src, p, child = module.source, call.parent, call
    while p is not None and p.type != "if_statement":
        if p.type in _STOP and not (p.type == "compound_statement" and p.parent is not None and
                                    p.parent.type == "if_statement"):
            return None
        p, child = p.parent, p
    cons = p.child_by_field_name("consequence") if p is not None else None
    if cons is None or cons.id != child.id:
        return None
    got = _compare(src, p.child_by_field_name("condition"))
    if got is None:
        return None
    left, op, right = got
    for c, op, k in ((left, op, right), (right, _MIRROR[op], left)):
        if op == ">" and _times(module, owner, k, offset, 1) or op == ">=" and _times(module, owner, k, offset, 2):
            return _text(src, c)
    return None


def _times(module, owner, k: Node, offset: Node, factor: int) -> bool:
    """k is `factor` times the step's offset (a literal's value, or the loop variable's `2 * o`)."""
    src, known = module.source, blockdims.names(module)
    o = blockdims.value(offset, module, known, owner)
    if o is not None:
        return blockdims.value(k, module, known, owner) == factor * o
    name, t = _text(src, offset), _text(src, k)
    return t == name if factor == 1 else t in (f"2*{name}", f"{name}*2", f"{name}<<1", f"({name}<<1)")


def bounded(module, owner, condition: Node | None) -> tuple[frozenset, frozenset]:
    """The counts (texts) a test bounds by CUDA's warp (at most 32) in its true and in its false branch."""
    src, n = module.source, _bare(condition)
    if n is None:
        return frozenset(), frozenset()
    if n.type == "binary_expression" and src.text_of(n.child_by_field_name("operator")) in ("&&", "||"):
        op = src.text_of(n.child_by_field_name("operator"))
        a, b = bounded(module, owner, n.child_by_field_name("left")), bounded(module, owner,
                                                                              n.child_by_field_name("right"))
        return (a[0] | b[0], frozenset()) if op == "&&" else (frozenset(), a[1] | b[1])
    got = _compare(src, n)
    if got is None:
        return frozenset(), frozenset()
    left, op, right = got
    yes, no = set(), set()
    for c, op, k in ((left, op, right), (right, _MIRROR[op], left)):
        limit = 32 if _text(src, k) == "warpSize" else blockdims.value(k, module, blockdims.names(module), owner)
        if limit is None or c.type == "number_literal":
            continue
        if op == "<=" and limit <= 32 or op == "<" and limit <= 33:
            yes.add(_text(src, c))
        neg = _NEGATE[op]
        if neg == "<=" and limit <= 32 or neg == "<" and limit <= 33:
            no.add(_text(src, c))
    return frozenset(yes), frozenset(no)


def returns(n: Node | None) -> bool:
    """A branch that always leaves the function (`return;`, or a block whose last statement is one)."""
    while n is not None and n.type == "compound_statement":
        kids = [c for c in n.named_children if c.type != "comment"]
        n = kids[-1] if kids else None
    return n is not None and n.type == "return_statement"
