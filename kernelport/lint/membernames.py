"""Whether a use of a built-in's name (`warpSize`) names a class member or a scoped name instead.

SPH-EXA's `struct GpuConfig { static constexpr int warpSize = 32; static_assert(warpSize == 32 ||
warpSize == 64, ...); };` and its kernels' `groupSize / GpuConfig::warpSize` use the project's own
constant, which is constant: it is not the run-time built-in that WS013 is about (WS001 judges the
value).  Two cases, both read off the tree, not the spelling of one project:

- qualified: `Cfg::warpSize`, `ns::Cfg::warpSize` (a scope before `::`).  `::warpSize` (the global
  scope) is still the built-in.
- an enumerator's own name (`enum { warpSize = 32 };`: a declaration, not a use);
- unqualified inside a class body that declares a member of that name (a field or an enumerator of an
  enum in the body, in any preprocessor branch of the body): C++ looks the name up in the class first, so in the class's
  `static_assert`s, member initialisers, member types and the bodies of the member functions
  written there, it is the member.  Outside the class (a free function, another class) it is the
  built-in again.
"""
from __future__ import annotations

from tree_sitter import Node

_BRANCHES = ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef")


def names_member(ctx, node: Node, name: str) -> bool:
    """Whether `name` at `node` (an identifier) is a scoped name or a member of an enclosing class."""
    p = node.parent
    if p is not None and p.type == "enumerator" and p.child_by_field_name("name") == node:
        return True
    if p is not None and p.type == "qualified_identifier" and \
            (nm := p.child_by_field_name("name")) is not None and nm.start_byte == node.start_byte:
        return p.child_by_field_name("scope") is not None  # `::warpSize`: the built-in, in a class too
    while p is not None:
        if p.type == "field_declaration_list" and _declares(ctx, p, name):
            return True
        p = p.parent
    return False


def _declares(ctx, body: Node, name: str) -> bool:
    """Whether the class body declares a field `name` (through preprocessor branches, not nested classes)."""
    todo = list(body.named_children)
    while todo:
        n = todo.pop()
        if n.type in _BRANCHES:
            todo.extend(n.named_children)
        elif n.type == "field_declaration":
            for d in n.children_by_field_name("declarator"):
                while d is not None and d.type not in ("field_identifier", "identifier"):
                    d = d.child_by_field_name("declarator")  # `int warpSize[2]`, `*warpSize`
                if d is not None and ctx.text(d) == name:
                    return True
            t = n.child_by_field_name("type")  # `enum { warpSize = 32 };`
            enums = t.child_by_field_name("body") if t is not None and t.type == "enum_specifier" else None
            if enums is not None and any(e.type == "enumerator" and ctx.text(e.child_by_field_name("name")) == name
                                         for e in enums.named_children):
                return True
    return False
