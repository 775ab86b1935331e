"""`static` on the definition, outside its namespace, of a function the namespace declared without it:
`namespace F { template <typename T> T* make(int n); }` then `template <typename T> static T* F::make(int n)
{ ... }` (heldout74, CU.Pressor's CuBufferFactory.h).  The standard makes it ill-formed (the two
declarations' linkages disagree); nvcc's EDG front end and g++ accept it and keep the first declaration's
external linkage, clang rejects it ("static declaration of 'make' follows non-static declaration").  The
port writes the definition without `static` (kernelport/lexing.respell_for_clang), what nvcc compiled.

Left alone: a `static` definition whose name is not qualified, or qualified by a scope that is no namespace
this file declares (a class member's out-of-class definition: nvcc rejects `static` there itself), and one
whose namespace declares the function `static` too (legal, internal linkage: dropping it would change
the linkage) or does not declare it in this file (nothing to agree with)."""
from __future__ import annotations

from tree_sitter import Node

from .source import ident_name


def _name_node(fn: Node) -> Node | None:
    d = fn.child_by_field_name("declarator")
    while d is not None and d.type in ("pointer_declarator", "reference_declarator"):
        d = d.child_by_field_name("declarator") or (d.named_children[-1] if d.named_children else None)
    return d.child_by_field_name("declarator") if d is not None and d.type == "function_declarator" else None


def _statics(src, node: Node) -> list[Node]:
    return [c for c in node.children if c.type == "storage_class_specifier" and src.text_of(c) == "static"]


def _declared_static(src, namespaces: list[Node], name: str) -> bool | None:
    """Whether the namespaces' own declarations of `name` (a prototype, a template's) say `static`: True,
    False, or None where none declares it."""
    seen = None
    for ns in namespaces:
        for decl in src.index.under(ns, "declaration"):
            for d in decl.children_by_field_name("declarator"):
                if ident_name(d) == name:
                    seen = bool(seen) or bool(_statics(src, decl))
    return seen


def qualified_statics(src) -> list[Node]:
    """The `static` keywords to drop (see the module's docstring)."""
    spaces: dict[str, list[Node]] = {}
    for ns in src.index.of_type("namespace_definition"):
        name = ns.child_by_field_name("name")
        if name is not None:
            spaces.setdefault(src.text_of(name), []).append(ns)
    out: list[Node] = []
    if not spaces:
        return out
    for fn in src.index.of_type("function_definition"):
        statics = _statics(src, fn)
        name = _name_node(fn) if statics else None
        if name is None or name.type != "qualified_identifier":
            continue
        scope, member = name.child_by_field_name("scope"), name.child_by_field_name("name")
        if scope is None or member is None or scope.type != "namespace_identifier" or member.type != "identifier":
            continue
        if _declared_static(src, spaces.get(src.text_of(scope), []), src.text_of(member)) is False:
            out.extend(statics)
    return out
