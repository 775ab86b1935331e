"""Arithmetic on a `dim3` (KP247): CUDA's dim3 converts to and from `uint3` (`operator uint3()`, `dim3(uint3)`), so a
project's `uint3 operator+(uint3, uint3)` (helper_math.h) applies to `a + b` of two dim3 and its result is assigned back
(gamdow-fluid's `buffered_grid = inner_grid + buffer_blocks;`, heldout103).  No other dim3 has either conversion (HIP's
is a plain struct with one constructor of three numbers), so the port cannot compile there, and which operator CUDA
picked lives in headers the port does not resolve: a located refusal, with the component-wise spelling that means the
same everywhere.  An operand is a dim3 where the grammar shows it: a variable or parameter declared `dim3`, a
`dim3(...)` temporary.  An operator the file declares on a dim3 (`dim3 operator+(dim3, dim3)`) is left alone.  A dim3's members (`a.x + b.x`) are numbers, left alone; a class member declared in a header is
not resolved here (hipcc's error stays the report)."""
from __future__ import annotations

from tree_sitter import Node

from .dependent_templates import declared_type

_ARITH = frozenset({"+", "-", "*", "/", "%"})
_COMPOUND = frozenset({"+=", "-=", "*=", "/=", "%="})


def check_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    src = tr.src
    if b"dim3" not in src.data:
        return
    own = _own_operators(src)
    for e in src.index.of_types("binary_expression", "assignment_expression"):
        op = e.child_by_field_name("operator")
        op = src.text_of(op) if op is not None else ""
        if op not in (_ARITH if e.type == "binary_expression" else _COMPOUND) or op in own:
            continue
        sides = (e.child_by_field_name("left"), e.child_by_field_name("right"))
        if not any(_is_dim3(src, s, e) for s in sides):
            continue
        tr.problem("KP247", e, f"`{src.text_of(e)}` does arithmetic on a `dim3`, which CUDA's dim3 takes through its "
                   "conversion to `uint3` (and back): no other dim3 converts, so the port would not compile",
                   "write it component by component: `dim3(a.x + b.x, a.y + b.y, a.z + b.z)`")


def _own_operators(src) -> set[str]:
    """The operators the file declares on a dim3 (`dim3 operator+(dim3, dim3)`): those mean what they say."""
    out = set()
    for d in src.index.of_type("function_declarator"):
        name, params = d.child_by_field_name("declarator"), d.child_by_field_name("parameters")
        if name is not None and name.type == "operator_name" and params is not None and b"dim3" in src.data[
                params.start_byte:params.end_byte]:
            out.add(src.text_of(name).replace("operator", "").strip())
    return out


def _is_dim3(src, e: Node | None, use: Node) -> bool:
    while e is not None and e.type == "parenthesized_expression":
        e = e.named_children[0] if e.named_children else None
    if e is None:
        return False
    if e.type == "call_expression":  # `dim3(a, b)`
        fn = e.child_by_field_name("function")
        return fn is not None and src.text_of(fn) == "dim3"
    if e.type == "identifier":
        ty = declared_type(src, src.text_of(e), use)
        return ty is not None and src.text_of(ty) == "dim3"
    return False
