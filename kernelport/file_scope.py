"""The items at file scope of a parse, listed once per parse: a file-scope walk that many per-function
asks (blockdims' constant reads, infer_types' tables, host values) made again per ask."""
from __future__ import annotations

from tree_sitter import Node

# Containers whose children are file-scope items (an `#if` branch, a namespace, `extern "C"`).
SCOPE_CONTAINERS = ("translation_unit", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
                    "preproc_elifdef", "namespace_definition", "declaration_list", "linkage_specification")


def file_scope_items(src) -> tuple[Node, ...]:
    """The items at file scope (in `#if` branches, namespaces and `extern "C"` too), in order.  Read-only
    (a tuple); listed once per parse: kept on `src` with the tree it was listed from (a new tree: listed again)."""
    kept = src.__dict__.get("_kp_file_scope")
    if kept is not None and kept[0] is src.tree:
        return kept[1]
    got = _items(src.tree.root_node)
    src.__dict__["_kp_file_scope"] = (src.tree, got)
    return got


def _items(root: Node) -> tuple[Node, ...]:
    """file_scope_items(), listed."""
    out: list[Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        for c in reversed(n.children):
            if c.type in SCOPE_CONTAINERS:
                stack.append(c)
            elif c.is_named and c.type != "comment":
                out.append(c)
    return tuple(sorted(out, key=lambda n: n.start_byte))
