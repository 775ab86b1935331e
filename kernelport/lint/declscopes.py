"""The divergence pass's scopes: every identifier of a function resolved to the declaration it names.

A parameter's key is `name@start` of its declaration, a local's `name@start` of its declarator's
identifier; a name no scope of the function declares is a global (divergence.Divergence.key).  The
walk enters each node once: a block, loop, lambda or catch clause opens a scope, a declaration's
value and array sizes are read in the scope before its name is declared there.
"""
from __future__ import annotations

from tree_sitter import Node

from .. import model

_SCOPES = frozenset({"compound_statement", "for_statement", "for_range_loop", "lambda_expression", "catch_clause"})
_NAMES = ("identifier", "field_identifier")


def resolve(d, f) -> None:
    """Fill the keys of `f`'s identifiers into the divergence analysis `d` (keys, decl_at,
    local_arrays, shared_keys)."""
    text_of, keys, decl_at = d.src.text_of, d.keys, d.decl_at
    scope: dict[str, str] = {}
    for p in f.params:
        k = f"{p.name}@{p.node.start_byte}"
        scope[p.name] = k
        decl_at[k] = -1

    def declare(name_node: Node, dn: Node, scope: dict) -> None:
        name = text_of(name_node)
        k = f"{name}@{name_node.start_byte}"
        scope[name] = k
        keys[name_node.start_byte] = k
        decl_at[k] = name_node.start_byte
        if dn.type == "array_declarator" or (dn.type == "init_declarator" and
                                             dn.child_by_field_name("declarator") is not None and
                                             dn.child_by_field_name("declarator").type == "array_declarator"):
            d.local_arrays.add(k)

    def visit(n: Node, scope: dict) -> None:
        t = n.type  # (identifiers first: most of the nodes visited)
        if t == "identifier":
            k = scope.get(text_of(n))
            if k is not None:
                keys[n.start_byte] = k
            return
        if t == "declaration":
            for dn in n.children_by_field_name("declarator"):
                val = dn.child_by_field_name("value") if dn.type == "init_declarator" else None
                if val is not None:
                    visit(val, scope)
                dd = dn
                while dd is not None and dd.type not in _NAMES:
                    if dd.type == "array_declarator" and dd.child_by_field_name("size") is not None:
                        visit(dd.child_by_field_name("size"), scope)
                    dd = model.inner_declarator(dd)
                if dd is not None and dd.type == "identifier":
                    declare(dd, dn, scope)
                    if any(c.type == "type_qualifier" and text_of(c) == "__shared__" for c in n.children):
                        d.shared_keys.add(scope[text_of(dd)])
            return
        if t in _SCOPES:
            scope = dict(scope)
        for c in n.children:
            if c.child_count or c.type == "identifier":  # (a leaf that is no identifier holds no name)
                visit(c, scope)

    visit(f.body, scope)
