"""A struct's `double` members that device code never names: Metal's 64-bit `ulong` keeps the layout.

Metal has no double (KP214).  heldout83's cuda_interop histgram_normalize.cu reads one `int` of a
stats struct the host fills (`input_stats->max_y_axis`), whose `double avg_r, avg_g, avg_b;` come
before it: demoting them to float would move max_y_axis (the kernel would read another field of the
host's struct), and refusing refuses a kernel that computes on no double.  A member no device code
names is bytes the kernel never looks at; `ulong` has double's size and alignment, so every other
member keeps its offset and the host's struct binds unchanged.  The conditions, all checked, else
KP214 stands:
  - the `double` is the type of a member declaration of a struct, class or union (plain names or
    arrays: `double a, b[4];`, no pointer, no bit field);
  - no device function of the port, and no macro's value, spells any member it declares as a word
    (`s.a`, `p->a`, `{.a = x}`, `#define A(s) (s)->a`: whatever the struct, a name check, never a guess
    at types);
  - no device function fills a struct by position (`P p = {i, 1, i + 1};`, `out[i] = P{...}`, `return
    {...}`): such a list names no member, yet stores `1` into the ulong, integer bits where the host reads
    the double 1.0.  Any positional braced list of a type not a builtin scalar or vector counts (a
    typedef, an enclosing struct with elided braces: no guess at which record it fills).
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ...source import walk

_RECORDS = ("struct_specifier", "class_specifier", "union_specifier")
_WORD = re.compile(r"[A-Za-z_]\w*")
# builtin scalars and CUDA's vectors (`float4`, `uint2`, `size_t`, `int32_t`): a braced list of one fills no record
_BUILTIN = re.compile(r"(?:unsigned |signed |long |short )*(?:u?(?:char|short|int|long|longlong)[1-4]?|float[1-4]?|"
                      r"double[1-4]?|half[1-4]?|bool|size_t|u?int(?:8|16|32|64)_t)")


class UnreadDoubleMembers:
    """Mixin of MetalTranslator: `unread_double_member(node)` for a `double` type use."""

    def unread_double_member(self, node: Node) -> bool:
        decl = node.parent
        if decl is None or decl.type != "field_declaration" or decl.child_by_field_name("type") != node or \
                decl.parent is None or decl.parent.type != "field_declaration_list" or \
                decl.parent.parent is None or decl.parent.parent.type not in _RECORDS:
            return False
        names = []
        for d in decl.children_by_field_name("declarator"):
            while d is not None and d.type == "array_declarator":
                d = d.child_by_field_name("declarator")
            if d is None or d.type != "field_identifier":
                return False  # a pointer, a function, a bit field: not plain bytes of the record
            names.append(self.src.text_of(d))
        if not names or any(c.type == "bitfield_clause" for c in decl.children) or self._fills_by_position():
            return False
        body = decl.parent  # the record's own members (an in-class method that reads one) count too
        rest = self.src.data[body.start_byte:decl.start_byte] + self.src.data[decl.end_byte:body.end_byte]
        return not set(names) & (self._device_field_names() | set(_WORD.findall(rest.decode("utf-8", "replace"))))

    def _device_field_names(self) -> set[str]:
        """Every word of the device functions and of the macros' values (`#define AVG(s) (s)->avg`, which
        a kernel names as `AVG(stats)`): a member spelled anywhere there may be read."""
        cache = self.__dict__.get("_kp_device_field_names")
        if cache is None:
            texts = [self.src.text_of(f.node) for f in self.device.values()]
            texts += [self.src.text_of(v) for m in self.src.index.of_types("preproc_def", "preproc_function_def")
                      if (v := m.child_by_field_name("value")) is not None]
            cache = self.__dict__["_kp_device_field_names"] = {w for t in texts for w in _WORD.findall(t)}
        return cache

    def _fills_by_position(self) -> bool:
        """A device function has a braced list with a positional element whose type is not a builtin
        scalar or vector (`float4 v = {a, b, c, d}` is one; `P p = {i, 1, j}`, `{{...}}` nested, a list
        assigned or returned are not)."""
        cache = self.__dict__.get("_kp_fills_by_position")
        if cache is None:
            cache = self.__dict__["_kp_fills_by_position"] = any(
                n.type == "initializer_list" and any(c.is_named and c.type != "initializer_pair" and
                                                     c.type != "comment" for c in n.children) and
                not self._builtin_owner(n) for f in self.device.values() for n in walk(f.node))
        return cache

    def _builtin_owner(self, lst: Node) -> bool:
        owner = lst.parent
        if owner is not None and owner.type == "init_declarator":
            owner = owner.parent
        if owner is None or owner.type not in ("declaration", "compound_literal_expression"):
            return False
        t = owner.child_by_field_name("type")
        return t is not None and (t.type == "primitive_type" or
                                  (t.type in ("type_identifier", "sized_type_specifier") and
                                   _BUILTIN.fullmatch(self.src.text_of(t)) is not None))
