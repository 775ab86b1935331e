"""A class's static constant read in host code as a size (issue 18): llm.c's

    template<class ElementType> struct alignas(16) Packed128 {
        static constexpr const int size = sizeof(int4) / sizeof(ElementType); ... };
    typedef Packed128<floatX> x128;
    gelu<<<ceil_div(N, block_size * x128::size), block_size>>>(...);

`initializer("x128", "size", module)` follows the typedef (the project's active one) to the class
template's instantiation and gives the member's initializer with the template's parameters
replaced by its arguments, `(sizeof(int4) / sizeof(floatX))`, for host code to evaluate.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from .infer_types import _structs, _types, clean
from .model import Module

CLASSES = ("struct_specifier", "class_specifier")


def initializer(type_text: str, member: str, module: Module) -> str | None:
    """The text of `type_text::member`'s initializer (a `static` data member of a class the
    project defines), template arguments substituted; None where there is none."""
    t = clean(type_text)
    node = _types(module).get(t) if re.fullmatch(r"[A-Za-z_]\w*", t) else None
    name, args = _split(node.text.decode("utf-8", "replace") if node is not None else t)
    if name is None:
        return None
    found = _class(name, node, module)
    if found is None:
        return None
    cls, params = found
    if args and len(args) != len(params):
        return None
    init = _static_init(cls, member)
    if init is None:
        return None
    for p, a in zip(params, args):
        init = re.sub(rf"\b{re.escape(p)}\b", a, init)
    return f"({init})"


def _split(text: str) -> tuple[str | None, list[str]]:
    """`Packed128<floatX>` -> ("Packed128", ["floatX"]); a plain name -> (name, [])."""
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(?:<(.*)>)?\s*", clean(text))
    if m is None:
        return None, []
    return m.group(1), [a.strip() for a in m.group(2).split(",")] if m.group(2) else []


def _class(name: str, near: Node | None, module: Module) -> tuple[Node, list[str]] | None:
    """The class `name`'s definition and its template parameters: in the file that names it
    (`near`, a typedef in a header) or the module's own file, else a plain struct of the project."""
    roots = []
    if near is not None:
        root = near
        while root.parent is not None:
            root = root.parent
        roots.append(root)
    roots.append(module.source.root)
    if near is None and module.visible is not None:  # `Packed128<floatX>::size` named directly: the
        for n in module.visible.types.values():      # headers the project's scan read (common.h)
            while n.parent is not None:
                n = n.parent
            if all(n is not r for r in roots):
                roots.append(n)
    for root in roots:
        for item in _items(root):
            cls = next((c for c in item.named_children if c.type in CLASSES), None) \
                if item.type == "template_declaration" else item
            n = cls.child_by_field_name("name") if cls is not None and cls.type in CLASSES else None
            if n is not None and n.text.decode() == name and cls.child_by_field_name("body") is not None:
                params = item.child_by_field_name("parameters") if item.type == "template_declaration" else None
                return cls, [_param_name(p) for p in (params.named_children if params is not None else [])]
    plain = _structs(module).get(name)
    return (plain, []) if plain is not None else None


def _items(root: Node) -> list[Node]:
    stack, out = [root], []
    while stack:  # file scope, namespaces and `#if` branches
        n = stack.pop()
        for c in n.named_children:
            if c.type in ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "namespace_definition",
                          "declaration_list", "linkage_specification"):
                stack.append(c)
            else:
                out.append(c)
    return out


def _param_name(p: Node) -> str:
    ident = [c for c in p.named_children if c.type in ("type_identifier", "identifier")]
    return ident[-1].text.decode() if ident else ""


def _static_init(cls: Node, member: str) -> str | None:
    body = cls.child_by_field_name("body")
    for fd in (body.named_children if body is not None else []):
        if fd.type != "field_declaration" or not any(c.type == "storage_class_specifier" and c.text == b"static"
                                                     for c in fd.children):
            continue
        d = fd.child_by_field_name("declarator")
        value = fd.child_by_field_name("default_value")
        if d is not None and d.text.decode() == member and value is not None:
            return value.text.decode("utf-8", "replace")
    return None
