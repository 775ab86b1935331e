"""Where C++ requires a constant expression around a node (an array size, a template argument, a
static_assert, a case label, `#if`, `__launch_bounds__`, an enumerator, a constexpr initializer, a class's
`static constexpr` or `static const` member's initializer (`static constexpr int warpSize = ::warpSize;`: the
class's own warpSize, which membernames.py reads as the project's constant, is the built-in's here)):
WS013 reports the run-time `warpSize` there (moved out of lint/rules/ws_constants.py, at its size cap)."""
from __future__ import annotations

from tree_sitter import Node


def in_macro_definition(n: Node) -> bool:
    """Whether `n` is inside a `#define`'s body."""
    p = n.parent
    while p is not None:
        if p.type in ("preproc_def", "preproc_function_def"):
            return True
        p = p.parent
    return False


def const_context(ctx, node: Node) -> str | None:
    """Where around `node` a constant expression is required (WS013's wording), or None."""
    n = node
    while n is not None:
        p = n.parent
        if p is None:
            return None
        if p.type == "array_declarator" and p.child_by_field_name("size") is not None and \
                (p.child_by_field_name("size").start_byte, p.child_by_field_name("size").end_byte) == (n.start_byte, n.end_byte):
            return "an array size"
        if p.type == "template_argument_list":
            return "a template argument"
        if p.type == "static_assert_declaration":
            return "a static_assert"
        if p.type in ("case_statement",) and n.type != "compound_statement" and p.child_by_field_name("value") is not None \
                and (p.child_by_field_name("value").start_byte, p.child_by_field_name("value").end_byte) == (n.start_byte, n.end_byte):
            return "a case label"
        if p.type in ("preproc_if", "preproc_elif") and p.child_by_field_name("condition") is not None and \
                (p.child_by_field_name("condition").start_byte, p.child_by_field_name("condition").end_byte) == (n.start_byte, n.end_byte):
            return "a preprocessor condition (where it is not a macro and reads as 0)"
        if p.type == "launch_bounds":
            return "`__launch_bounds__`"
        if p.type == "enumerator":
            return "an enumerator"
        if p.type == "declaration" and any(c.type == "type_qualifier" and ctx.text(c) == "constexpr" for c in p.children):
            return "a constexpr initializer"
        if p.type == "field_declaration" and (v := p.child_by_field_name("default_value")) is not None and \
                (v.start_byte, v.end_byte) == (n.start_byte, n.end_byte) and _static_constant(ctx, p):
            return "a constexpr initializer" if _has(ctx, p, "constexpr") else "a static const member's initializer"
        if p.type in ("compound_statement", "function_definition", "field_declaration_list"):
            return None
        n = p
    return None


def _has(ctx, decl: Node, word: str) -> bool:
    return any(c.type in ("type_qualifier", "storage_class_specifier") and ctx.text(c) == word for c in decl.children)


def _static_constant(ctx, decl: Node) -> bool:
    """A member declaration whose initializer C++ requires constant: `constexpr`, or `static const`
    (a non-static member's default initializer runs at construction: not one)."""
    return _has(ctx, decl, "constexpr") or (_has(ctx, decl, "static") and _has(ctx, decl, "const"))
