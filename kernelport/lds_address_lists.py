"""A local array (or aggregate) whose braced initializer holds the address of a `__shared__` array
(`int8_t (*buf[2])[CK] = { sWA, sWB };`, a double buffer picked by index; heldout96's quantised GEMM tests): nvcc
compiles it; clang, which compiles HIP, folds a constant aggregate initializer into a private global that the
function copies, and the AMDGPU backend cannot write an LDS address converted to a generic pointer into a global's
initializer ("error in backend: Unsupported expression in static initializer: addrspacecast"): the port, right as
written, does not compile.  Where the backend spells the concept `lds_address` (HIP: the prologue's identity
function `kp_lds_address`, data) each such element is passed through it, which makes the initializer no constant:
the elements are stored when the declaration runs, as nvcc's code does, and each is the same pointer.

Only an element that is a `__shared__` array of the module (of the function or the file), `&` of one, or one with
fewer subscripts than its dimensions (an address still), in a braced initializer of a declaration in a device
function's body that is not `static`; any other element (a value read from the array, arithmetic) is left as
written."""
from __future__ import annotations

import re

from tree_sitter import Node

from . import dialect

_ELEMENT = re.compile(r"\(*\s*(&)?\s*\(*\s*([A-Za-z_]\w*)\s*((?:\[[^\[\]]*\]\s*)*)\)*")


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    spelling = dialect.concept("lds_address").spelling(tr.backend)
    if spelling is None or b"__shared__" not in tr.src.data or not tr.module.shared:
        return
    lists = tr.src.index.of_type("initializer_list")
    if not lists:
        return
    dims = {}
    for sa in tr.module.shared:
        dims.setdefault(sa.function, {})[sa.name] = len(sa.dims) or 1  # (`extern __shared__ T s[]`: one)
    for init in lists:
        decl = _declaration(init)
        if decl is None:
            continue
        f = tr.module.function_at(decl)
        if f is None or not f.is_device:
            continue
        arrays = {**dims.get(None, {}), **dims.get(f.name, {})}
        for el in _elements(init):
            m = _ELEMENT.fullmatch(tr.src.text_of(el).strip())
            if m is None or m.group(2) not in arrays or \
                    (not m.group(1) and m.group(3).count("[") >= arrays[m.group(2)]):
                continue
            tr.rw.replace(el, dialect.render(dialect.concept("lds_address"), tr.backend, {"x": tr.src.text_of(el)}))
            tr.note(el, spelling, "a shared array's address in a local braced initializer: clang folds a constant "
                    "one into a global, which the AMDGPU backend cannot initialise with an LDS address")


def _declaration(init: Node) -> Node | None:
    """The declaration whose braced initializer `init` is (nested lists too), where it is no `static` one."""
    n = init
    while n.parent is not None and n.parent.type == "initializer_list":
        n = n.parent
    d = n.parent
    if d is not None and d.type == "assignment_expression" and d.parent is not None and \
            d.parent.type == "expression_statement":
        return d.parent  # (`int (*buf[2])[8] = {a, b};`, which the grammar reads as a cast assigned: the identity is
        # the same pointer wherever a braced list stands)
    if d is None or d.type != "init_declarator" or d.parent is None or d.parent.type != "declaration":
        return None
    if any(c.type == "storage_class_specifier" for c in d.parent.children):
        return None  # (`static`, `extern`: a global's initializer, nvcc's too)
    return d.parent


def _elements(init: Node):
    for el in init.named_children:
        if el.type == "initializer_list":
            yield from _elements(el)
        elif el.type not in ("comment", "initializer_pair", "field_designator"):
            yield el
