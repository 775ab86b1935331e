"""An xor exchange step: a `shfl_xor` by 16 whose result each lane uses by its own lane bit 16, not a
reduction ladder's first step.

The LC framework's 32-lane bit transpose (d_BIT_4.h):

    unsigned int q = __shfl_xor_sync(~0, a, 16);
    a = ((sublane & 16) == 0) ? __byte_perm(a, q, ...) : __byte_perm(a, q, ...);
    q = __shfl_xor_sync(~0, a, 8);  ...

swaps halves of a word between partner lanes `lane ^ 16`, `^ 8`, ... `^ 1`.  An xor below 32 never leaves
its aligned 32 lanes, so on a 64-wide wave the two 32-lane halves each run the same exchange over their own
32 words: every lane ends with what it held at 32.  The lane bit that picks each lane's half of the
exchange makes the step one of a 32-element butterfly (a transpose, a bitonic step), whose size is the
algorithm's own: no step at 32 can be added to it, and none is needed.  A reduction (`v += shfl_xor(v, 16)`)
folds the partner's value into every lane alike, whatever its lane bit, and keeps today's step at 32.

The step is an exchange when the shuffle's whole result goes to a variable (`q = shfl_xor(a, 16)`, or its
declaration) and every read of that variable, up to the statement that stores it again (the ladder's next
step), lies in a branch of a test of the lane bit (`(E & 16)`, `(E & 0x10)`, in a `?:` or an `if`) whose
`E` is a thread's lane or index (warpflow's facts: `tid % 32`, `threadIdx.x`; a uniform flag's
`mode & 16` is no lane bit) and does not read it.  A read anywhere else (a sum, a store, a read after
the block when the variable lives outside it) keeps the step a ladder's.

Each thread then holds at 64 what it holds at 32 (its 32-lane half is its CUDA warp), so per-thread
uses of the result (stores, votes of a predicate) are the same.  What could differ is another lane's read
of it through a shuffle the port widens (`__shfl_sync(m, v, 31)` becomes lane 63: the last of the wave,
not of the 32 lanes that were exchanged), or a leader test the port widens (`if (lane == 0)` with a lane
of the wave keeps one of the two halves' results), so the variables the exchange writes must reach no
shuffle in the function but the ladder's own xor steps below 32, no return (a caller's shuffle) and no
read under an equality test of a lane or warp value (`lane == 0`, `wid != 0`) other than a lane-bit test.
"""
from __future__ import annotations

from tree_sitter import Node

from . import fnscopes
from .source import call_args, walk
from .warpsites import LANE, LANE_OK, TID, WARP, int_value

_SKIP = ("comment", "preproc_call")


def _stored_in(src, call: Node) -> tuple[Node, str] | None:
    """(the statement, the variable) when `call` is the whole value stored: `q = call;`, `T q = call;`."""
    p = call.parent
    while p is not None and p.type == "parenthesized_expression":
        p = p.parent
    if p is None:
        return None
    if p.type == "assignment_expression" and src.text_of(p.child_by_field_name("operator")) == "=":
        left = p.child_by_field_name("left")
        stmt = p.parent
        if left is not None and left.type == "identifier" and stmt is not None and stmt.type == "expression_statement":
            return stmt, src.text_of(left)
    if p.type == "init_declarator":
        d, stmt = p.child_by_field_name("declarator"), p.parent
        if d is not None and d.type == "identifier" and stmt is not None and stmt.type == "declaration":
            return stmt, src.text_of(d)
    return None


def _reads(src, node: Node, name: str) -> list[Node]:
    return [v for v in walk(node) if v.type == "identifier" and src.text_of(v) == name]


def _stores(src, stmt: Node, name: str) -> bool:
    """`name = ...;` (the whole statement)."""
    e = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_children else None
    if e is None or e.type != "assignment_expression" or src.text_of(e.child_by_field_name("operator")) != "=":
        return False
    left = e.child_by_field_name("left")
    return left is not None and left.type == "identifier" and src.text_of(left) == name


def _lane_bit_test(an, cond: Node, bit: int, name: str) -> bool:
    """`cond` tests `E & bit` with E a lane (not reading `name`)."""
    src = an.src
    if _reads(src, cond, name):
        return False
    for n in walk(cond):
        if n.type == "binary_expression" and src.text_of(n.child_by_field_name("operator")) == "&":
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            for lit, e in ((left, right), (right, left)):
                if lit is not None and lit.type == "number_literal" and int_value(src.text_of(lit)) == bit and \
                        _is_lane(an, e):
                    return True
    return False


