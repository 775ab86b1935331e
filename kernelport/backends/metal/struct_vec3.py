"""A struct member of a CUDA 3-vector type, in CUDA's layout.

CUDA's T3 is three T's (float3: 12 bytes, aligned 4; long3/longlong3: 24, aligned 8); Metal's T3 is
four T's wide (MSL 2.2: float3 is 16 bytes aligned 16, long3 32 aligned 32).  A struct keeping `float3 v;`
would put every later member at another offset and make each element longer, so a host's buffer of
CUDA's structs would be read at Metal's offsets: a silently wrong port.  MSL's packed_T3 has CUDA's size
and alignment (MSL 2.2.3; packed_longn from 2.3), so the member is spelled that; a packed vector converts
to and from T3 and reads its lanes as T3 does.  CUDA's ulong3/ulonglong3 have no packed type in MSL
(no packed_ulongn): such a member is refused at its line (KP223).
"""
from __future__ import annotations

import re

from . import VECTOR_BASES

_VEC3 = re.compile(r"^(float|int|uint|short|ushort|char|uchar|long|longlong|ulong|ulonglong)3$")
_NO_PACKED = {"ulong"}  # MSL 2.2.3 lists packed_longn only


class StructVec3Members:
    """Mixin of MetalTranslator: the `packed_struct_members` pass."""

    def packed_struct_members(self) -> None:
        spans = getattr(self, "left_out_spans", ())
        bound = self._host_laid_out()
        for fd in self.src.index.of_type("field_declaration"):
            body = fd.parent
            if body is None or body.type != "field_declaration_list" or body.parent is None or \
                    body.parent.type not in ("struct_specifier", "class_specifier", "union_specifier"):
                continue
            if not self._struct_names(body.parent) & bound:
                continue  # a struct no kernel argument or program-scope variable holds: thread memory only
            if any(s <= fd.start_byte and fd.end_byte <= e for s, e in spans):
                continue  # host code, left out of the port
            tnode = fd.child_by_field_name("type")
            m = _VEC3.match(self.src.text_of(tnode)) if tnode is not None and tnode.type == "type_identifier" else None
            decls = fd.children_by_field_name("declarator")
            if m is None or not decls or any(d.type not in ("field_identifier", "array_declarator") for d in decls):
                continue  # (a pointer member is a pointer's size in both)
            base = VECTOR_BASES.get(m.group(1), m.group(1))
            if base in _NO_PACKED:
                self.problem("KP223", tnode, f"a struct member of {self.src.text_of(tnode)} has no Metal layout: MSL has "
                             f"no packed_{base}3, and its {base}3 is 32 bytes where CUDA's is 24 (every later member "
                             f"and element would move)", f"store the three components as {base} members, or use long3 "
                             f"where the values fit")
                continue
            self.rw.replace(tnode, f"packed_{base}3")

    def _struct_names(self, spec) -> set[str]:
        """A struct's name and the names a `typedef struct {...} Name;` gives it."""
        names = set()
        if spec.child_by_field_name("name") is not None:
            names.add(self.src.text_of(spec.child_by_field_name("name")))
        if spec.parent is not None and spec.parent.type == "type_definition":
            names |= {self.src.text_of(d) for d in spec.parent.children_by_field_name("declarator")
                      if d.type == "type_identifier"}
        return names

    def _host_laid_out(self) -> set[str]:
        """The names of the types whose layout a host shares: kernel parameters' and program-scope
        variables' types, and the struct types of their members, transitively."""
        words = {w for k in self.module.kernels for p in k.params for w in re.findall(r"\w+", p.type)}
        for d in self.src.index.of_type("declaration"):
            if d.parent is not None and d.parent.type == "translation_unit" and d.child_by_field_name("type") is not None:
                words |= set(re.findall(r"\w+", self.src.text_of(d.child_by_field_name("type"))))
        members = {}
        for spec in self.src.index.of_types("struct_specifier", "class_specifier", "union_specifier"):
            body = spec.child_by_field_name("body")
            if body is not None:
                inner = {w for fd in body.named_children if fd.type == "field_declaration" and
                         fd.child_by_field_name("type") is not None
                         for w in re.findall(r"\w+", self.src.text_of(fd.child_by_field_name("type")))}
                for n in self._struct_names(spec):
                    members.setdefault(n, set()).update(inner)
        todo = list(words & members.keys())
        while todo:
            for w in members.get(todo.pop(), ()):
                if w in members and w not in words:
                    words.add(w)
                    todo.append(w)
        return words
