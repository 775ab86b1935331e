"""Pairs of slots one residue class apart: an odd-even exchange touches disjoint pairs (SY002).

An odd-even transposition sort runs its phases as

    for (int i = 0; i < n; ++i) {
        for (int k = threadIdx.x; k < n; k += blockDim.x)
            if ((k % 2) == (i % 2) && k + 1 < n) { float a = s[k]; if (a > s[k + 1]) { s[k] = s[k + 1]; s[k + 1] = a; } }
        __syncthreads();
    }

Each turn reads and writes slots k and k + 1 only, and the test `k % 2 == i % 2` lets through one residue class
of k modulo 2 (the same for every thread: i is the phase, one value between two barriers).  Two values of k in
one class differ by at least 2, so their pairs {k, k + 1} are disjoint: no slot is touched for two values of k.
Where no two threads run one value of k (k is the thread's x index, or a block-stride walk that starts at it:
`k = threadIdx.x; ...; k += blockDim.x`, in a function that names no threadIdx.y or .z), no thread reads a slot
another thread writes between the barriers, and the exchange needs no lockstep.

So the steps are apart when, with one such variable v, one literal modulus m >= 2 and one residue R: every index of
the array is `v + c` (`c + v`, `v - c`, `v`) for integer literals c spanning fewer than m values (max - min < m);
each access lies in the consequence of an `if` with a `&&` conjunct `v % m == R` (`R == v % m`, or
`(v & M) == R` with M = m - 1, m a power of two); R is thread-independent (literals, `blockIdx`/`blockDim`/`gridDim`,
a kernel's parameters and locals set only from these, such as the phase loop's counter) and assigned nowhere in
the steps (or in the loop, where a barrier-free loop holds them: a residue that changes between its turns lets a
thread a turn ahead meet its neighbour's pair).  A span of m or more (`s[k]` and `s[k + 2]` under `k % 2 == 0`),
a residue the thread picks (`k % 2 == tid % 2`) or a test that is not a conjunct may meet another thread's pair.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .. import lazy_re
from ..warpsites import int_value
from .loneguards import _COPY, _declared, _stored, conjuncts, is_x, is_x_copy
from .privateslots import _bare, _squash

_YZ = lazy_re.compile(r"\bthreadIdx\s*\.\s*[yz]\b")
_UNIFORM_FIELDS = lazy_re.compile(r"^(blockIdx|blockDim|gridDim)\s*\.\s*[xyz]$")
_THREADISH = lazy_re.compile(r"threadIdx|laneid|lane_id|__lane|warp", re.IGNORECASE)


def apart(ctx, nodes: list[Node], arrays, scope: list[Node] | None = None) -> bool:
    """Whether every access of an array of `arrays` under `nodes` is `v + c` in one residue class of v modulo m
    (see the module's docs), so that no thread reads a slot another writes; `scope`: the nodes in which the
    residue must not be assigned (the steps themselves by default, the whole loop for a barrier-free loop)."""
    f = ctx.module.function_at(nodes[0]) if nodes else None
    if f is None or f.body is None or _YZ.search(ctx.text(f.node)):
        return False
    var, offsets, tests = None, set(), set()
    for n in nodes:
        for sub in ctx.src.index.under(n, "subscript_expression") + ([n] if n.type == "subscript_expression" else []):
            base = sub.child_by_field_name("argument")
            if base is None or base.type != "identifier" or ctx.text(base) not in arrays:
                continue
            idx = sub.child_by_field_name("indices")
            got = _offset(ctx, idx.named_children[0]) if idx is not None and idx.named_child_count == 1 else None
            if got is None or (var is not None and got[0] != var):
                return False
            var = got[0]
            offsets.add(got[1])
            test = _residue_test(ctx, f, sub, var)
            if test is None:
                return False
            tests.add(test[:2])
            if len(tests) > 1:
                return False
    if var is None or not _distinct(ctx, f, nodes[0], var):
        return False
    (m, residue), = tests
    if max(offsets) - min(offsets) >= m:
        return False
    r_node = _find_residue(ctx, f, nodes, arrays, var)
    if r_node is None or not _independent(ctx, f, r_node, set()):
        return False
    names = {ctx.text(i) for i in ([r_node] if r_node.type == "identifier" else
                                   ctx.src.index.under(r_node, "identifier"))}
    for region in scope or nodes:
        for s in ctx.src.index.under_types(region, "assignment_expression", "update_expression"):
            t = s.child_by_field_name("left" if s.type == "assignment_expression" else "argument")
            if t is not None and t.type == "identifier" and ctx.text(t) in names:
                return False
        if region.type == "for_statement":
            upd = region.child_by_field_name("update")
            if upd is not None and any(ctx.text(i) in names for i in ctx.src.index.under(upd, "identifier")
                                       + ([upd] if upd.type == "identifier" else [])):
                return False
    return True


def _offset(ctx, e: Node) -> tuple[str, int] | None:
    """(v, c) where e is `v`, `v + c`, `c + v` or `v - c` for an identifier (or `threadIdx.x`) v and a literal c."""
    e = _bare(e)
    if e.type == "identifier" or _COPY.match(ctx.text(e)):
        return _squash(ctx.text(e)), 0
    if e.type != "binary_expression" or e.child_by_field_name("operator").type not in ("+", "-"):
        return None
    op = e.child_by_field_name("operator").type
    left, right = _bare(e.child_by_field_name("left")), _bare(e.child_by_field_name("right"))
    for v, c, sign in ((left, right, 1 if op == "+" else -1), (right, left, 1 if op == "+" else 0)):
        if sign and c.type == "number_literal" and (v.type == "identifier" or _COPY.match(ctx.text(v))):
            k = int_value(ctx.text(c))
            if k is not None:
                return _squash(ctx.text(v)), sign * k
    return None


def _residue_test(ctx, f, sub: Node, var: str) -> tuple[int, str, Node] | None:
    """(m, R's text, R) of the innermost enclosing `if` conjunct `var % m == R` (or its mirror, or `(var & M) == R`)."""
    n = sub
    while n is not None and n != f.body:
        p = n.parent
        if p is not None and p.type == "if_statement" and p.child_by_field_name("consequence") == n:
            for c in conjuncts(p.child_by_field_name("condition")):
                got = _residue_conjunct(ctx, c, var)
                if got is not None:
                    return got
        n = p
    return None


def _residue_conjunct(ctx, c: Node, var: str) -> tuple[int, str, Node] | None:
    c = _bare(c)
    if c.type != "binary_expression" or c.child_by_field_name("operator").type != "==":
        return None
    left, right = _bare(c.child_by_field_name("left")), _bare(c.child_by_field_name("right"))
    for mod, r in ((left, right), (right, left)):
        m = _modulus(ctx, mod, var)
        if m is not None:
            return m, _squash(ctx.text(r)), r
    return None


def _modulus(ctx, e: Node, var: str) -> int | None:
    """m where e is `var % m` (m >= 2) or `var & (m - 1)` (m a power of two >= 2)."""
    if e.type != "binary_expression" or e.child_by_field_name("operator").type not in ("%", "&"):
        return None
    left, right = _bare(e.child_by_field_name("left")), _bare(e.child_by_field_name("right"))
    if e.child_by_field_name("operator").type == "&" and right.type != "number_literal":
        left, right = right, left
    if _squash(ctx.text(left)) != var or right.type != "number_literal":
        return None
    k = int_value(ctx.text(right))
    if k is None:
        return None
    if e.child_by_field_name("operator").type == "%":
        return k if k >= 2 else None
    return k + 1 if k >= 1 and (k + 1) & k == 0 else None


def _find_residue(ctx, f, nodes, arrays, var) -> Node | None:
    """The residue node R of the first access's test (every access's test has R's text: checked by the caller)."""
    for n in nodes:
        for sub in ctx.src.index.under(n, "subscript_expression") + ([n] if n.type == "subscript_expression" else []):
            base = sub.child_by_field_name("argument")
            if base is not None and base.type == "identifier" and ctx.text(base) in arrays:
                got = _residue_test(ctx, f, sub, var)
                return got[2] if got is not None else None
    return None


def _distinct(ctx, f, at: Node, var: str) -> bool:
    """No two threads hold one value of var: the x index (or a copy of it), or the variable of an enclosing `for`
    that starts at it and strides by `blockDim.x`, never assigned in the loop's body."""
    if _COPY.match(var) or (re.fullmatch(r"[A-Za-z_]\w*", var) and is_x_copy(ctx, f, var)):
        return True
    n = at
    while n is not None and n != f.body:
        if n.type == "for_statement" and _walks_block(ctx, f, n, var):
            return True
        n = n.parent
    return False


def _walks_block(ctx, f, loop: Node, var: str) -> bool:
    init, upd, body = (loop.child_by_field_name(k) for k in ("initializer", "update", "body"))
    if init is None or upd is None or body is None:
        return False
    start = None
    if init.type == "declaration":
        for d in init.children_by_field_name("declarator"):
            if d.type == "init_declarator" and ctx.text(d.child_by_field_name("declarator")) == var:
                start = d.child_by_field_name("value")
    elif init.type == "assignment_expression" and ctx.text(init.child_by_field_name("left")) == var:
        start = init.child_by_field_name("right")
    if start is None or not is_x(ctx, f, _bare(start)):
        return False
    stride = None
    if upd.type == "assignment_expression" and ctx.text(upd.child_by_field_name("left")) == var:
        op, right = upd.child_by_field_name("operator").type, _bare(upd.child_by_field_name("right"))
        if op == "+=":
            stride = right
        elif op == "=" and right.type == "binary_expression" and right.child_by_field_name("operator").type == "+":
            a, b = _bare(right.child_by_field_name("left")), _bare(right.child_by_field_name("right"))
            stride = b if ctx.text(a) == var else a if ctx.text(b) == var else None
    if stride is None or _squash(ctx.text(stride)) != "blockDim.x":
        return False
    return not any((t := s.child_by_field_name("left" if s.type == "assignment_expression" else "argument"))
                   is not None and t.type == "identifier" and ctx.text(t) == var
                   for s in ctx.src.index.under_types(body, "assignment_expression", "update_expression"))


def _independent(ctx, f, e: Node, seen: set[str]) -> bool:
    """Whether e has one value in every thread: literals, blockIdx/blockDim/gridDim, macros that name no thread
    index, a kernel's parameters and f's locals whose every initialiser and store are such (no loads, no calls)."""
    if e.type in ("number_literal", "true", "false", "char_literal"):
        return True
    if e.type == "field_expression":
        return _UNIFORM_FIELDS.match(_squash(ctx.text(e))) is not None
    if e.type == "identifier":
        return _name_independent(ctx, f, ctx.text(e), seen)
    if e.type in ("call_expression", "subscript_expression", "pointer_expression", "assignment_expression",
                  "update_expression"):
        return False
    return all(_independent(ctx, f, c, seen) for c in e.named_children if c.type != "comment")


def _name_independent(ctx, f, name: str, seen: set[str]) -> bool:
    if name in seen:
        return True  # (its other definitions decide)
    seen = seen | {name}
    decls = _declared(ctx, f, name)
    if decls:
        return all(init is None or _independent(ctx, f, init, seen) for _, init in decls) and all(
            s.type == "update_expression" or _independent(ctx, f, s.child_by_field_name("right"), seen)
            for s in _stored(ctx, f, name))
    if f.param(name) is not None:
        return f.is_kernel and all(s.type == "update_expression" or
                                   _independent(ctx, f, s.child_by_field_name("right"), seen)
                                   for s in _stored(ctx, f, name))
    m = ctx.src.macros.get(name)
    if m is not None:
        return m.params is None and not _THREADISH.search(m.body)
    return name != "threadIdx"
