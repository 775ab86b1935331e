"""Virtual member functions of a class device code uses only as a scope (`Lens::Ray* rays` of
AlloVolume's lens.cu, whose class Lens declares `virtual void getRays(Viewport vp, Ray* rays) = 0;` for
its host subclasses): MSL has no virtual functions, so the checker refused the port (KP224) for
declarations no device code can reach.  Where every name of the class the port keeps is the scope
of a qualified name (a nested type, an enumerator), no object of it exists in device code, so its
layout (the vtable pointer a virtual adds) is nobody's concern there: each virtual member
declaration is left out, with a comment saying why.  A class device code holds, takes or points at
(`Lens* l`, `Lens l`, a base of a kept class) keeps them, and stays refused, located."""
from __future__ import annotations

from ...source import walk

_CLASSES = ("class_specifier", "struct_specifier")


class HostVirtuals:
    """Mixin of MetalTranslator: the `host_virtuals` pass (after leave_out_host_items)."""

    def host_virtuals(self) -> None:
        for cls in self.src.index.of_types(*_CLASSES):
            name = cls.child_by_field_name("name")
            body = cls.child_by_field_name("body")
            if name is None or body is None or self.rw.has(cls) or self.rw.within(cls) or self.left_out_at(cls):
                continue
            virtuals = [c for c in body.children if c.type in ("field_declaration", "declaration")
                        and any(k.type == "virtual" or self.src.text_of(k) == "virtual" for k in c.children)
                        and not self.rw.has(c) and not self.rw.within(c)]
            if virtuals and self._scope_only(self.src.text_of(name), cls):
                for v in virtuals:
                    text = " ".join(self.src.text_of(v).split())
                    self.rw.replace(v, f"/* {text} a virtual member of {self.src.text_of(name)}, which device "
                                       "code names only as a scope: left out of the Metal port (MSL has no "
                                       "virtual functions) */")

    def _scope_only(self, name: str, cls) -> bool:
        """Whether each use of the class's name that the port keeps is `name::...` (not a type of an
        object, a pointer, a parameter or a base class)."""
        if any(f.name.split("<")[0].startswith(f"{name}::") or cls.start_byte <= f.node.start_byte < cls.end_byte
               for f in self.device.values()):
            return False  # a device member function: objects of the class exist in device code
        host = [f.node for f in self.host.values()]
        for n in walk(self.src.root):
            if n.type not in ("type_identifier", "namespace_identifier", "identifier") or self.src.text_of(n) != name:
                continue
            if cls.start_byte <= n.start_byte < cls.end_byte or self.left_out_at(n) or self.rw.within(n) or \
                    any(h.start_byte <= n.start_byte < h.end_byte for h in host):
                continue
            p = n.parent
            if p is None or p.type != "qualified_identifier" or p.child_by_field_name("scope") != n:
                return False
        return True
