"""Static data members no device function names (`static unsigned nextUUID;` of CudaSynth's
ParameterStates, a counter its host constructor bumps): MSL has no writable program-scope storage, so the
checker refuses the declaration, yet no device code reads it.  It is left out of the port, with a comment
saying why, as a file-scope item only host code needs is (hostcode.py).  The file-scope needs
(model.device_references) cannot tell: they take a needed struct whole, its host members' bodies too.
One a device function or variable names stays (refused where it is wrong); a `const`/`constexpr` one
stays (a constant MSL can hold)."""
from __future__ import annotations

from ...source import ident_name, walk
from .headers import device_macro_uses


class StaticMembers:
    """Mixin of MetalTranslator: the `host_static_members` pass."""

    def host_static_members(self) -> None:
        fds = [fd for fd in self.src.index.of_type("field_declaration") if self._host_static(fd)]
        if not fds:
            return
        named = {self.src.text_of(n) for f in self.module.functions.values() if f.is_device
                 for n in walk(f.template_node or f.node) if n.type in ("identifier", "field_identifier")}
        named |= self._condition_names() | device_macro_uses(self.src, self.module)
        for fd in fds:
            names = {ident_name(d) for d in fd.children_by_field_name("declarator")}
            if None not in names and not names & named:
                text = " ".join(self.src.text_of(fd).split())
                self.rw.replace(fd, f"/* {text} used by host code only, left out of the Metal port */")

    def _host_static(self, fd) -> bool:
        words = {self.src.text_of(c) for c in fd.children if c.type in ("storage_class_specifier", "type_qualifier")}
        ds = fd.children_by_field_name("declarator")
        return "static" in words and not words & {"const", "constexpr"} and bool(ds) and \
            not any(d.type == "function_declarator" for d in ds) and not self.rw.has(fd) and not self.rw.within(fd)
