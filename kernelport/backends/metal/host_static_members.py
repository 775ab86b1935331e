"""Static data members no device function names (`static unsigned nextUUID;` of CudaSynth's
ParameterStates, a counter its host constructor bumps): MSL has no writable program-scope storage, so the
checker refuses the declaration, yet no device code reads it.  It is left out of the port, with a comment
saying why, as a file-scope item only host code needs is (hostcode.py).  The file-scope needs
(model.device_references) cannot tell: they take a needed struct whole, its host members' bodies too.
One a device function or variable names stays (refused where it is wrong); a `const`/`constexpr` one
with its value in the class stays (a constant MSL can hold).  A `static const` one declared with no value
(heldout102 LBMProject's D3Q19: `static const int h_ex[Q];`, host copies d3q19.cu defines) is no constant
MSL can hold ("variable in constant address space must be initialized"): no device function naming it, it
is left out as the writable ones are."""
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
                 for n in walk(f.template_node or f.node) if n.type in ("identifier", "field_identifier")
                 and not self._shadowed(n)}
        named |= self._condition_names() | device_macro_uses(self.src, self.module)
        for fd in fds:
            names = {ident_name(d) for d in fd.children_by_field_name("declarator")}
            if None not in names and not names & named and not self._defined_here(fd, names):
                text = " ".join(self.src.text_of(fd).split())
                self.rw.replace(fd, f"/* {text} used by host code only, left out of the Metal port */")

    def _shadowed(self, n) -> bool:
        """`n` names a local declared before it in an enclosing block (or preprocessor branch) of its
        function: `const int h_opposite[19] = {...}; return f[h_opposite[q]];` in a host branch reads the
        local, not the class's `h_opposite` (`D3Q19::h_opposite` would name the member: never shadowed)."""
        if n.type != "identifier" or n.parent is None or n.parent.type == "qualified_identifier":
            return False
        name, k = self.src.text_of(n), n.parent
        while k is not None and k.type not in ("function_definition", "translation_unit"):
            for d in k.children:
                if d.start_byte >= n.start_byte:
                    break
                if d.type == "declaration" and name in {ident_name(x) for x in d.children_by_field_name("declarator")}:
                    return True
            k = k.parent
        return False

    def _defined_here(self, fd, names: set[str]) -> bool:
        """A valueless `static const` member whose definition (`const int C::h[Q] = {...};`) this file
        spells: it stays with it, as main kept both (a constant MSL can hold)."""
        words = {self.src.text_of(c) for c in fd.children if c.type == "type_qualifier"}
        return "const" in words and any(self.src.text_of(q.child_by_field_name("name")) in names
                                        for q in self.src.index.of_type("qualified_identifier")
                                        if q.child_by_field_name("name") is not None)

    def _host_static(self, fd) -> bool:
        words = {self.src.text_of(c) for c in fd.children if c.type in ("storage_class_specifier", "type_qualifier")}
        ds = fd.children_by_field_name("declarator")
        valueless = "constexpr" not in words and not any(d.type == "init_declarator" for d in ds) and \
            fd.child_by_field_name("default_value") is None  # `static const int h[Q];`: defined elsewhere
        return "static" in words and (not words & {"const", "constexpr"} or valueless) and bool(ds) and \
            not any(d.type == "function_declarator" for d in ds) and not self.rw.has(fd) and not self.rw.within(fd)
