"""A vector component's bytes read as another type: `*reinterpret_cast<uchar4*>(&v.x)`.

cuda-ac-wm's string matchers load 16 text bytes as a `uint4` and read each component's four bytes as a
`uchar4`.  MSL takes no address of a vector's component (clang: "address of vector element requested"),
but reinterpreting a value's bits is `as_type<T>(v.x)` (MSL 2.20), which is what CUDA's load of the
component's storage gives where T has the component's size.  A store through such a pointer, another
size, or a 3-component type (whose size differs between CUDA and MSL) stays as written: the checker
refuses it at its line.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ... import backends
from ...source import walk

_SCALAR_BYTES = {"char": 1, "uchar": 1, "short": 2, "ushort": 2, "half": 2, "int": 4, "uint": 4, "float": 4,
                 "long": 8, "ulong": 8}
_VECTOR = re.compile(r"^(u?char|u?short|u?int|u?long|float|half)([24]?)$")


def _bytes(t: str) -> tuple[int, str] | None:
    """(size, element type) of a scalar or 2-/4-component vector type spelt as MSL and CUDA both do."""
    m = _VECTOR.match(t.replace("unsigned int", "uint").strip())
    return (_SCALAR_BYTES[m.group(1)] * int(m.group(2) or 1), m.group(1)) if m else None


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n


class ElementViews:
    """Mixin of MetalTranslator: the `vector_element_views` pass."""

    def vector_element_views(self) -> None:
        view = backends.get(self.backend).bit_view
        for f in self.device.values():
            for n in walk(f.body) if f.body is not None else ():
                got = self._element_view(f, n)
                if got is not None:
                    t, comp = got
                    self.rw.replace(n, lambda rw, _n, t=t, c=comp: view.format(type=t, value=rw.text(c)))
                    self.note(n, view.format(type=t, value="..."), "MSL takes no address of a vector component: "
                              "its bits are read as the type")

    def _element_view(self, f, n: Node) -> tuple[str, Node] | None:
        """(the type read, the component) where n reads a vector component's bytes as another type."""
        if n.type != "pointer_expression" or self.src.text_of(n.child_by_field_name("operator")) != "*":
            return None
        p = n.parent
        if p is not None and (p.type == "update_expression" or p.type == "pointer_expression" or
                              (p.type == "assignment_expression" and p.child_by_field_name("left") == n)):
            return None  # written, or addressed: not a read of the bits
        cast = _strip(n.child_by_field_name("argument"))
        if cast is not None and cast.type == "call_expression":
            fn = cast.child_by_field_name("function")
            if fn is None or fn.type != "template_function" or \
                    self.src.text_of(fn.child_by_field_name("name")) != "reinterpret_cast":
                return None
            targs = fn.child_by_field_name("arguments").named_children
            desc, args = (targs[0] if len(targs) == 1 else None), cast.child_by_field_name("arguments").named_children
            operand = args[0] if len(args) == 1 else None
        elif cast is not None and cast.type == "cast_expression":
            desc, operand = cast.child_by_field_name("type"), cast.child_by_field_name("value")
        else:
            return None
        addr = _strip(operand)
        if desc is None or addr is None or addr.type != "pointer_expression" or \
                self.src.text_of(addr.child_by_field_name("operator")) != "&":
            return None
        d = desc.child_by_field_name("declarator")
        if d is None or d.type != "abstract_pointer_declarator" or d.named_child_count:
            return None  # `T*` exactly
        comp = _strip(addr.child_by_field_name("argument"))
        if comp is None or comp.type != "field_expression" or comp.child_by_field_name("argument").type != "identifier" \
                or self.src.text_of(comp.child_by_field_name("operator")) != "." \
                or self.src.text_of(comp.child_by_field_name("field")) not in ("x", "y", "z", "w"):
            return None
        var = self.src.text_of(comp.child_by_field_name("argument"))
        p = f.param(var)
        decl = self._local_decl(f, var) if p is None else None
        vtype = p.type if p is not None else self.src.text_of(decl.child_by_field_name("type")) if decl is not None else ""
        vtype = " ".join(w for w in vtype.split() if w not in ("const", "volatile"))
        if vtype not in backends.get(self.backend).vector_types or (p is not None and p.pointer):
            return None
        target, component = _bytes(self.src.text_of(desc.child_by_field_name("type"))), _bytes(re.sub(r"\d$", "", vtype))
        if target is None or component is None or target[0] != component[0]:
            return None
        return self.src.text_of(desc.child_by_field_name("type")).strip(), comp
