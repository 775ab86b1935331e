"""Structs a kernel fills with device pointers: heldout67 KINC's `GMM gmm = { &work_gmm_data[i * n], ...,
&work_gmm_MP[i * k], ... };`, a local of the kernel whose pointer members are its parameters' elements,
passed as `&gmm` to helpers that load them (`Vector2 *MP = gmm->MP;`).  In MSL a pointer stored in a struct
names its space, so a hand port writes the members `device Vector2 *MP`, and a pointer loaded from one is a
`device` pointer (pointer_members.py does the writing, as for a struct a kernel takes).  Conditions, each
checked in the file's device code:

- every object of the struct the device code declares is a local of a kernel, one plain declarator
  with a positional initialiser list (`S v = {...}` or `S v{...}`): no array, no `__shared__` one, no copy,
  no designated initialiser;
- every pointer member the initialiser fills gets a device pointer (its space `device` in the kernel) or
  a null one;
- every value assigned to such a member anywhere in device code (`g.m = v`, `g->m = v`) is a device
  or null pointer.
The struct holds no pointer the host wrote, so it needs no gpuAddress (the MSL floor stays).  Otherwise
the members stay as written and a pointer loaded from them stays refused (KP215, located).
"""
from __future__ import annotations

from tree_sitter import Node

from ...host_typed_functors import _classes as classes
from ...source import ident_name, walk
from .pointer_members import _WORDS
from .spaces import NULL_POINTERS


