"""Which kind of code a node sits in: an array bound, another constant expression, device or host code.

Its own module because lint asks it of every wave-width site, and the translator (kernelport.translate,
the heavy import) is needed by lint only to compute a `--fix` edit."""
from __future__ import annotations

from tree_sitter import Node

from .model import Module


def context(node: Node, module: Module) -> str:
    """'size' (an array bound), 'const' where C++ needs another constant expression, else 'device' or
    'host'.  A size only needs a bound on the wave width; other constants need its exact value."""
    n = node
    while n is not None:
        p = n.parent
        if p is None:
            break
        if p.type == "array_declarator" and p.child_by_field_name("size") == n:
            return "size"
        if p.type == "optional_parameter_declaration" and p.child_by_field_name("default_value") == n:
            return "const"  # a default argument cannot name another parameter (Metal's SIMD width is one)
        if p.type in ("template_argument_list", "enumerator", "case_statement", "launch_bounds",
                      "static_assert_declaration", "preproc_def"):
            return "const"
        if p.type in ("preproc_if", "preproc_elif") and p.child_by_field_name("condition") == n:
            return "const"
        if p.type == "declaration" and any(c.type == "type_qualifier" and module.source.text_of(c) == "constexpr"
                                           for c in p.children):
            return "const"
        if p.type == "function_definition":
            f = module.function_at(p)
            return "device" if f is not None and f.is_device else "host"
        n = p
    return "const"  # file scope
