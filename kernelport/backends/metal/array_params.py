"""Array-typed kernel parameters (`__global__ void k(float var_nodes[_N], unsigned idx[], float b[][4])`):
C adjusts a parameter of array type to a pointer to its element (the first dimension is dropped, the rest
stay: `float b[][4]` is `float (*b)[4]`), so CUDA passes a buffer.  Metal's compiler refuses a kernel
parameter of array type in device memory ("must be a pointer or reference"), so the port spells the
adjusted type the C rule gives: `device float* var_nodes`, `device float (*b)[4]`.  Helpers keep what
the user wrote (Metal adjusts a helper's array parameter as C does)."""
from __future__ import annotations

from tree_sitter import Node


def first_dimension(d: Node) -> Node | None:
    """The array declarator of a parameter's first dimension (`b[]` in `b[][4]`): the innermost one of an
    array declarator chain that ends at the name; None where the declarator is not an array of that form
    (`*a[N]`, an array of pointers, keeps its text and the checker's verdict)."""
    n = d
    while n is not None and n.type == "array_declarator":
        inner = n.child_by_field_name("declarator")
        if inner is not None and inner.type == "identifier":
            return n
        n = inner
    return None


def decayed(rw, d: Node) -> str | None:
    """The declarator `d` (an array parameter) spelled as the pointer C adjusts it to, from the rewritten
    text (`a[N]` -> `*a`, `b[][4]` -> `(*b)[4]`); None where `d` is no such array."""
    first = first_dimension(d)
    if first is None:
        return None
    text, head = rw.text(d), rw.text(first)
    if not text.startswith(head):
        return None
    name = rw.text(first.child_by_field_name("declarator"))
    rest = text[len(head):]
    return (f"(*{name})" if rest.strip() else f"*{name}") + rest
