"""A `for` loop's trip count: thread-dependent only when its condition's dependence reaches it.

divergence.py tags a loop by its condition.  In the strided loop that every thread runs the same
number of times, `for (i = A + t; i < B + t; i += S)` (gpu4pyscf's `for (pair_ij = shl_pair0 +
sp_id; pair_ij < shl_pair1 + sp_id; pair_ij += nsp_per_block)`, which keeps a `__syncthreads()`
in the body legal), the condition reads the thread twice, in `i` and in `t`, and the two cancel:
with j = i - t the loop is `for (j = A; j < B; j += S)`, whose trip count is uniform when A, B
and S are.  So the loop is uniform when:
- the initialiser sets the loop variable i (`int i = ...` or `i = ...`) and the update steps it
  by a uniform S (`i += S`, `i -= S`, `i = i + S`, `++i`, `i--`);
- the condition compares i (`<`, `<=`, `>`, `>=`, `!=`) with a bound, and the initial value and
  the bound are sums that share one or more terms t (the same text, the same sign), every other
  term of either being uniform;
- each shared term is plain arithmetic on local variables, parameters and built-ins (no call, no
  memory read, no `__shared__` value another thread may change), and neither i nor a variable of
  a shared term is written in the body or the condition, or has its address taken there.
A thread-dependent break, continue or return still makes the trip count diverge (divergence.py
checks those whatever the condition's tag).
"""
from __future__ import annotations

from collections import Counter

from tree_sitter import Node

from . import tags

_COMPARE = ("<", "<=", ">", ">=", "!=")
_PLAIN = ("identifier", "field_identifier", "field_expression", "number_literal", "binary_expression",
          "parenthesized_expression", "unary_expression")
_ARITH = ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^")


def tag(d, loop: Node, frames=()) -> int:
    """The tag of the for statement `loop`'s trip count (its condition's, but UNIFORM for the
    offset loop above); the condition is read (d.expr) as divergence.py read it before."""
    cond = loop.child_by_field_name("condition")
    t = d.expr(cond, frames) if cond is not None else tags.UNIFORM
    return tags.UNIFORM if t != tags.UNIFORM and _offset_loop(d, loop, cond, frames) else t


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type in ("parenthesized_expression", "condition_clause") and n.named_child_count == 1:
        n = n.named_children[0]
    return n


def _terms(d, n: Node, sign: int, out: list) -> None:
    """The additive terms of n as (sign, text without spaces, node)."""
    n = _strip(n)
    op = d.src.text_of(n.child_by_field_name("operator")) if n.type == "binary_expression" else None
    if op in ("+", "-"):
        _terms(d, n.child_by_field_name("left"), sign, out)
        _terms(d, n.child_by_field_name("right"), sign if op == "+" else -sign, out)
    else:
        out.append((sign, "".join(d.src.text_of(n).split()), n))


def _start(d, init: Node | None) -> tuple[str, Node] | None:
    """The loop variable and its initial value."""
    if init is None:
        return None
    if init.type == "declaration":
        ds = init.children_by_field_name("declarator")
        if len(ds) == 1 and ds[0].type == "init_declarator":
            name = ds[0].child_by_field_name("declarator")
            if name is not None and name.type == "identifier":
                return d.src.text_of(name), ds[0].child_by_field_name("value")
        return None
    init = _strip(init)
    if init.type == "assignment_expression" and d.src.text_of(init.child_by_field_name("operator")) == "=":
        left = init.child_by_field_name("left")
        if left is not None and left.type == "identifier":
            return d.src.text_of(left), init.child_by_field_name("right")
    return None


def _is(d, n: Node | None, name: str) -> bool:
    n = _strip(n)
    return n is not None and n.type == "identifier" and d.src.text_of(n) == name


def _uniform_step(d, upd: Node | None, i: str, frames) -> bool:
    upd = _strip(upd)
    if upd is None:
        return False
    if upd.type == "update_expression":
        return _is(d, upd.child_by_field_name("argument"), i)
    if upd.type != "assignment_expression" or not _is(d, upd.child_by_field_name("left"), i):
        return False
    op, right = d.src.text_of(upd.child_by_field_name("operator")), _strip(upd.child_by_field_name("right"))
    if op in ("+=", "-="):
        return d.expr(right, frames) == tags.UNIFORM
    if op == "=" and right is not None and right.type == "binary_expression" and \
            d.src.text_of(right.child_by_field_name("operator")) == "+":
        a, b = right.child_by_field_name("left"), right.child_by_field_name("right")
        step = b if _is(d, a, i) else a if _is(d, b, i) else None
        return step is not None and d.expr(step, frames) == tags.UNIFORM
    return False


def _plain(d, n: Node) -> bool:
    """Arithmetic on locals, parameters and built-ins: the same value wherever it is read again."""
    stack = [n]
    while stack:
        x = stack.pop()
        if x.type not in _PLAIN:
            return False
        if x.type == "identifier" and (d.src.text_of(x) in d.shared or d.key(x) in d.shared_keys):
            return False
        op = x.child_by_field_name("operator")
        if x.type == "field_expression" and op is not None and d.src.text_of(op) != ".":
            return False
        if x.type == "binary_expression" and d.src.text_of(op) not in _ARITH:
            return False
        if x.type == "unary_expression" and d.src.text_of(op) not in ("-", "+", "~"):
            return False
        stack.extend(c for c in x.named_children if x.type != "field_expression" or c.type != "field_identifier")
    return True


def _written(d, parts, names: set[str]) -> bool:
    """Whether one of names is assigned, stepped or has its address taken in these subtrees."""
    for p in parts:
        if p is None:
            continue
        for a in d.src.index.under_types(p, "assignment_expression", "update_expression", "pointer_expression"):
            if a.type == "pointer_expression" and d.src.text_of(a.child_by_field_name("operator")) != "&":
                continue
            target = a.child_by_field_name("left" if a.type == "assignment_expression" else "argument")
            while target is not None and target.type in ("subscript_expression", "field_expression",
                                                         "parenthesized_expression"):
                target = target.child_by_field_name("argument") or (
                    target.named_children[0] if target.named_children else None)
            if target is not None and target.type == "identifier" and d.src.text_of(target) in names:
                return True
    return False


def _offset_loop(d, loop: Node, cond: Node | None, frames) -> bool:
    start = _start(d, loop.child_by_field_name("initializer"))
    cond = _strip(cond)
    if start is None or start[1] is None or cond is None or cond.type != "binary_expression" or \
            d.src.text_of(cond.child_by_field_name("operator")) not in _COMPARE:
        return False
    i, init = start
    left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
    bound = right if _is(d, left, i) else left if _is(d, right, i) else None
    if bound is None or not _uniform_step(d, loop.child_by_field_name("update"), i, frames):
        return False
    a: list = []
    b: list = []
    _terms(d, init, 1, a)
    _terms(d, bound, 1, b)
    shared = Counter((s, t) for s, t, _ in a) & Counter((s, t) for s, t, _ in b)
    if not shared:
        return False
    nodes = {(s, t): n for s, t, n in a}
    left_a, left_b = Counter((s, t) for s, t, _ in a) - shared, Counter((s, t) for s, t, _ in b) - shared
    for terms, rest in ((a, left_a), (b, left_b)):
        if any(d.expr(n, frames) != tags.UNIFORM for s, t, n in terms if rest[(s, t)] > 0):
            return False
    names = {i}
    for k in shared:
        if not _plain(d, nodes[k]):
            return False
        n = nodes[k]
        names |= set(d.src.texts_under(n, "identifier"))
    return not _written(d, (loop.child_by_field_name("body"), cond), names)
