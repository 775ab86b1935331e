"""A `const` member function defined out of its class, called on an object in device, threadgroup or
constant memory: the object is copied into the thread (`Film(*f).get(i)`); a non-const one too where it
writes none of its object (own_object_writes.py: sliding-puzzle's `dev_pdb->get_hash_value(inv)`, a
member of a class with no data member that reads a table, was refused).

MSL gives an unqualified member function a `thread` object, and Metal rejects `f->get(i)` with `f` a
device pointer (object_spaces.py writes a member defined in its class once per object space, `float
get(int i) const device`; one defined out of it would need the qualifier on its in-class declaration
too, and is left with its thread object: the checker, which now models that object, refuses the call
(check/thread_members.py)).  A copy is CUDA's meaning where the member cannot tell: it is `const`
(it writes no member; a pointer member's target is the same through the copy), its class has no `mutable`
member (which a const member may write: the write would land in the copy), it writes no memory (through a
pointer that may point at the object itself: callee_writes.py), it returns no reference
(one into the copy would dangle) and it does not name `this` (an address compared or kept).  Else the
call stays as written and is refused at its line (KP224).
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ...model import Function
from ...source import walk
from .callee_writes import writes_memory
from .own_object_writes import writes_own_object


class ObjectCopies:
    """Mixin of MetalTranslator: used by the `constant_reference_copies` pass."""

    def copy_member_object(self, call: Node, f: Function, h: Function) -> None:
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "field_expression" or not self.copies_its_object(h):
            return
        cls = h.name.rsplit("::", 1)[0]
        obj = fn.child_by_field_name("argument")
        arrow = self.src.text_of(fn.child_by_field_name("operator") or fn) == "->"
        space = self.space_of(obj, f) if arrow else (self._in_memory(obj, f) or self.object_space(call, f, h))
        if obj is None or space not in ("device", "threadgroup", "constant") or self.rw.has(fn):
            return
        field = fn.child_by_field_name("field")
        self.rw.replace(fn, lambda rw, n, o=obj, a=arrow, c=cls, fld=field:
                        f"{c}({'*' if a else ''}{rw.stitch(o)}).{rw.stitch(fld)}")
        self.note(fn, f"{cls}(...).{self.src.text_of(field)}",
                  f"{h.name} is a const member defined out of its class: MSL calls it on a thread object, "
                  f"so the `{space}` object is copied into the thread")

    def copies_its_object(self, h: Function) -> bool:
        """Whether a call of h, a member defined out of its class, on a device, threadgroup or constant object
        is made on a thread copy (the conditions above); else the member is written once per object space
        where its class declares it (operator_calls.py's out_of_class_twin)."""
        memo = self.__dict__.setdefault("_kp_copies_object", {})
        if id(h.node) not in memo:
            memo[id(h.node)] = self._copies_its_object(h)
        return memo[id(h.node)]

    def _copies_its_object(self, h: Function) -> bool:
        if "::" not in h.name or self.in_class_member(h) or self._returns_reference(h) or h.body is None or \
                any(n.type == "this" for n in walk(h.body)):
            return False
        cls = h.name.rsplit("::", 1)[0]
        if not re.fullmatch(r"[A-Za-z_]\w*", cls) or cls not in self._classes() or self._has_mutable(cls) or \
                writes_memory(self.src, h, self.device):
            return False  # (a write through a pointer, `next->v = 0` with next the object itself, then `v` read: the copy's)
        fields = self._fields(cls)
        return not (fields is None or self._points_into_object(h, fields) or not self.const_member(h) and
                    writes_own_object(self.src, h, fields, self.device, cls))  # a write would land in the copy

    def _fields(self, cls: str) -> frozenset[str] | None:
        """The data members of the classes named cls and of their bases (None: a base not defined here)."""
        bodies = self._class_bodies(cls)
        if bodies is None:
            return None
        out: set[str] = set()
        for body in bodies:
            for f in body.named_children:
                if f.type == "field_declaration" and not any(c.type == "function_declarator" for c in walk(f)):
                    out |= {self.src.text_of(i) for i in walk(f) if i.type == "field_identifier"}
        return frozenset(out)

    def _points_into_object(self, h: Function, fields: frozenset[str]) -> bool:
        """Whether h returns a pointer that may point into its object (`return a + i;` of an array member, `&n`):
        on a copy it points into a temporary (`*D(*d).slot(1) = 5;` writes the copy, `auto p = ...` dangles).
        A pointer member's value (`return data + i;` of `float *data`) points where the object's does."""
        d = h.node.child_by_field_name("declarator")
        if d is None or d.type != "pointer_declarator" or h.body is None:
            return False
        own = fields - self._pointer_fields(h.name.rsplit("::", 1)[0])
        return any(m.type == "identifier" and self.src.text_of(m) in own
                   for r in walk(h.body) if r.type == "return_statement" for m in walk(r))

    def _pointer_fields(self, cls: str) -> frozenset[str]:
        """The data members of cls and its bases declared as pointers (`float *data;`)."""
        return frozenset(self.src.text_of(i) for body in self._class_bodies(cls) or () for f in body.named_children
                         if f.type == "field_declaration" for d in f.children_by_field_name("declarator")
                         if d.type == "pointer_declarator" for i in walk(d) if i.type == "field_identifier")

    def _class_bodies(self, cls: str, seen: frozenset[str] = frozenset()) -> list[Node] | None:
        """The bodies of the classes named cls and of their bases, recursively (a member writes an inherited
        field as its own); None where a base is not a class defined in this file (its fields are unknown)."""
        out: list[Node] = []
        for n in self.src.index.of_types("struct_specifier", "class_specifier", "union_specifier"):
            name, body = n.child_by_field_name("name"), n.child_by_field_name("body")
            if name is None or body is None or self.src.text_of(name) != cls:
                continue
            out.append(body)
            for clause in (c for c in n.children if c.type == "base_class_clause"):
                for b in clause.named_children:
                    if b.type == "access_specifier" or (b.type == "type_qualifier" and self.src.text_of(b) == "virtual"):
                        continue
                    base = self.src.text_of(b)
                    got = self._class_bodies(base, seen | {cls}) if b.type == "type_identifier" and base not in seen \
                        and base != cls else None
                    if not got:
                        return None
                    out += got
        return out

    def _has_mutable(self, cls: str) -> bool:
        """Whether a class named cls (or a base) declares a `mutable` member (a const member function may write
        it); a base not defined here counts."""
        bodies = self._class_bodies(cls)
        return bodies is None or any(
            c.type in ("storage_class_specifier", "type_qualifier") and self.src.text_of(c) == "mutable"
            for body in bodies for f in walk(body) if f.type == "field_declaration" for c in f.children)
