"""Constructs nvcc accepts and clang (hipcc) rejects that no respelling can give the original's meaning:
the source is wrong (undefined behaviour nvcc's EDG front end lets through, as g++ does with a warning),
so the port would fail hipcc at that line.  Each is refused where the backend's compiler rejects it (its
`nvcc_leniencies_refused`, keys of `LENIENCIES`), located at the user's line, instead of writing a port
hipcc rejects without a word.  Those a respelling keeps (a bare `return;` in `main`, a glued literal) are
kernelport/lexing.respell_for_clang's.

- `array_delete`: `delete[] xPrev` (or `delete xPrev`) of a name declared as an array (heldout65
  basinsCUDA.cu: `numb xPrev[SIZE_X]; ... delete[] xPrev;` on its NaN exit paths).  nvcc decays the array
  to a pointer and frees memory `new` never gave; clang: "cannot delete expression of type 'float[3]'".
  Dropping the delete would change what the original does (whatever that is), so the port is refused.
  The name is resolved as C++ scopes it: the nearest local declared before the delete in a block around
  it, else a parameter (an array parameter is a pointer: left alone), else, in a member function, a field
  of its class, else a file-scope variable.  A member array is resolved too (kernelport/member_arrays.py):
  `delete[] s.buf`, `delete[] p->buf`, `delete[] this->buf`, where `s`/`p` is a local, parameter or
  file-scope variable whose written type is a class this file defines with a field `buf` declared as an
  array.  Not covered (hipcc still reports them itself): a field reached through a call, a subscript, a
  chain (`a.b.buf`), a base class, or a class the file does not define (a header's, an unnamed typedef'd
  struct)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from tree_sitter import Node

from . import backends, member_arrays
from .source import ident_name


@dataclass(frozen=True)
class Leniency:
    """One construct nvcc accepts and clang rejects: how to find its uses (yielding (node, detail)),
    the diagnostic's message (`{detail}` filled in) and hint."""
    key: str
    find: Callable[[object], Iterator[tuple[Node, str]]]
    message: str
    hint: str


def _array_declarator(d: Node | None) -> bool:
    """Whether a declarator (an init_declarator's, a declaration's) declares an array of its own."""
    if d is not None and d.type == "init_declarator":
        d = d.child_by_field_name("declarator")
    while d is not None and d.type in ("reference_declarator", "parenthesized_declarator"):
        d = d.named_children[-1] if d.named_children else None
    return d is not None and d.type == "array_declarator"


def _inside(node: Node, outer: Node) -> bool:
    return outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte


def nearest_local(tr, body: Node, name: str, at: Node) -> tuple[Node, Node] | None:
    """(declaration, declarator) of the nearest local `name` declared in `body` before `at`, in a block around it
    (as C++ scopes it), or None."""
    found = None
    for decl in tr.src.index.under(body, "declaration"):
        if decl.start_byte >= at.start_byte:
            break
        if decl.parent is None or not _inside(at, decl.parent):
            continue
        for d in decl.children_by_field_name("declarator"):
            if ident_name(d) == name:
                found = (decl, d)
    return found


def _declared_array(tr, name: str, at: Node) -> Node | None:
    """The declarator that makes `name` an array where `at` reads it, or None (a pointer, a parameter,
    a name not resolved)."""
    fn = tr.module.function_at(at)
    if fn is not None and fn.body is not None:
        local = nearest_local(tr, fn.body, name, at)
        if local is not None:
            return local[1] if _array_declarator(local[1]) else None
        if fn.param(name) is not None:
            return None
        member = member_arrays.own_field(tr, at, name)
        if member is not None:
            return member if _array_declarator(member) else None
    from .model import file_scope_items
    found = None
    for item in file_scope_items(tr.src):
        if item.type == "declaration" and item.start_byte < at.start_byte:
            for d in item.children_by_field_name("declarator"):
                if ident_name(d) == name and d.type != "function_declarator":
                    found = d
    return found if _array_declarator(found) else None


def _array_deletes(tr) -> Iterator[tuple[Node, str]]:
    for expr in tr.src.index.of_type("delete_expression"):
        operand = expr.named_children[-1] if expr.named_children else None
        while operand is not None and operand.type == "parenthesized_expression" and operand.named_child_count == 1:
            operand = operand.named_children[0]
        if operand is None or operand.type not in ("identifier", "field_expression") or tr.cuda_only_region(expr):
            continue
        name = tr.src.text_of(operand)
        if operand.type == "field_expression":
            d = member_arrays.field_of(tr, operand)
            d = d if _array_declarator(d) else None
            name = " ".join(name.split())
        else:
            d = _declared_array(tr, name, expr)
        if d is not None:
            form = "delete[]" if any(c.type == "[" for c in expr.children) else "delete"
            yield expr, f"`{form}` of `{name}`, an array declared at line {tr.src.loc(d).line}"


LENIENCIES = (
    Leniency("array_delete", _array_deletes,
             "{detail}, not memory from `new`: undefined behaviour in the source, which nvcc accepts and clang "
             "(hipcc) rejects ('cannot delete expression of type ...[N]'), so the port would not compile",
             "fix the source: an array is freed where it goes out of scope; remove the delete (or allocate it "
             "with `new[]` if it must be deleted)"),
)


def check_pass(tr) -> None:
    """The translator's pass: a located error at each use of a leniency the backend's compiler refuses."""
    refused = backends.get(tr.backend).nvcc_leniencies_refused
    if not refused:
        return
    for leniency in LENIENCIES:
        if leniency.key in refused:
            for node, detail in leniency.find(tr):
                tr.problem("KP243", node, leniency.message.format(detail=detail), leniency.hint)
