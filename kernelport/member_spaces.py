"""Member functions defined out of the class with an execution space their declaration lacks.

nvcc takes `__device__` on an out-of-line definition (`__device__ void Lock::acquire() {...}`)
for a member declared in the class without it; clang, which compiles HIP, keeps host and device
functions apart and refuses the definition ("out-of-line definition does not match any
declaration").  Where the backend's compiler needs them (`Backend.member_spaces_in_class`), the
port gives the in-class declaration the definition's `__host__`/`__device__`: what nvcc made of
it, so nvcc still compiles the port the same.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends

_SPACES = ("__host__", "__device__")


def _spaces(text: str) -> tuple[str, ...]:
    return tuple(s for s in _SPACES if re.search(rf"\b{s}\b", text))


def _declarator(node: Node) -> Node | None:
    """The function_declarator of a declaration or definition (under pointers and references)."""
    d = node.child_by_field_name("declarator")
    while d is not None and d.type in ("pointer_declarator", "reference_declarator"):
        d = d.child_by_field_name("declarator") or next((c for c in d.named_children if c.type.endswith("declarator")), None)
    return d if d is not None and d.type == "function_declarator" else None


def _arity(fd: Node) -> int:
    params = fd.child_by_field_name("parameters")
    return 0 if params is None else sum(c.type in ("parameter_declaration", "optional_parameter_declaration",
                                                   "variadic_parameter_declaration") for c in params.named_children)


class MemberSpaces:
    """Mixin of the Translator: the pass that gives in-class declarations their definitions' spaces."""

    def rewrite_member_spaces(self) -> None:
        if not backends.get(self.backend).member_spaces_in_class:
            return
        text = self.src.text_of
        classes: dict[str, Node] = {}
        wanted: dict[tuple[str, str, int], tuple[str, ...]] = {}
        for n in self.src.index.of_types("class_specifier", "struct_specifier", "function_definition"):
            if n.type in ("class_specifier", "struct_specifier") and n.child_by_field_name("body") is not None \
                    and n.child_by_field_name("name") is not None:
                classes.setdefault(text(n.child_by_field_name("name")), n)
            elif n.type == "function_definition":
                fd = _declarator(n)
                q = fd.child_by_field_name("declarator") if fd is not None else None
                if q is None or q.type != "qualified_identifier" or q.child_by_field_name("scope") is None:
                    continue
                scope, name = q.child_by_field_name("scope"), q.child_by_field_name("name")
                if scope.type == "template_type":  # `Box<T>::get`
                    scope = scope.child_by_field_name("name")
                spaces = _spaces(self.src.data[n.start_byte:fd.start_byte].decode("utf-8", "replace"))
                if spaces and name is not None:
                    wanted[(text(scope), text(name), _arity(fd))] = spaces
        for (cls, name, arity), spaces in wanted.items():
            body = classes[cls].child_by_field_name("body") if cls in classes else None
            if body is None:
                continue
            for decl in body.named_children:
                inner = decl.named_children[-1] if decl.type == "template_declaration" and decl.named_children else decl
                if inner.type not in ("declaration", "field_declaration"):
                    continue
                fd = _declarator(inner)
                if fd is None or fd.child_by_field_name("declarator") is None or \
                        text(fd.child_by_field_name("declarator")) != name or _arity(fd) != arity:
                    continue
                if _spaces(self.src.data[inner.start_byte:fd.start_byte].decode("utf-8", "replace")):
                    continue  # the declaration says where it runs: nvcc would hold it to that
                words = " ".join(spaces)
                self.rw.insert_before(inner, words + " ")
                self.note(inner, words, f"'{cls}::{name}' is defined {words} out of the class; clang needs the "
                          "declaration to say so too")
