"""Pointer members of the structs a kernel takes (`struct DeviceGrid { float* logodds; int width; }`
passed by value, or through a pointer): Metal has no generic address space, so a pointer stored in a
struct names the space it points into.  The struct reaches the kernel in a buffer the host filled,
where a pointer can only hold a device buffer's GPU address (MTLBuffer.gpuAddress, Metal 3): each such
member is `device T*`, and an expression through it (`&grid.logodds[i]`, `grid.logodds + i`) points
into device memory, so the helpers it is passed to get `device` parameters.  The same holds for the structs
a file-scope `__constant__` holds, and for a kernel's buffer of pointers (`int **rows`: every level
`device`, device_levels).  The sidecar raises the MSL floor to 3.0 and says what the host does (store each
buffer's gpuAddress, make it resident)."""
from __future__ import annotations

import re

from tree_sitter import Node

from ...source import ident_name

_WORDS = ("const", "volatile", "struct", "class", "__restrict__", "restrict")
_SPACES = ("device", "constant", "thread", "threadgroup", "__device__", "__constant__", "__shared__")


def device_levels(src, d, text: str) -> str:
    """A pointer-to-pointer declarator (`* const* p`) with `device ` before each `*` but the first: a pointer
    stored in device memory (cate's `int **rows`, a kernel's buffer of buffers) holds a device address,
    as a struct member's does; one level: as written."""
    inner = d.child_by_field_name("declarator") if d.type == "pointer_declarator" else None
    if inner is None or inner.type != "pointer_declarator" or text.count("*") != src.text_of(d).count("*"):
        return text
    first = text.index("*")
    return text[:first + 1] + re.sub(r"\s*\*", " device *", text[first + 1:])


class PointerMembers:
    """Mixin of MetalTranslator: the `pointer_members` pass and `device_pointer_fields`."""

    def _kernel_structs(self) -> dict[str, list[Node]]:
        """Struct name -> its definitions' field lists, for the structs a kernel parameter is (or points to),
        and those a file-scope `__constant__` holds (rodinia heartwall's `__constant__ params_unique
        d_unique[N]`, which the host fills as it fills a kernel's buffer: its pointers are device addresses)."""
        named = {" ".join(w for w in p.type.split() if w not in _WORDS) for k in self.kernels for p in k.params}
        named |= self.filled_structs()  # a kernel's local struct it fills with device pointers (filled_structs.py)
        named |= self.received_structs()
        from ...model import file_scope_items
        for n in file_scope_items(self.src):
            ty = n.child_by_field_name("type") if n.type == "declaration" else None
            if ty is not None and any(self.src.text_of(c) == "__constant__" for c in n.children):
                named.add(" ".join(w for w in self.src.text_of(ty).split() if w not in _WORDS))
        out: dict[str, list[Node]] = {}
        for s in self.src.index.of_types("struct_specifier", "class_specifier"):
            name, body = s.child_by_field_name("name"), s.child_by_field_name("body")
            if body is None:
                continue
            if name is not None and self.src.text_of(name) in named:
                out.setdefault(self.src.text_of(name), []).append(body)
            elif s.parent is not None and s.parent.type == "type_definition":  # `typedef struct node_t {...} NODE;`
                for d in s.parent.children_by_field_name("declarator"):  # the kernel's `NODE **nodes` names it
                    if d.type == "type_identifier" and self.src.text_of(d) in named:
                        out.setdefault(self.src.text_of(d), []).append(body)
        return out

    def received_structs(self) -> frozenset[str]:
        """Structs a device helper takes by value that no device code of the file declares, builds or names
        otherwise (the type's name appears in no device function's body): each object a helper gets came
        from a kernel's argument (a buffer the host filled) or from device memory, so its pointers hold
        device addresses, as a kernel struct's do (a solver's `struct Args { float *x, *dx; }` passed from
        kernel to the constraints' `__device__ void solve(Args a)`)."""
        got = self.__dict__.get("_kp_received_structs")
        if got is None:
            taken = {" ".join(w for w in p.type.split() if w not in _WORDS)
                     for h in self.helpers.values() for p in h.params if not p.pointer}
            bodies = [self.src.text_of(f.body) for f in [*self.kernels, *self.helpers.values()] if f.body is not None]
            got = self.__dict__["_kp_received_structs"] = frozenset(
                t for t in taken if t.isidentifier() and not any(re.search(rf"\b{t}\b", b) for b in bodies))
        return got

    def _member_pointers(self) -> list[tuple[Node, list[str]]]:
        """(field declaration, its names) for each member of a kernel's struct whose every declarator is
        a single pointer and whose declaration names no address space yet."""
        got = self.__dict__.get("_kp_member_pointers")
        if got is None:
            got = self.__dict__["_kp_member_pointers"] = []
            for bodies in self._kernel_structs().values():
                for body in bodies:
                    for fd in body.named_children:
                        if fd.type != "field_declaration" or fd.child_by_field_name("type") is None:
                            continue
                        ds = fd.children_by_field_name("declarator")
                        words = {self.src.text_of(c) for c in fd.children if c.type in ("type_qualifier",
                                                                                        "storage_class_specifier")}
                        if ds and all(d.type == "pointer_declarator" and d.child_by_field_name("declarator") is not None
                                      and d.child_by_field_name("declarator").type == "field_identifier"
                                      for d in ds) and not words & set(_SPACES) and "static" not in words:
                            got.append((fd, [ident_name(d) for d in ds]))
        return got

    def device_pointer_fields(self) -> frozenset[str]:
        """Member names that are, in every struct of the file that has one, a kernel struct's pointer member."""
        got = self.__dict__.get("_kp_device_pointer_fields")
        if got is None:
            mine = {n for _, names in self._member_pointers() for n in names}
            ids = {(fd.start_byte, fd.end_byte) for fd, _ in self._member_pointers()}
            hidden = self.host_only_struct_bodies()  # (filled_structs.py: no device code can name their members)
            others = {ident_name(d) for fd in self.src.index.of_type("field_declaration")
                      if (fd.start_byte, fd.end_byte) not in ids and
                      (fd.parent is None or (fd.parent.start_byte, fd.parent.end_byte) not in hidden)
                      for d in fd.children_by_field_name("declarator")}
            got = self.__dict__["_kp_device_pointer_fields"] = frozenset(mine - others)
        return got

    def pointer_members(self) -> None:
        """Each kernel struct's pointer member (of a name no other struct's member has) is `device T*`."""
        fields = self.device_pointer_fields()
        self.struct_pointer_members = []
        for fd, names in self._member_pointers():
            if set(names) <= fields and not self.rw.within(fd):
                self.rw.insert_before(fd.child_by_field_name("type"), "device ")
                owner = fd.parent.parent.child_by_field_name("name") if fd.parent.parent is not None else None
                if owner is None or self.src.text_of(owner) not in self.filled_structs():
                    self.struct_pointer_members += names  # (a kernel's own struct holds no host-written address)

    def pointer_members_of(self, type_text: str) -> list[str]:
        """The `device` pointer members of the kernel struct a parameter's type names (the sidecar's)."""
        name = " ".join(w for w in type_text.split() if w not in _WORDS)
        ids = {(b.start_byte, b.end_byte) for b in self._kernel_structs().get(name, [])}
        return [n for fd, names in self._member_pointers() if fd.parent is not None and
                (fd.parent.start_byte, fd.parent.end_byte) in ids for n in names
                if n in getattr(self, "struct_pointer_members", ())]