class FilledStructs:
    """Mixin of MetalTranslator: `filled_structs`, the structs read by pointer_members._kernel_structs."""

    def filled_structs(self) -> frozenset[str]:
        """Names of the file's structs whose objects only kernels declare, filled with device pointers."""
        got = self.__dict__.get("_kp_filled_structs")
        if got is not None:
            return got
        self.__dict__["_kp_filled_structs"] = frozenset()  # (under way: a space asked meanwhile sees none)
        found = self._only_device_fills({name: fields for name, fields in self._struct_fields().items()
                                         if any(is_ptr for _, is_ptr in fields)})
        for memo in ("_kp_member_pointers", "_kp_device_pointer_fields"):  # asked meanwhile: without these
            self.__dict__.pop(memo, None)
        got = self.__dict__["_kp_filled_structs"] = frozenset(found)
        return got

    def _struct_fields(self) -> dict[str, list[tuple[str, bool]]]:
        """Struct name -> its members in order (name, a single pointer?), for structs defined once."""
        out: dict[str, list[tuple[str, bool]]] = {}
        for key, s in classes(self.src).items():
            if s is None:
                continue  # two of that name
            fields = []
            for fd in s.child_by_field_name("body").named_children:
                if fd.type != "field_declaration":
                    continue
                for d in fd.children_by_field_name("declarator"):
                    single = d.type == "pointer_declarator" and d.child_by_field_name("declarator") is not None \
                        and d.child_by_field_name("declarator").type == "field_identifier"
                    fields.append((ident_name(d), single))
            out[key] = fields
        return out

    def _only_device_fills(self, structs: dict[str, list[tuple[str, bool]]]) -> set[str]:
        """The structs of `structs` (name -> fields) that the conditions above hold for: one walk of the device
        code for all of them (a walk per struct was a third of a Metal translation's CPU on 60 such structs)."""
        bad: set[str] = set()
        seen = dict.fromkeys(structs, 0)
        holders: dict[str, set[str]] = {}  # a pointer member's name -> the structs that have one of that name
        for name, fields in structs.items():
            for m, is_ptr in fields:
                if is_ptr:
                    holders.setdefault(m, set()).add(name)
        for f in self.device.values():
            for n in walk(f.body):
                if n.type == "declaration":
                    t = n.child_by_field_name("type")
                    name = " ".join(w for w in self.src.text_of(t).split() if w not in _WORDS) if t is not None else None
                    if name not in structs or name in bad:
                        continue
                    for d in n.children_by_field_name("declarator"):
                        if d.type in ("pointer_declarator", "reference_declarator") or \
                                (d.type == "init_declarator" and d.child_by_field_name("declarator").type in
                                 ("pointer_declarator", "reference_declarator")):
                            continue  # a pointer or reference to an object declared elsewhere
                        if not f.is_kernel or any(self.src.text_of(c) == "__shared__" for c in n.children) or \
                                not self._device_initialiser(f, d, structs[name]):
                            bad.add(name)
                            break
                        seen[name] += 1
                elif n.type == "assignment_expression":
                    left = n.child_by_field_name("left")
                    if left is None or left.type != "field_expression":
                        continue
                    owners = holders.get(self.src.text_of(left.child_by_field_name("field")), set()) - bad
                    if not owners or self.src.text_of(n.child_by_field_name("operator")) != "=":
                        continue  # (`g.p += k`: the pointer moves within its space)
                    if not self._device_value(n.child_by_field_name("right"), f):
                        bad |= owners
        return {name for name in structs if name not in bad and seen[name] > 0}

    def _device_initialiser(self, f, d: Node, fields: list[tuple[str, bool]]) -> bool:
        """`v = {a, b, ...}` / `v{a, b}`: each pointer member's value a device or null pointer."""
        value = d.child_by_field_name("value") if d.type == "init_declarator" else None
        if value is None or value.type != "initializer_list":
            return False  # declared bare (filled member by member), or copied from another object
        items = [c for c in value.named_children if c.type != "comment"]
        if len(items) > len(fields) or any(c.type == "initializer_pair" for c in items):
            return False
        return all(self._device_value(v, f) for v, (_, is_ptr) in zip(items, fields) if is_ptr)

    def _device_value(self, v: Node | None, f) -> bool:
        if v is None:
            return False
        return self.src.text_of(v).strip() in NULL_POINTERS or self.space_of(v, f) == "device"

    def host_only_struct_bodies(self) -> set[tuple[int, int]]:
        """(start, end) of the member lists of the file's named structs no device code can reach: neither it
        nor a typedef of it is named in a device function (signature or body), nor in a struct that is
        (KINC's host `struct Pair { std::vector<char> labels; }` beside the device `GMM`'s `char *labels`)."""
        got = self.__dict__.get("_kp_host_only_structs")
        if got is not None:
            return got
        names = set()
        for f in self.device.values():
            names |= {self.src.text_of(n) for n in walk(f.node) if n.type == "type_identifier"}
        device_names = {f.name.rsplit("::", 1)[-1] for f in self.device.values()}
        for targs in self.src.index.of_type("template_argument_list"):  # `k<Pair><<<...>>>`: device code's T
            fn = targs.parent.child_by_field_name("name") if targs.parent is not None and \
                targs.parent.type == "template_function" else None
            if fn is not None and self.src.text_of(fn).rsplit("::", 1)[-1] in device_names:
                names |= {self.src.text_of(n) for n in walk(targs) if n.type == "type_identifier"}
        structs = []
        for s in self.src.index.of_types("struct_specifier", "class_specifier"):
            name, body = s.child_by_field_name("name"), s.child_by_field_name("body")
            if body is None:
                continue
            aliases = {self.src.text_of(name)} if name is not None else set()
            if s.parent is not None and s.parent.type == "type_definition":
                aliases |= {self.src.text_of(d) for d in s.parent.children_by_field_name("declarator")}
            if not aliases:
                continue
            structs.append((aliases, body))
        seen: set[int] = set()
        grew = True
        while grew:  # a struct a seen struct holds is seen
            grew = False
            for i, (aliases, body) in enumerate(structs):
                if i not in seen and aliases & names:
                    seen.add(i)
                    names |= {self.src.text_of(n) for n in walk(body) if n.type == "type_identifier"}
                    grew = True
        got = self.__dict__["_kp_host_only_structs"] = {(b.start_byte, b.end_byte) for i, (_, b) in enumerate(structs)
                                                        if i not in seen}
        return got
