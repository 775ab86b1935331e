"""Host member functions declared in a class the Metal port keeps (VolumeRender's Film.h: `CUDA_HOST void
CreatePNG(const Spectrum* raster, const std::string &file_name) const;` in the FilmDescription its kernels
write, CUDA_HOST a macro of `__host__`): the declaration stayed in the port and the checker refused it
(KP224, "undeclared identifier 'std'") for a function no device code can call.  A member declaration (no
body) whose execution space is the host's, written (`__host__`) or through a macro of qualifiers, or with
none at all (CUDA's default), is left out with a comment, where the file defines no device function of that
name (an out-of-class `__device__` definition keeps its declaration).  Kept: a declaration with `__device__`
(written or by macro), constructors, destructors, operators and virtual members (host_virtuals.py), and any
declaration a macro the parse cannot read spells."""
from __future__ import annotations

from ... import dialect

_CLASSES = ("class_specifier", "struct_specifier", "union_specifier")


class HostMemberPrototypes:
    """Mixin of MetalTranslator: the `host_member_prototypes` pass (after leave_out_host_items)."""

    def host_member_prototypes(self) -> None:
        device_names = {f.name.rsplit("::", 1)[-1] for f in self.device.values()}
        for cls in self.src.index.of_types(*_CLASSES):
            name, body = cls.child_by_field_name("name"), cls.child_by_field_name("body")
            if body is None or self.rw.has(cls) or self.rw.within(cls) or self.left_out_at(cls):
                continue
            cname = self.src.text_of(name) if name is not None else None
            for c in body.children:
                member = self._host_prototype(c, cname)
                if member is None or member in device_names or self.rw.has(c) or self.rw.within(c):
                    continue
                text = " ".join(self.src.text_of(c).split()).replace("*/", "* /")
                self.rw.replace(c, f"/* {text} a host member function's declaration: left out of the Metal port "
                                   "(no device code calls it) */")
                self._drop_leading_macros(c)

    def _host_prototype(self, c, cname: str | None) -> str | None:
        """The member's name where `c` declares (without defining) a host member function, else None."""
        if c.type != "field_declaration":
            return None
        d = c.child_by_field_name("declarator")
        while d is not None and d.type in ("pointer_declarator", "reference_declarator"):
            d = d.child_by_field_name("declarator") or next((x for x in d.named_children), None)
        if d is None or d.type != "function_declarator" or c.child_by_field_name("default_value") is not None:
            return None
        inner = d.child_by_field_name("declarator")
        if inner is None or inner.type != "field_identifier":
            return None  # an operator, a destructor, a qualified or templated name
        member = self.src.text_of(inner)
        if member == cname or any(k.type == "virtual" or self.src.text_of(k) in ("virtual", "friend")
                                  for k in c.children):
            return None
        words = [self.src.text_of(k) for k in c.children if k.type in ("attribute_specifier", "attribute_declaration")
                 or self.src.text_of(k) in ("__host__", "__device__", "__global__")]
        for m in self.src.masks:  # a macro of qualifiers on it (`CUDA_HOST void f();`), in its span or right before
            if m.reason == "attribute" and (c.start_byte <= m.start < d.start_byte or (
                    m.end <= c.start_byte and not self.src.data[m.end:c.start_byte].strip())):
                if m.expansion is None:
                    return None  # a macro whose words are unknown here
                words += m.expansion.split()
        spaces = {dialect.lookup("cuda", w).key for w in words if dialect.lookup("cuda", w) is not None}
        return None if spaces & {"device_fn", "kernel"} else member
