"""Scalars a braced list gives a vector element or member without its own braces (brace elision).

CUDA's vector types are aggregates, so `float4 a[2] = {x, y};` and `S s = {x, y};` (`struct S { float4 v;
float w; }`) read the scalars member by member: a[0] = (x, y, 0, 0), a[1] = 0; s.v = (x, y, 0, 0), s.w = 0.
Where the backend's vectors are the compiler's own (Metal's, clang's ext vectors: `vector_types_are_classes`
off) a vector takes no elided braces and a scalar converts to a whole vector by copying it to every member: the
same text is a[0] = (x, x, x, x), a[1] = (y, y, y, y) and s.v = (x, x, x, x), s.w = y, which compiles and
computes something else.  (Where they are classes, ROCm's HIP_vector_type, a scalar has no conversion: hipcc
rejects the text.)  Refused at the first such scalar (KP223), for an element of an array of vectors and a
member of the file's own struct (vector_short_lists' reading of the list's type), where the scalar's type is
known (a literal, a cast to an arithmetic type, what overload_ranks reads of a local or a parameter); an item
of unknown type, which may be a vector, stays as written.
"""
from __future__ import annotations

from tree_sitter import Node

from .overload_ranks import _ARITHMETIC, expression_type
from .vector_types import VECTORS

_LITERALS = ("number_literal", "char_literal", "true", "false")


def refuse_elided_scalars(tr, lanes_of) -> None:
    """Report the first scalar of each braced list that takes a vector's place (the module); `lanes_of(lst,
    item)` is the member count of the vector item's position takes in `lst`, else None."""
    for lst in tr.src.index.of_type("initializer_list"):
        items = [c for c in lst.named_children if c.type != "comment"]
        if not items or any(c.type == "initializer_pair" for c in items) or tr.rw.has(lst):
            continue
        for item in items:
            if item.type == "initializer_list" or lanes_of(lst, item) is None or not _scalar(tr, item):
                continue
            tr.problem("KP223", item, f"'{tr.src.text_of(item)}' initialises a vector without braces: CUDA's "
                       "aggregate reads it as the vector's first member and the next items as the rest, Metal "
                       "converts it to a whole vector (every member a copy)",
                       "brace each vector's members (`{{x, y}, w}`, `{{x, y}}`)")
            break


def vector_item(tr, n: Node) -> bool:
    """Whether expression `n` is known to be of a CUDA vector type (`u` of `float4 u`, `make_float4(...)`)."""
    f = next((g for g in tr.module.functions.values() if g.node.start_byte <= n.start_byte < g.node.end_byte), None)
    return f is not None and expression_type(tr, f, n) in VECTORS


def _scalar(tr, n: Node) -> bool:
    """Whether expression `n` is known to be of an arithmetic type."""
    while n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    if n.type in _LITERALS or n.type == "unary_expression" and _scalar(tr, n.child_by_field_name("argument")):
        return True
    if n.type == "cast_expression":
        t = n.child_by_field_name("type")
        return t is not None and " ".join(tr.src.text_of(t).split()) in _ARITHMETIC
    f = next((g for g in tr.module.functions.values() if g.node.start_byte <= n.start_byte < g.node.end_byte), None)
    return f is not None and expression_type(tr, f, n) in _ARITHMETIC
