"""Struct members that are tables of device pointers: `struct heap { state **states; }` (astar-cuda's heap of
states, gpucfr's `struct efg_node_t **childs`).  The host fills such a table with cudaMalloc'd addresses and
device code moves those pointers around (`state *res = heap->states[1];`, `heap->states[n] = s;`): in
Metal a pointer stored in memory names its space, so the member is written `device state * device *states`
(pointer_members.device_levels) and an element loaded from it is a `device` pointer, as a hand port writes
it.  Conditions, each checked in the file's device code:

- every declarator of the member is exactly two pointer levels, the member names no space, and no other
  struct of the file has a member of that name (the name says which table an expression reads);
- every value assigned to the member itself (`h.states = v`) points into device memory;
- every pointer stored into it (`h->states[i] = v`, `*h->states = v`) is a device pointer or a null one;
  one of another known space (a __shared__ or local object's address) is refused there (KP215, located),
  and the member is then left as written (its loads stay refused as before).
A store the model cannot place is left to the typed port: a thread pointer stored in a `device T * device *`
table does not compile, and the checker refuses it at its line."""
from __future__ import annotations

from tree_sitter import Node

from ...source import ident_name, walk
from .pointer_members import _SPACES, device_levels
from .spaces import NULL_POINTERS


def _member_name(n: Node | None, src) -> str | None:
    """The member a `x.m` / `x->m` expression names."""
    if n is None or n.type != "field_expression":
        return None
    field = n.child_by_field_name("field")
    return src.text_of(field) if field is not None else None


class PointerTables:
    """Mixin of MetalTranslator: `device_pointer_tables` and the `pointer_tables` pass."""

    def _table_members(self) -> dict[str, list[Node]]:
        """Member name -> its field declarations, for members of two pointer levels that no other member
        of the file shares a name with (the shape above, before the stores are read)."""
        got = self.__dict__.get("_kp_table_members")
        if got is None:
            got = self.__dict__["_kp_table_members"] = {}
            shapes: dict[str, list[tuple[Node, bool]]] = {}
            for fd in self.src.index.of_type("field_declaration"):
                words = {self.src.text_of(c) for c in fd.children if c.type in ("type_qualifier",
                                                                                "storage_class_specifier")}
                for d in fd.children_by_field_name("declarator"):
                    name = ident_name(d)
                    inner = d.child_by_field_name("declarator") if d.type == "pointer_declarator" else None
                    two = inner is not None and inner.type == "pointer_declarator" and \
                        (last := inner.child_by_field_name("declarator")) is not None and \
                        last.type == "field_identifier" and not words & set(_SPACES) and "static" not in words
                    if name is not None:
                        shapes.setdefault(name, []).append((fd, two))
            for name, fds in shapes.items():
                if all(two for _, two in fds):
                    got[name] = [fd for fd, _ in fds]
        return got

    def device_pointer_tables(self) -> frozenset[str]:
        """The members written `device T * device *` (the conditions above hold)."""
        got = self.__dict__.get("_kp_device_pointer_tables")
        if got is not None:
            return got
        self.__dict__["_kp_device_pointer_tables"] = frozenset()  # while the stores are read: none yet
        read = {self.src.text_of(fl) for f in self.device.values() for n in walk(f.body) if n.type == "field_expression"
                and (fl := n.child_by_field_name("field")) is not None}
        tables = set(self._table_members()) & read  # a member device code reads
        refused: list[tuple[Node, str, str]] = []
        for f in self.device.values():
            for n in walk(f.body):
                if n.type != "assignment_expression" or self.src.text_of(n.child_by_field_name("operator")) != "=":
                    continue
                left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
                if (m := _member_name(left, self.src)) in tables:  # the table itself
                    if self.src.text_of(right) not in NULL_POINTERS and self._space_with(f, right, tables) != "device":
                        tables.discard(m)
                    continue
                base = left.child_by_field_name("argument") if left is not None and (
                    left.type == "subscript_expression" or (left.type == "pointer_expression" and
                                                            self.src.text_of(left.child_by_field_name("operator")) == "*")) else None
                while base is not None and base.type == "parenthesized_expression" and base.named_child_count == 1:
                    base = base.named_children[0]
                if (m := _member_name(base, self.src)) in tables and self.src.text_of(right) not in NULL_POINTERS:
                    sp = self._space_with(f, right, tables)
                    if sp is not None and sp != "device":
                        refused.append((n, m, sp))
        for n, m, sp in refused:
            tables.discard(m)
            self.problem("KP215", n, f"a pointer into {sp} memory is stored in '{m}', a table of pointers the host "
                         "fills with device addresses: Metal's table holds device pointers only",
                         "store device pointers only in it, or keep this pointer in a table of its own")
        got = self.__dict__["_kp_device_pointer_tables"] = frozenset(tables)
        return got

    def _space_with(self, f, expr: Node, tables: set[str]) -> str | None:
        """space_of(expr) with `tables` taken as device pointer tables (while they are being decided)."""
        saved = self.__dict__["_kp_device_pointer_tables"]
        self.__dict__["_kp_device_pointer_tables"] = frozenset(tables)
        try:
            return self.space_of(expr, f)
        finally:
            self.__dict__["_kp_device_pointer_tables"] = saved

    def pointer_tables(self) -> None:
        """Each device pointer table member: `device ` before its type, `device *` at its inner level."""
        members = self._table_members()
        for name in sorted(self.device_pointer_tables()):
            for fd in members[name]:
                if self.rw.within(fd):
                    continue
                self.rw.insert_before(fd.child_by_field_name("type"), "device ")
                for d in fd.children_by_field_name("declarator"):
                    self.rw.replace(d, device_levels(self.src, d, self.src.text_of(d)))
