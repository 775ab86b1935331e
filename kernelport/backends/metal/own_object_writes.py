"""Whether a non-const member function may write its own object (object_copies.py asks before calling one
on a thread copy of a device, threadgroup or constant object: a write would land in the copy and be lost).

Counted as a write, conservatively: an assignment or increment of a data member (`n = 0`, `a[i] += x`,
`s.x = 1`: the lvalue's root is a field of the class), a member's address (`&a`, an array member decayed in
an argument or an initialiser), a member given to any call (a reference parameter may write it) or named in
a reference's initialiser, `this`, a member call on a member (`v.set(1)`), and a call of the class's own
member functions that is not known to write nothing (followed by name, `bump(k)`, `D::bump(k)`, `set<2>(k)`;
a qualified one not found counts).  A local or parameter of the member's name hides it only in its own
block, after its declaration.  Reads of
members, writes to locals, parameters and memory (the latter asked of callee_writes.py) are not.
"""
from __future__ import annotations

from collections.abc import Mapping

from tree_sitter import Node

from ...model import Function
from ...source import SourceFile, walk

_LVALUE_STEPS = ("subscript_expression", "field_expression", "parenthesized_expression", "pointer_expression")


def writes_own_object(src: SourceFile, h: Function, fields: frozenset[str], functions: Mapping[str, Function],
                      cls: str, seen: set | None = None) -> bool:
    """Whether h, a member of `cls` whose data members are `fields`, may write its own object."""
    seen = set() if seen is None else seen
    if id(h.node) in seen:
        return False
    seen.add(id(h.node))
    if h.body is None:
        return True
    local = _locals(src, h)
    for n in walk(h.body):
        if n.type == "this":
            return True
        if n.type in ("assignment_expression", "update_expression"):
            target = n.child_by_field_name("left" if n.type == "assignment_expression" else "argument")
            if _root(src, target, fields, local):
                return True
        elif n.type == "pointer_expression" and src.text_of(n.child_by_field_name("operator")) == "&":
            if _root(src, n.child_by_field_name("argument"), fields, local):
                return True
        elif n.type == "init_declarator" and _aliases(src, n):
            if n.child_by_field_name("value") is not None and _root(src, n.child_by_field_name("value"), fields, local):
                return True  # `int &r = a;`, `int *p = arr;`, `auto q = arr;` (a value's copy, `int m = n;`, is a read)
        elif n.type == "call_expression":
            args = n.child_by_field_name("arguments")
            if any(_root(src, a, fields, local) for a in (args.named_children if args is not None else ())):
                return True
            fn = n.child_by_field_name("function")
            if fn is not None and fn.type == "field_expression":
                if _root(src, fn.child_by_field_name("argument"), fields, local):
                    return True  # `v.set(1)` on a member object
            elif fn is not None and fn.type in ("identifier", "qualified_identifier", "template_function"):
                scope = fn.child_by_field_name("scope") if fn.type == "qualified_identifier" else None
                qualified = scope is not None  # `D::bump(k)`, `Base::bump(k)`: a member of the object (`std::min`: not)
                while fn is not None and fn.type in ("qualified_identifier", "template_function"):
                    fn = fn.child_by_field_name("name")
                name = src.text_of(fn) if fn is not None and fn.type == "identifier" else None
                if name is None:
                    return True  # (an operator or a destructor named by qualification: not followed)
                if name in local and not qualified:
                    continue  # a functor or lambda of its own
                members = [g for g in functions.values() if g.name.split("::")[-1] == name and _member(g)]
                if (qualified and not members and src.text_of(scope) == cls.rsplit("::", 1)[-1]) or any(
                        writes_own_object(src, g, fields, functions, cls, seen) for g in members):
                    return True  # (every member of that name, whatever its class: one of them is the callee)
    return False


def _root(src: SourceFile, n: Node | None, fields: frozenset[str], local: set[str]) -> bool:
    """Whether the lvalue n (`a[i].x`, `(a)`, `*a`) is part of a data member of the own object."""
    while n is not None and n.type in _LVALUE_STEPS:
        if n.type == "parenthesized_expression":
            n = n.named_children[0] if n.named_children else None
        else:
            n = n.child_by_field_name("argument")
    if n is None or n.type != "identifier":
        return False
    name = src.text_of(n)
    return name in fields and (name not in local or not _declared_around(src, n, name, local))


def _declared_around(src: SourceFile, n: Node, name: str, local: set[str]) -> bool:
    """Whether `name` at n is a local or parameter of its own (a declaration of a block n is in, before n),
    not the member: `{ int n = 0; n++; } n += k;` writes the member at the second `n`."""
    p = n.parent
    while p is not None and p.type != "function_definition":
        for c in p.children:
            if c.start_byte >= n.start_byte:
                break
            if c.type == "declaration" and name in _declared(src, c):
                return True
        p = p.parent
    return p is not None and name in {q for q in _param_names(src, p)}


def _declared(src: SourceFile, decl: Node) -> set[str]:
    out = set()
    for d in decl.children_by_field_name("declarator"):
        while d is not None and d.type != "identifier":
            d = d.child_by_field_name("declarator") or next(
                (c for c in d.named_children if c.type == "identifier" or "declarator" in c.type), None)
        if d is not None:
            out.add(src.text_of(d))
    return out


def _param_names(src: SourceFile, fn: Node) -> set[str]:
    return {src.text_of(i) for q in walk(fn.child_by_field_name("declarator")) if q.type == "parameter_declaration"
            for i in walk(q) if i.type == "identifier"}


def _aliases(src: SourceFile, n: Node) -> bool:
    """Whether the init_declarator n declares a reference or pointer (or a deduced type, which may be one)."""
    d = n.child_by_field_name("declarator")
    t = n.parent.child_by_field_name("type") if n.parent is not None else None
    return (d is not None and d.type in ("reference_declarator", "pointer_declarator")) or \
        (t is not None and t.type == "placeholder_type_specifier") or (t is not None and src.text_of(t) == "auto")


def _member(g: Function) -> bool:
    p = g.node.parent if g.template_node is None else g.template_node.parent
    return "::" in g.name or (p is not None and p.type == "field_declaration_list")


def _locals(src: SourceFile, h: Function) -> set[str]:
    """h's parameters and locals (which hide members of their name)."""
    out = {p.name for p in h.params}
    for n in walk(h.body):
        if n.type == "declaration":
            out |= _declared(src, n)
    return out
