"""`__shared__` tables of device pointers: `__shared__ node *slots[4];` filled with `slots[i] = &nodes[j]`.

The array lives in threadgroup memory and its elements point into device memory.  In MSL a pointer stored
in memory names its space, so a hand port writes `device node * threadgroup slots[4];` (threadgroup
array of device pointers), and an element loaded from it (`node *c = slots[i];`) is a `device` pointer.
Written `threadgroup node *slots[4]` (the array's space on the pointee) the port did not compile: the
checker refused the store (KP224).  Conditions, each checked in the kernel's body:

- the array is declared in the kernel's own body (not a helper's, not `extern`, not at file scope), one
  declarator of exactly one pointer level over one array dimension, and its type names no space;
- the kernel declares nothing else of that name;
- every use of the name is an element `slots[e]`: stored to with `=` (the value a device pointer, or a
  null one), or read.  The bare name (passed to a helper, `slots + 1`, `*slots`) or an element's address
  (`&slots[i]`) leaves the array as written (a helper's parameter would need the two spaces too);
- at least one store, and every stored value's space is `device`.
Otherwise the array is left as written, and the checker still judges the port at its line.
"""
from __future__ import annotations

from tree_sitter import Node

from ...model import Function
from ...source import ident_name, walk
from .local_pointer_arrays import element_stores
from .pointer_members import _SPACES


class SharedPointerTables:
    """Mixin of MetalTranslator: which kernel `__shared__` arrays are tables of device pointers."""

    def shared_pointer_tables(self) -> dict[tuple[str, str], Node]:
        """(kernel name, array name) -> the array's declarator (`*slots[4]`), for each such table."""
        got = self.__dict__.get("_kp_shared_tables")
        if got is None:
            got = self.__dict__["_kp_shared_tables"] = {}
            for sh in self.module.shared:
                f = next((k for k in self.kernels if k.name == sh.function), None)
                d = self._table_declarator(sh, f)
                if d is not None and self._device_stores_only(f, sh.name, sh.node):
                    got[(f.name, sh.name)] = d
        return got

    def shared_table_space(self, n: Node, loads: int, f: Function) -> str | None:
        """`device` for `slots[i]` (one load) of a kernel's table of device pointers."""
        if loads == 1 and f.is_kernel and (f.name, self.src.text_of(n)) in self.shared_pointer_tables():
            return "device"
        return None

    def shared_table_declaration(self, sh, f: Function) -> bool:
        """Write the table's declaration `device node * threadgroup slots[4];` (True), or nothing (False)."""
        d = self.shared_pointer_tables().get((f.name, sh.name)) if f is not None else None
        if d is None:
            return False
        tnode = sh.node.child_by_field_name("type")
        arr = d.child_by_field_name("declarator")

        quals = "".join(self.src.text_of(c) + " " for c in sh.node.children
                        if c.type == "type_qualifier" and self.src.text_of(c) != "__shared__")  # `const`, `volatile`

        def text(rw, node, tnode=tnode, arr=arr) -> str:
            return f"{quals}device {rw.text(tnode)} * threadgroup {rw.text(arr)};"
        self.rw.replace(sh.node, text)
        self.note(sh.node, "device T * threadgroup", f"'{sh.name}' holds device pointers: a threadgroup array "
                  "of device pointers, as MSL spells one")
        return True

    def _table_declarator(self, sh, f: Function | None) -> Node | None:
        if f is None or sh.dynamic or sh.node.parent != f.body:
            return None
        decls = sh.node.children_by_field_name("declarator")
        tnode = sh.node.child_by_field_name("type")
        if len(decls) != 1 or tnode is None or decls[0].type != "pointer_declarator":
            return None
        if any(w in self.src.text_of(tnode).split() for w in _SPACES):
            return None
        arr = decls[0].child_by_field_name("declarator")
        if arr is None or arr.type != "array_declarator" or arr.child_by_field_name("size") is None or \
                (inner := arr.child_by_field_name("declarator")) is None or inner.type != "identifier":
            return None
        return decls[0]

    def _device_stores_only(self, f: Function, name: str, decl: Node) -> bool:
        declared = [n for n in walk(f.body) if n.type == "declaration" and
                    any(ident_name(d) == name for d in n.children_by_field_name("declarator"))]
        if declared != [decl]:
            return False  # another declaration of the name in the kernel: which one a use means is not decided here
        stores = element_stores(self.src, f.body, name, decl)
        return bool(stores) and all(self.space_of(v, f) == "device" for v in stores)
