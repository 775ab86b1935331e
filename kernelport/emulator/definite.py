"""Locals declared without a value that every path assigns before any read (C#'s definite
assignment, on pycparser's AST): `float s; if (c) s = a; else s = b; use(s);`.

Such a local can never be read unwritten, so the emulator need not mark the lanes its first
assignment leaves (emulator.undefined): they are assigned by the other branch before anything
reads them.  The walk is conservative: any mention that is not a plain `name = expr` (a compound
assignment, a component, `&name`, a call, a nested declaration of the same name) counts as a read,
a loop's body may not run, `break`/`continue` leave the path unfinished and `goto` gives up.  Only
`return` ends a path (its lanes never read the local again).
"""
from __future__ import annotations

from pycparser import c_ast

NONE, MAYBE, ASSIGNED, READ, EXIT = range(5)  # MAYBE: assigned on some paths, read on none


def assigned_before_read(stmts, name: str) -> bool:
    """Whether the statements (those of a block after the declaration of `name`) assign it on every
    path that reads it, before the read."""
    return _seq(stmts, name) != READ  # (MAYBE: assigned on some paths and never read after, in its scope)


def _mentions(node, name: str) -> bool:
    if isinstance(node, c_ast.ID):
        return node.name == name
    return any(_mentions(c, name) for _, c in node.children())


def _seq(stmts, name: str) -> int:
    seen = NONE
    for s in stmts:
        r = _stmt(s, name)
        if r in (ASSIGNED, READ, EXIT):
            return r
        seen = max(seen, r)
    return seen


def _stmt(node, name: str) -> int:
    if node is None:
        return NONE
    if isinstance(node, c_ast.Compound):
        return _seq(node.block_items or [], name)
    if isinstance(node, c_ast.Assignment) and node.op == "=" and isinstance(node.lvalue, c_ast.ID) and \
            node.lvalue.name == name:
        return READ if _mentions(node.rvalue, name) else ASSIGNED
    if isinstance(node, c_ast.If):
        if _mentions(node.cond, name):
            return READ
        return _join(_stmt(node.iftrue, name), _stmt(node.iffalse, name))
    if isinstance(node, (c_ast.For, c_ast.While)):
        init = _stmt(node.init, name) if isinstance(node, c_ast.For) else NONE
        if init != NONE:
            return init if init in (READ, ASSIGNED, EXIT) else READ
        if any(_mentions(x, name) for x in (node.cond, getattr(node, "next", None)) if x is not None):
            return READ
        body = _stmt(node.stmt, name)
        return READ if body == READ else MAYBE if body in (ASSIGNED, MAYBE) else NONE
    if isinstance(node, c_ast.DoWhile):
        body = _stmt(node.stmt, name)
        if body in (ASSIGNED, EXIT) and _leaves(node.stmt):
            body = MAYBE  # (a `break` may leave before the assignment)
        if body in (READ, ASSIGNED, EXIT):
            return body
        return READ if _mentions(node.cond, name) else body
    if isinstance(node, c_ast.Return):
        return READ if node.expr is not None and _mentions(node.expr, name) else EXIT
    if isinstance(node, (c_ast.Goto, c_ast.Label)) or (isinstance(node, c_ast.Decl) and node.name == name):
        return READ  # (a jump, or the name shadowed: not followed)
    if isinstance(node, c_ast.DeclList):
        return _seq(node.decls, name)
    if isinstance(node, c_ast.ExprList):
        return _seq(node.exprs, name)
    return READ if _mentions(node, name) else NONE


def _leaves(node) -> bool:
    """Whether a `break` or `continue` is anywhere in node."""
    return isinstance(node, (c_ast.Break, c_ast.Continue)) or any(_leaves(c) for _, c in node.children())


def _join(a: int, b: int) -> int:
    """Both branches of an if: assigned only if each path that goes on assigned it."""
    if READ in (a, b):
        return READ
    if a == EXIT or b == EXIT:
        return b if a == EXIT else a
    if a == b:
        return a
    return MAYBE
