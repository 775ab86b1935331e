"""A function's address stored as an object pointer, `__device__ void *optable[256] = {&_brk, &_ora, ...};`
(an emulator's opcode table, called back as `((void(*)(_6502*))optable[op])(n)`: krocki/nv6502 and
krocki/nvgb, heldout46).  nvcc converts a function pointer to `void *` implicitly; clang, which compiles
HIP, refuses it ("cannot initialize an array element of type 'void *' with an rvalue of type 'void
(*)(_6502 *)'").  Where the backend's compiler refuses it (`Backend.function_to_void_refused`) the port
writes the conversion nvcc makes, `(void *)`, before each such element: the same address, so the table
and its calls through the cast back are unchanged.

Only a declaration whose type is `void` (any qualifiers) declared through a pointer (`void *t[]`,
`void *p`, `const void *q`), and only an element that is a function of the file named plainly (`f`) or
by its address (`&f`), in the braces (nested ones too) or as the initializer itself.  A typed function
pointer (`void (*t[])(int) = {f}`), a `void *` holding data (`&x` of a variable) and a cast element are
left as written."""
from __future__ import annotations

from tree_sitter import Node

from . import backends


class FunctionAddresses:
    """Mixin of the Translator: the pass that writes `(void *)` before a function address a `void *` holds."""

    def rewrite_function_addresses(self) -> None:
        if not backends.get(self.backend).function_to_void_refused:
            return
        names = _function_names(self.src)
        if not names:
            return
        for decl in self.src.index.of_type("init_declarator"):
            value = decl.child_by_field_name("value")
            if value is None or not _void_pointer(self.src, decl):
                continue
            for el in _elements(value):
                name = el.named_children[0] if el.type == "pointer_expression" and el.named_children else el
                if el.type == "pointer_expression" and not self.src.text_of(el).lstrip().startswith("&"):
                    continue  # (`*p`: a dereference, no address)
                if name.type != "identifier" or self.src.text_of(name) not in names:
                    continue
                self.rw.insert_before(el, "(void *)")
                self.note(el, "(void *)", "a function's address held as `void *`: nvcc converts it implicitly, "
                          "clang refuses the conversion")


def _function_names(src) -> set[str]:
    """The functions the file declares or defines, by plain name: every declarator that is a name with
    parameters (a prototype, a definition, and `void x76(gb *g, u8 op) { /* HALT */ };`, which the grammar
    reads as a declaration braced empty), never a function pointer (`void (*fp)(int)`: no plain name)."""
    out = set()
    for fd in src.index.of_type("function_declarator"):
        d = fd.child_by_field_name("declarator")
        if d is not None and d.type == "identifier":
            out.add(src.text_of(d))
    return out


def _void_pointer(src, decl: Node) -> bool:
    """Whether `decl` (an init_declarator) declares a `void` pointer or an array of them: `void *t[4]`."""
    owner = decl.parent
    t = owner.child_by_field_name("type") if owner is not None and owner.type == "declaration" else None
    if t is None or t.type != "primitive_type" or src.text_of(t) != "void":
        return False
    d = decl.child_by_field_name("declarator")
    return d is not None and d.type == "pointer_declarator" and \
        not any(c.type == "function_declarator" for c in _declarator_chain(d))


def _declarator_chain(d: Node):
    while d is not None:
        yield d
        d = d.child_by_field_name("declarator")


def _elements(value: Node):
    """The initializer's values: itself, or each element of its braces (nested braces too)."""
    if value.type != "initializer_list":
        yield value
        return
    for el in value.named_children:
        if el.type == "initializer_list":
            yield from _elements(el)
        elif el.type not in ("comment", "initializer_pair", "field_designator"):
            yield el
