"""The field a member access names, where this file defines the class: `s.buf`, `p->buf`, `this->buf`, and a
bare `buf` inside a member function of the class (defined in its body, or out of it as `C::f`).

kernelport/nvcc_leniencies.py asks it whether `delete[] s.buf` deletes an array: the declarator returned is
the field's own (`int buf[4];`), so the caller judges its shape.  The object's class is read from what the
code writes, never guessed: `this` is the class of the member function around the access; an identifier is
a local or parameter of the function around it (the nearest declared before the access), else a file-scope
variable, and its written type (`S`, `struct S`, `const S &`, `S<T>`) names a class this file defines with a
body, one of that name only.  `.` needs an object or a reference, `->` a pointer of one level (or an array of
the class, which decays to one).  Anything else gives None: a call, a subscript, a chain (`a.b.buf`), a
base class's field, a class a header defines or an unnamed typedef'd struct."""
from __future__ import annotations

import re

from tree_sitter import Node

from .host_typed_functors import _classes as classes
from .source import ident_name

_RECORDS = ("struct_specifier", "class_specifier", "union_specifier")


def field_of(tr, access: Node) -> Node | None:
    """The declarator of the field `access` (a field_expression) names, where its class is known."""
    src = tr.src
    obj, field = access.child_by_field_name("argument"), access.child_by_field_name("field")
    op = access.child_by_field_name("operator")
    if obj is None or field is None or field.type != "field_identifier" or op is None:
        return None
    arrow = src.text_of(op) == "->"
    if obj.type == "this":
        rec = enclosing_class(tr, access) if arrow else None
    elif obj.type == "identifier":
        rec = _object_class(tr, obj, arrow)
    else:
        return None
    return _field(src, rec, src.text_of(field)) if rec is not None else None


def own_field(tr, at: Node, name: str) -> Node | None:
    """The declarator of the field `name` of the class whose member function holds `at`, if it has one."""
    rec = enclosing_class(tr, at)
    return _field(tr.src, rec, name) if rec is not None else None


def enclosing_class(tr, at: Node) -> Node | None:
    """The class (its specifier node) whose member function definition holds `at`: written in the class's
    body, or out of it under the class's qualified name (`void S::f()`, `void S<T>::f()`)."""
    fn = at
    while fn is not None and fn.type != "function_definition":
        fn = fn.parent
    if fn is None:
        return None
    p = fn.parent
    while p is not None and p.type == "template_declaration":
        p = p.parent
    if p is not None and p.type == "field_declaration_list":
        rec = p.parent
        return rec if rec is not None and rec.type in _RECORDS else None
    d = fn.child_by_field_name("declarator")
    while d is not None and d.type in ("pointer_declarator", "reference_declarator"):
        d = d.child_by_field_name("declarator") or (d.named_children[-1] if d.named_children else None)
    if d is None or d.type != "function_declarator":
        return None
    q = d.child_by_field_name("declarator")
    if q is None or q.type != "qualified_identifier":
        return None
    scope = q.child_by_field_name("scope")
    if scope is None:
        return None
    name = scope.child_by_field_name("name") if scope.type == "template_type" else scope
    return classes(tr.src).get(tr.src.text_of(name)) if name is not None else None


def _field(src, rec: Node, name: str) -> Node | None:
    body = rec.child_by_field_name("body")
    for item in body.named_children if body is not None else ():
        if item.type != "field_declaration":
            continue
        for d in item.children_by_field_name("declarator"):
            if d.type != "function_declarator" and ident_name(d) == name:
                return d
    return None


def _object_class(tr, obj: Node, arrow: bool) -> Node | None:
    """The class of the variable `obj` names, where its declaration's shape fits the access."""
    type_node, decl = _declaration(tr, obj)
    if type_node is None or decl is None:
        return None
    if decl.type == "init_declarator":
        decl = decl.child_by_field_name("declarator")
    if arrow:
        if decl is None or decl.type not in ("pointer_declarator", "array_declarator"):
            return None
        inner = decl.child_by_field_name("declarator")
        if inner is None or inner.type != "identifier":
            return None  # a pointer to a pointer, an array of pointers
    elif decl is None or decl.type not in ("identifier", "reference_declarator"):
        return None
    if type_node.type not in ("type_identifier", "template_type", *_RECORDS):
        return None
    name = type_node.child_by_field_name("name") if type_node.type != "type_identifier" else type_node
    if name is None:
        return None
    text = re.sub(r"\s+", "", tr.src.text_of(name))
    return classes(tr.src).get(text)


def _declaration(tr, ident: Node) -> tuple[Node | None, Node | None]:
    """(the written type node, the declarator) of the variable `ident` names: the nearest local or parameter
    of the function around it declared before it, else a file-scope variable."""
    src, name = tr.src, tr.src.text_of(ident)
    fn = ident
    while fn is not None and fn.type != "function_definition":
        fn = fn.parent
    if fn is not None:
        found, at = (None, None), -1  # (the nearest: declared last before it, in a scope holding it)
        for kind in ("parameter_declaration", "declaration"):
            for d in src.index.under(fn, kind):
                if d.start_byte > ident.start_byte:
                    break
                scope = _parameter_scope(d) if kind == "parameter_declaration" else d.parent
                if scope is None or not _inside(ident, scope) or d.start_byte < at:
                    continue
                for x in d.children_by_field_name("declarator"):
                    if ident_name(x) == name:
                        found, at = (d.child_by_field_name("type"), x), d.start_byte
        if found[1] is not None:
            return found
    from .model import file_scope_items
    found = (None, None)
    for item in file_scope_items(src):
        if item.type == "declaration" and item.start_byte < ident.start_byte:
            for x in item.children_by_field_name("declarator"):
                if x.type != "function_declarator" and ident_name(x) == name:
                    found = (item.child_by_field_name("type"), x)
    return found


def _parameter_scope(d: Node) -> Node | None:
    """Where parameter `d` is seen: its lambda (`[&](W w) { w.put(q); }`: not the function around it, whose
    `R w` it hides inside the lambda only), else its function."""
    p = d.parent
    while p is not None and p.type not in ("lambda_expression", "function_definition"):
        p = p.parent
    return p


def _inside(node: Node, outer: Node) -> bool:
    return outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte
