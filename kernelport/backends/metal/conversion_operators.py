"""A class's conversion operator defined outside the class, `template <typename T> B<T>::operator T*() { ... }`
(heldout74, CU.Pressor's ACuBuffer.cu): the model registers no function for it (its declarator is an
`operator_cast`, no function declarator), so the Metal port's host-code removal (hostcode.py) kept the
definition while leaving its host class out, and the checker refused the port (KP224 "no template named
'B'").  Without `__device__` (or `__global__`) before its name it is host code by CUDA's rules and is left
out like every host function; a `__device__` one stays."""
from __future__ import annotations

from tree_sitter import Node

from ...model import file_scope_items


def host_conversion_operators(src) -> list[tuple[Node, Node, str]]:
    """(file-scope item, its definition, the operator's qualified name) for each such definition."""
    out = []
    for item in file_scope_items(src):
        fn = item.named_children[-1] if item.type == "template_declaration" and item.named_children else item
        d = fn.child_by_field_name("declarator") if fn.type == "function_definition" else None
        if d is None or d.type != "qualified_identifier" or not any(c.type == "operator_cast" for c in d.children):
            continue
        if any(src.text_of(c) in ("__device__", "__global__") for c in fn.children if c.end_byte <= d.start_byte):
            continue
        out.append((item, fn, src.text_of(d).split("(", 1)[0].strip()))
    return out
