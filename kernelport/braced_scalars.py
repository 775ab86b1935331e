"""A scalar declared with a braced initializer of one value, `const int tid{threadIdx.y * 8 + threadIdx.x};`,
is that value as `const int tid = ...;` declares it (C++11's list initialisation of an arithmetic type):
the warp analyses (kernelport/warpflow.py) read what the value says (a thread index, a lane, a warp) through
either spelling.  An array, a struct or a list of several values is no scalar (None)."""
from __future__ import annotations

from tree_sitter import Node

_SCALAR_TYPES = ("primitive_type", "sized_type_specifier")  # int, float, unsigned int, long long


def braced_scalar(type_node: Node | None, declarator: Node, init: Node) -> Node | None:
    """The one value of `init` (an initializer_list) where `declarator` declares a plain variable of an
    arithmetic type `type_node` (`int tid{e}`: e), else None (`int a[2]{e}`, `float3 v{e}`, `int t{a, b}`)."""
    inner = declarator.child_by_field_name("declarator")
    if type_node is None or type_node.type not in _SCALAR_TYPES or inner is None or inner.type != "identifier":
        return None
    values = init.named_children
    return values[0] if len(values) == 1 and values[0].type not in ("initializer_list", "comment") else None
