"""Local arrays of pointers: `float3 *vert[3];` filled with `vert[k] = &vertlist[..]` of a `__shared__`
array (quickses' MarchingCubes generateTriangles), or with pointers into a kernel's buffers.

The array lives in thread memory; its elements point where the stored values point.  MSL writes the
pointee's space on the element type, so the port declares `threadgroup float3 *vert[3];` (a thread array
of threadgroup pointers) and an element read from it (`*vert[0]`, `float3 *p = vert[1]`) is a threadgroup
pointer.  Left unqualified, the elements are `thread` pointers and the checker refused the store (KP224).
Conditions, each checked in the function's body:

- one array dimension over exactly one pointer level (`T *name[N]`), no initialiser, a type that names no
  space, and the only declaration of that name in the function;
- every use of the name is an element `name[e]`: stored to with `=` (a pointer, or a null one), or read.
  The bare name (passed to a helper, `name + 1`, `*name`) or an element's address (`&name[i]`) leaves the
  array as written (a helper's parameter would need the element space too);
- at least one store.  The stored values' one space (device or threadgroup) is the elements' space, as
  for a pointer declared bare and assigned later (spaces._adopted_space); values of two spaces are refused
  at the declaration (KP215), as there.
Otherwise the array is left as written, and the checker still judges the port at its line.
"""
from __future__ import annotations

from tree_sitter import Node

from ...model import Function
from ...source import ident_name, walk
from .pointer_members import _SPACES
from .spaces import NULL_POINTERS


def element_stores(src, body: Node, name: str, decl: Node) -> list[Node] | None:
    """The non-null values stored with `=` to elements `name[e]` after `decl` in body; None where the name is
    used other than as an element (`name`, `name + 1`, `*name`) or an element's address is taken (`&name[i]`).
    (`name[i] += k` moves a pointer within its space: no store.)"""
    stores: list[Node] = []
    for n in walk(body):
        if n.type != "identifier" or src.text_of(n) != name or n.start_byte < decl.end_byte:
            continue
        use = n.parent
        if use is None or use.type != "subscript_expression" or use.child_by_field_name("argument") != n:
            return None  # the bare array: passed on, offset, dereferenced
        up = use.parent
        if up is not None and up.type == "pointer_expression" and \
                src.text_of(up.child_by_field_name("operator")) == "&":
            return None  # `&name[i]`: a pointer to a pointer element
        if up is not None and up.type == "assignment_expression" and up.child_by_field_name("left") == use and \
                src.text_of(up.child_by_field_name("operator")) == "=":
            value = up.child_by_field_name("right")
            if src.text_of(value).strip() not in NULL_POINTERS:
                stores.append(value)
    return stores


class LocalPointerArrays:
    """Mixin of MetalTranslator: the element space of a function's local array of pointers."""

    def pointer_array_stores(self, f: Function, decl: Node, d: Node) -> list[Node] | None:
        """The values stored to the elements of `d` (`*vert[3]`, a declarator of `decl`) in f, where the
        array qualifies (module docstring); None where it does not (or d is no array of pointers)."""
        memo = self.__dict__.setdefault("_kp_pointer_arrays", {})
        key = (f.name, d.start_byte, d.end_byte)
        if key not in memo:
            memo[key] = self._array_stores(f, decl, d)
        return memo[key]

    def pointer_array_space(self, n: Node, loads: int, f: Function) -> str | None:
        """The space of `vert[i]` (one load) of a qualifying local array: the space its stores give it."""
        if loads != 1:
            return None
        name = self.src.text_of(n)
        decl = self._local_decl(f, name)
        space = self.local_spaces.get((f.name, name))
        if decl is None or not callable(space):
            return None
        d = next((d for d in decl.children_by_field_name("declarator") if ident_name(d) == name), None)
        if d is None or not self.pointer_array_stores(f, decl, d):
            return None
        got = space(self.cur_sig.get(f.name, ()))
        return got if got in ("device", "threadgroup") else None

    def _array_stores(self, f: Function, decl: Node, d: Node) -> list[Node] | None:
        tnode = decl.child_by_field_name("type")
        if d.type != "pointer_declarator" or tnode is None or \
                any(self.src.text_of(c) in ("__shared__", "static", "extern") for c in decl.children) or \
                any(w in self.src.text_of(tnode).split() for w in _SPACES):
            return None
        arr = d.child_by_field_name("declarator")
        if arr is None or arr.type != "array_declarator" or arr.child_by_field_name("size") is None or \
                (inner := arr.child_by_field_name("declarator")) is None or inner.type != "identifier":
            return None
        name = self.src.text_of(inner)
        declared = [n for n in walk(f.body) if n.type == "declaration" and
                    any(ident_name(x) == name for x in n.children_by_field_name("declarator"))]
        if declared != [decl]:
            return None  # another declaration of the name: which one a use means is not decided here
        return element_stores(self.src, f.body, name, decl) or None
