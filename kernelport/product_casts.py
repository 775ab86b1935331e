"""`(col*(stride))`: a product that tree-sitter reads as a cast.

C++ decides `(NAME * (x))` by name lookup: a cast `(NAME*)(x)` where NAME is a type, a product where it
is a variable. tree-sitter cannot look names up and reads such a text as a cast_expression: `(col*(stride))+kw`
even as a cast of `+kw` to the type `col *(stride)`, a pointer to a function taking a `stride` (cuda-c-dl's
conv2d.cu, col an `int`). A pass that rewrites pointer casts (Metal writes an address space into the cast's
type) must leave these alone: `(thread col*(stride))` is no Metal. Here a cast is a product when its type is
one bare name and a pointer declarator (whatever follows the `*`) and that name is declared as a variable or
parameter before it in the function around it, or at file scope: a variable's name hides a type's, so no
such cast is one.
"""
from __future__ import annotations

from tree_sitter import Node

from .source import ident_name

_VARIABLES = ("declaration", "parameter_declaration")


def _declares(src, d: Node, name: str) -> bool:
    """Whether declaration `d` declares a variable (not a function) named `name`."""
    for x in d.children_by_field_name("declarator"):
        inner = x
        while inner is not None and inner.type in ("init_declarator", "pointer_declarator",
                                                    "reference_declarator", "array_declarator"):
            inner = inner.child_by_field_name("declarator")
        if inner is not None and inner.type == "identifier" and ident_name(x) == name:
            return True
    return False


def is_product(src, fn: Node | None, cast: Node) -> bool:
    """Whether the cast_expression `cast` (in function `fn`, None at file scope) is C++'s product."""
    if cast.type != "cast_expression":
        return False
    td = cast.child_by_field_name("type")
    if td is None or td.named_child_count != 2:
        return False
    t, decl = td.named_children
    if t.type != "type_identifier" or decl.type != "abstract_pointer_declarator":
        return False
    name = src.text_of(t)
    if fn is not None:
        for kind in _VARIABLES:
            for d in src.index.under(fn, kind):
                if d.start_byte > cast.start_byte:
                    break
                if _declares(src, d, name):
                    return True
    root = cast
    while root.parent is not None:
        root = root.parent
    return any(c.type == "declaration" and c.start_byte < cast.start_byte and _declares(src, c, name)
               for c in root.named_children)
