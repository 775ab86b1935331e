"""Shared-memory steps that one thread runs alone: no lockstep to rely on (SY002).

gpu-samplesort's scan.h (heldout60) ends its up-sweep with

    if (id == 0) { a[2] = a[1] + a[0]; a[1] = a[0]; a[0] = 0; }

(id = threadIdx.x), and a serial scan by the first thread (`if (threadIdx.x == 0) for (i = 1; i < n; i++)
s[i] += s[i - 1];`) has the same form: each statement reads what the previous one wrote, but in the same
thread, in program order.  No other thread runs the section, so there is no warp lockstep to assume.

A node is such a section when it lies in the consequence of an `if` whose condition is, or holds as a
`&&` conjunct, `t == K`, `K == t` or `!t` for an integer literal K and t the thread's x index:
`threadIdx.x` or a local of the function initialised to exactly `threadIdx.x` and never assigned again.
In a block of more than one row that test passes one thread per row, so every index of the section's
shared subscripts must also be the same in each thread that passes it: built of literals and names that
are no local or parameter of a device function (template parameters, macros, `blockDim`, `blockIdx`), a
kernel's parameter the kernel sets only the same way (`d *= 2`), or a local declared inside the section whose initialiser and
every store are built the same way (a loop counter `for (int i = 1; i < n; i++)`).  `threadIdx` itself
is never such a name.
"""
from __future__ import annotations

from tree_sitter import Node

from .. import lazy_re
from ..source import ident_name

_COPY = lazy_re.compile(r"^\(?\s*threadIdx\s*\.\s*x\s*\)?$")


def lone_run(ctx, statements: list[Node]) -> bool:
    """Whether every statement runs in such a section: inside one, or an `if` without `else` whose own test
    makes its consequence one."""
    return bool(statements) and all(
        lone_section(ctx, st) or (st.type == "if_statement" and st.child_by_field_name("alternative") is None
                                  and lone_section(ctx, st.child_by_field_name("consequence")))
        for st in statements)


def lone_section(ctx, node: Node | None) -> bool:
    """Whether `node` runs only in threads that pass a test of one x index (and every index of its
    shared subscripts is the same in those threads)."""
    if node is None:
        return False
    f = ctx.module.function_at(node)
    if f is None or f.body is None:
        return False
    guard = _guard(ctx, f, node)
    if guard is None:
        return False
    uniform = Uniform(ctx, f, guard)
    for sub in ctx.src.index.under(node, "subscript_expression") + \
            ([node] if node.type == "subscript_expression" else []):
        idx = sub.child_by_field_name("indices")
        if idx is not None and not uniform.expr(idx):
            return False
    return True


def _guard(ctx, f, node: Node) -> Node | None:
    """The consequence of the innermost enclosing `if` of `f` that tests one x index, or None."""
    return guarded_by(ctx, f, node, _one_index)


def guarded_by(ctx, f, node: Node, test) -> Node | None:
    """The consequence of the innermost enclosing `if` of `f` (node in it) with a conjunct c of its condition
    for which test(ctx, f, c) holds, or None."""
    n = node
    while n is not None and n != f.body:
        p = n.parent
        if p is not None and p.type == "if_statement" and p.child_by_field_name("consequence") == n and \
                any(test(ctx, f, c) for c in conjuncts(p.child_by_field_name("condition"))):
            return n
        n = p
    return None


def conjuncts(cond: Node | None) -> list[Node]:
    while cond is not None and cond.type in ("parenthesized_expression", "condition_clause") and \
            cond.named_child_count == 1:
        cond = cond.named_children[0]
    if cond is None:
        return []
    op = cond.child_by_field_name("operator") if cond.type == "binary_expression" else None
    if op is not None and op.type in ("&&", "and"):
        return conjuncts(cond.child_by_field_name("left")) + conjuncts(cond.child_by_field_name("right"))
    return [cond]


def _one_index(ctx, f, c: Node) -> bool:
    """`t == K`, `K == t` or `!t` with t the x index (is_x) and K an integer literal."""
    if c.type == "unary_expression" and c.child_by_field_name("operator").type == "!":
        return is_x(ctx, f, c.child_by_field_name("argument"))
    op = c.child_by_field_name("operator") if c.type == "binary_expression" else None
    if op is None or op.type != "==":
        return False
    left, right = c.child_by_field_name("left"), c.child_by_field_name("right")
    return (is_x(ctx, f, left) and right.type == "number_literal") or \
        (is_x(ctx, f, right) and left.type == "number_literal")


def is_x(ctx, f, e: Node | None) -> bool:
    if e is None:
        return False
    text = ctx.text(e)
    if _COPY.match(text):
        return True
    return e.type == "identifier" and is_x_copy(ctx, f, text)


def is_x_copy(ctx, f, name: str) -> bool:
    """Whether the local `name` of f is declared once, from threadIdx.x, and never assigned after."""
    inits = _declared(ctx, f, name)
    return len(inits) == 1 and inits[0][1] is not None and _COPY.match(ctx.text(inits[0][1])) is not None and \
        not _stored(ctx, f, name)


def _declared(ctx, f, name: str) -> list[tuple[Node, Node | None]]:
    """(declarator, initialiser) of each declaration of `name` in f's body."""
    out = []
    for s in ctx.src.index.under(f.body, "declaration"):
        for d in s.children_by_field_name("declarator"):
            if ident_name(d) == name:
                out.append((d, d.child_by_field_name("value") if d.type == "init_declarator" else None))
    return out


def _stored(ctx, f, name: str) -> list[Node]:
    """The assignments and updates of `name` in f's body."""
    out = []
    for n in ctx.src.index.under_types(f.body, "assignment_expression", "update_expression"):
        t = n.child_by_field_name("left" if n.type == "assignment_expression" else "argument")
        if t is not None and t.type == "identifier" and ctx.text(t) == name:
            out.append(n)
    return out


class Uniform:
    """Which names have one value in every thread that enters the guarded section `guard` of f."""

    def __init__(self, ctx, f, guard: Node):
        self.ctx, self.f, self.guard = ctx, f, guard
        self.memo: dict[str, bool] = {}

    def expr(self, e: Node) -> bool:
        ids = [e] if e.type == "identifier" else self.ctx.src.index.under(e, "identifier")
        return all(self.name(self.ctx.text(i)) for i in ids)

    def name(self, name: str) -> bool:
        if name not in self.memo:
            self.memo[name] = False  # (a name defined through itself proves nothing)
            self.memo[name] = self._name(name)
        return self.memo[name]

    def _name(self, name: str) -> bool:
        if name == "threadIdx":
            return False
        f, ctx = self.f, self.ctx
        decls = _declared(ctx, f, name)
        if decls:
            g = self.guard
            if len(decls) != 1 or not g.start_byte <= decls[0][0].start_byte < g.end_byte:
                return False
            init = decls[0][1]
            return (init is None or self.expr(init)) and all(self._store(s) for s in _stored(ctx, f, name))
        if f.param(name) is not None:
            return f.is_kernel and all(self._store(s) for s in _stored(ctx, f, name))
        return True

    def _store(self, s: Node) -> bool:
        if s.type == "update_expression":
            return True
        right = s.child_by_field_name("right")
        return right is not None and self.expr(right)