def _selected(an, read: Node, stop: Node, bit: int, name: str) -> bool:
    """`read` lies in a branch of a `?:` or an `if` (inside `stop`) that tests the lane bit."""
    n = read
    while n is not None and n != stop.parent:
        p = n.parent
        if p is None:
            return False
        if p.type == "conditional_expression" and n != p.child_by_field_name("condition") and \
                _lane_bit_test(an, p.child_by_field_name("condition"), bit, name):
            return True
        if p.type == "if_statement" and n != p.child_by_field_name("condition") and \
                _lane_bit_test(an, p.child_by_field_name("condition"), bit, name):
            return True
        n = p
    return False


def _is_lane(an, e: Node | None) -> bool:
    return e is not None and bool({k for k, _ in an.ex(e)} & {TID, LANE, LANE_OK})


def _leader_test(an, cond: Node) -> bool:
    """`lane == 0`, `tid % warpSize != 0`, `wid == 0`: an equality of a lane or warp value, not a lane
    bit's (`(sublane & 16) == 0`)."""
    src = an.src
    for n in walk(cond):
        if n.type == "binary_expression" and src.text_of(n.child_by_field_name("operator")) in ("==", "!="):
            sides = [n.child_by_field_name("left"), n.child_by_field_name("right")]
            bits = any(b.type == "binary_expression" and src.text_of(b.child_by_field_name("operator")) == "&"
                       for s in sides if s is not None for b in walk(s))
            if not bits and any(s is not None and {k for k, _ in an.ex(s)} & {TID, LANE, LANE_OK, WARP}
                                for s in sides):
                return True
    return False


def _under_leader(an, read: Node) -> bool:
    n = read
    while n.parent is not None and n.type != "function_definition":
        p = n.parent
        cond = p.child_by_field_name("condition") if p.type in ("if_statement", "conditional_expression",
                                                                 "while_statement") else None
        if cond is not None and n != cond and _leader_test(an, cond):
            return True
        n = p
    return False


def _stays_in_rows(an, written: set[str]) -> bool:
    """No shuffle in the function reads a variable of `written` but an xor by a literal below 32, no
    return hands one on, no leader test guards a read."""
    src = an.src
    for n in walk(an.fn.node) if an.fn is not None else ():
        if n.type == "return_statement" and any(_reads(src, n, w) for w in written):
            return False
        if n.type == "identifier" and src.text_of(n) in written and _under_leader(an, n):
            return False
        if n.type != "call_expression" or not any(_reads(src, a, w) for a in call_args(n) for w in written):
            continue
        found = an.concept_call(fnscopes.callee_name(n.child_by_field_name("function")) or "")
        if found is None or found[0].kind != "shuffle":
            continue
        params = dict(zip(found[1], call_args(n)))
        mask = params.get("lanemask")
        if found[0].key != "shfl_xor" or mask is None or mask.type != "number_literal" or \
                not 0 < int_value(src.text_of(mask)) < 32:
            return False
    return True


def _written_by(src, stmt: Node, name: str) -> set[str]:
    """The variables assigned from a read of `name` in `stmt`: `a = ... q ...` -> a."""
    out = set()
    for n in walk(stmt):
        if n.type == "assignment_expression" and _reads(src, n.child_by_field_name("right"), name):
            left = n.child_by_field_name("left")
            out.add(src.text_of(left) if left is not None and left.type == "identifier" else "")
    return out


def exchange_step(an, call: Node, lanemask: Node) -> bool:
    """`call`, a `shfl_xor` whose literal `lanemask` is below 32, is an exchange step (see above); `an`:
    warpflow's analyzer (its source, and the facts of a lane-bit test's operand)."""
    src = an.src
    bit = int_value(src.text_of(lanemask)) if lanemask.type == "number_literal" else None
    stored = _stored_in(src, call) if bit and bit < 32 else None
    if stored is None:
        return False
    stmt, name = stored
    if _reads(src, call, name):
        return False  # `q = shfl_xor(q, 16)`: the value itself moves on
    used, written = False, set()
    nxt = stmt.next_named_sibling
    while nxt is not None:
        if nxt.type not in _SKIP:
            stored_again = _stores(src, nxt, name)
            read_in = nxt.named_children[0].child_by_field_name("right") if stored_again else nxt
            for r in _reads(src, read_in, name):
                if not _selected(an, r, nxt, bit, name):
                    return False
                used = True
            written |= _written_by(src, read_in, name)
            if stored_again:
                break
        nxt = nxt.next_named_sibling
    else:  # the block ends: a declaration's variable ends with it; another may be read after it
        if stmt.type != "declaration":
            return False
    return used and "" not in written and _stays_in_rows(an, written)
