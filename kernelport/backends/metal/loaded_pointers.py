"""Pointers loaded from memory: `float *row = tab[i];` of a kernel's `float **tab` (gpucfr's table of
information sets, a buffer of buffers).  CUDA's pointer stored in global memory is a generic pointer the
host filled with a device address; the port writes a device pointer-to-pointer with `device` at every
level (pointer_members.device_levels: `device float * device *tab`), so an element loaded from it, at any
level short of the last, is a `device` pointer, as a hand port would write it.  Only a parameter whose
every level the signature writes `device` qualifies: a pointer stored in threadgroup or thread memory
(`__shared__ float *rows[4]`, a local `float **pp`) is written with an unqualified (thread) element, so
its loads keep no known space (KP215, located)."""
from __future__ import annotations

from tree_sitter import Node

from ...model import Function
from ...source import ident_name
from .pointer_members import device_levels


def _pointer_levels(decl: Node | None) -> int:
    """How many pointer levels a parameter's declarator has (`**tab`: 2); 0 for any other form (`*rows[]`,
    which the signature does not write `device` at every level)."""
    levels = 0
    while decl is not None and decl.type == "pointer_declarator":
        levels += 1
        decl = decl.child_by_field_name("declarator")
    return levels if decl is not None and decl.type == "identifier" else 0


class LoadedPointers:
    """Mixin of MetalTranslator: the space of a pointer loaded from a device pointer-to-pointer."""

    def loaded_pointer_space(self, expr: Node, f: Function) -> str | None:
        """`tab[i]`, `*tab`, `tab[i][j]` of a pointer parameter with more levels than are loaded: `device`
        where the parameter's space is `device` (its signature writes every level `device`)."""
        loads, n = 0, expr
        while n is not None:
            if n.type == "parenthesized_expression":
                n = n.named_children[0] if n.named_child_count == 1 else None
            elif n.type == "subscript_expression" or (n.type == "pointer_expression" and
                                                      self.src.text_of(n.child_by_field_name("operator")) == "*"):
                loads, n = loads + 1, n.child_by_field_name("argument")
            else:
                break
        if n is not None and n.type == "field_expression" and loads == 1 and \
                self.src.text_of(n.child_by_field_name("field")) in self.device_pointer_tables():
            return "device"  # `heap->states[1]`: an element of a member table of device pointers (pointer_tables.py)
        if n is not None and n.type == "identifier" and self.constant_pointer_space(n, loads, f):
            return "device"  # `outs[c]` of a `__constant__ float *outs[N]` the host filled (constant_pointers.py)
        if n is not None and n.type == "identifier" and self.shared_table_space(n, loads, f):
            return "device"  # `slots[i]` of a kernel's `__shared__ node *slots[4]` of device pointers
        if n is not None and n.type == "identifier" and (sp := self.pointer_array_space(n, loads, f)):
            return sp  # `vert[k]` of a local `float3 *vert[3]` its stores fill with one space (local_pointer_arrays.py)
        if n is None or n.type != "identifier" or loads == 0:
            return None
        p = f.param(self.src.text_of(n))
        if p is None:
            return self._loaded_local_space(self.src.text_of(n), loads, f)
        d = p.node.child_by_field_name("declarator") if p.pointer else None
        if d is None or _pointer_levels(d) <= loads or device_levels(self.src, d, self.rw.text(d)) == self.rw.text(d):
            return None  # one level, or one the signature does not write `device` at every level
        return "device" if self._param_space(f, p) == "device" else None

    def _loaded_local_space(self, name: str, loads: int, f: Function) -> str | None:
        """`ch[i]` of a local `node **ch = nd->childs` (or `= tab`): `device` where the local points into device
        memory in every specialisation of `f`, which is when local_pointers writes it `device` at every level
        (spaces._declaration_prefix: `device node * device *ch`), and it has more pointer levels than are
        loaded.  A local array of pointers (`node *arr[4]`: thread memory, unqualified elements), a local
        not yet planned, or one into another space in some specialisation: None (KP215 stays, located)."""
        decl = self._local_decl(f, name)
        space = self.local_spaces.get((f.name, name))
        if decl is None or not callable(space):
            return None
        for d in decl.children_by_field_name("declarator"):
            inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
            if ident_name(d) == name and _pointer_levels(inner) > loads:
                sigs = [()] if f.is_kernel else self.plan_of(f).sigs
                return "device" if all(space(sig) == "device" for sig in sigs) else None
        return None

