"""Arithmetic on a CUDA integer address type the backend spells as a pointer (Backend.address_types:
CUDA's `CUdeviceptr` is `unsigned long long`, HIP's `hipDeviceptr_t` is `void *`, on which C++ has no
arithmetic): the sum goes through the backend's byte pointer, so it still adds bytes."""
from __future__ import annotations

from tree_sitter import Node

from . import backends


def rewrite_arithmetic(tr, target: Node, name: str, spelled: str) -> None:
    """`(CUdeviceptr)p + n` (or `n + (CUdeviceptr)p`, `(CUdeviceptr)p - n`), `target` the type's name
    `name` spelled `spelled`: an integer address plus n bytes in CUDA; where the backend's type is a
    pointer (`void *`), the sum goes through its byte pointer `via`: `(hipDeviceptr_t)((char *)(p) + (n))`.  Other uses of the type stay a rename."""
    via = backends.get(tr.backend).address_types.get(name)
    if via is None:
        return
    desc = target.parent
    cast = desc.parent if desc is not None and desc.type == "type_descriptor" else None
    if cast is None or cast.type != "cast_expression" or cast.child_by_field_name("type") != desc:
        return
    expr = cast.parent
    while expr is not None and expr.type == "parenthesized_expression":
        cast, expr = expr, expr.parent
    if expr is None or expr.type != "binary_expression":
        return
    op = tr.src.text_of(expr.child_by_field_name("operator"))
    left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
    other = right if left == cast else left
    value, both = _cast_value(cast), _cast_value(other)
    address = both is not None and tr.src.text_of(_cast_of(other).child_by_field_name("type")).strip() in \
        backends.get(tr.backend).address_types
    if op not in ("+", "-") or value is None or (op == "-" and left != cast and not address) or (address and op == "+"):
        return

    def sum_(rw, node, value=value, other=other, op=op, left=left == cast):
        if address:  # an address minus an address: the byte count between them
            a, b_ = (f"({via})({rw.text(v)})" for v in ((value, both) if left else (both, value)))
            return f"({a} - {b_})"
        a, b_ = f"({via})({rw.text(value)})", f"({rw.text(other)})"
        return f"({spelled})({a} {op} {b_})" if left else f"({spelled})({b_} {op} {a})"
    tr.rw.replace(expr, sum_)


def _cast_value(node: Node) -> Node | None:
    """The operand of a cast, through parentheses (`((T)x)` -> x)."""
    while node is not None and node.type == "parenthesized_expression":
        node = node.named_children[0] if node.named_children else None
    return node.child_by_field_name("value") if node is not None and node.type == "cast_expression" else None


def _cast_of(node: Node) -> Node:
    """The cast expression `node` is, through parentheses."""
    while node.type == "parenthesized_expression":
        node = node.named_children[0]
    return node
