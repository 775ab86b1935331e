"""A device-local array bound that nvcc folds from `const` floating-point locals, written as the integer it is.

Cloned_Dynamics_Lyapunov_Exponents (heldout65) sizes its Lyapunov buffers from local constants:

    const double t_init = 0, t_final = 0.01, t_gsr = 0.01;
    const int nMaxIteracoes = ((t_final - t_init) / t_gsr);
    double LyapLocal[dim][nMaxIteracoes + 1];

nvcc (EDG, as GCC) folds a `const` floating-point variable with a constant initialiser, so the array has a
constant size there.  Standard C++ does not ([expr.const]: only integral and enumeration `const` variables are
usable in constant expressions), so clang reads a variable-length array; where the backend says its compiler
cannot hold one in device code (`Backend.device_vla_refused`, data: ROCm 5.2's AMDGPU backend stops at
`Cannot select: stacksave`) the port writes the bound's value, which is the size nvcc gave it:

    double LyapLocal[dim][2 /* nMaxIteracoes + 1 */];

Only where that is proved: the bound, in a device function, names only `const` / `constexpr` locals of an
arithmetic type declared once in the function, in a scope that holds the array and before it, with no
parameter of the name, each initialised by literals, the unit's integer constants
(device_allocas.known_constants) or such locals; at least one of them is floating-point (an integral chain
clang folds itself, and it is left as written); the value is computed with C's types and conversions
(kernelport.cexpr: a `const int` of a double truncates, a `float` rounds to float) and is a positive integer.
Anything else stays as written.  Host code is never touched."""
from __future__ import annotations

from tree_sitter import Node

from . import backends
from .cexpr import TYPES, CExprError, Value, evaluate_typed
from .device_allocas import known_constants

_QUALIFIERS = frozenset({"const", "constexpr"})


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    why = backends.get(tr.backend).device_vla_refused
    if why is None:
        return
    for arr in tr.src.index.of_type("array_declarator"):
        size = arr.child_by_field_name("size")
        if size is None or not tr.src.index.under(size, "identifier"):
            continue
        f = tr.module.function_at(arr)
        if f is None or not f.is_device or f.body is None or not _inside(arr, f.body):
            continue
        got = _fold(tr, f, size)
        if got is not None:
            tr.rw.replace(size, f"{got} /* {tr.src.text_of(size)} */")
            tr.note(size, str(got), f"the bound nvcc folds from `const` floating-point locals, as its value: {why}")


def _fold(tr, f, size: Node) -> int | None:
    """The bound's value where this module's docstring proves it, else None."""
    names: dict[str, Value] = {}
    floating = [False]
    for ident in tr.src.index.under(size, "identifier"):
        if not _resolve(tr, f, tr.src.text_of(ident), size, names, floating, 0):
            return None
    if not floating[0]:
        return None  # integral constants: clang folds them as written
    try:
        v = evaluate_typed(tr.src.text_of(size), names)
    except (CExprError, ValueError, TypeError, ZeroDivisionError, OverflowError):
        return None
    return v.v if v.type.kind == "int" and isinstance(v.v, int) and v.v > 0 else None


def _resolve(tr, f, name: str, use: Node, names: dict, floating: list, depth: int) -> bool:
    """Put `name`'s typed value in `names` (a local constant before `use`, or the unit's integer constant)."""
    if name in names:
        return True
    if depth > 16 or f.param(name) is not None:
        return False
    decls = [d for d in tr.src.index.under(f.body, "init_declarator") if _declared(tr, d) == name]
    if not decls:
        known = known_constants(tr)
        if name in known and not _declares(tr, f, name):
            names[name] = known[name]
            return True
        return False
    if len(decls) != 1:
        return False  # shadowed or redeclared: which one the bound reads is not this module's to decide
    init = decls[0]
    decl, value = init.parent, init.child_by_field_name("value")
    if decl is None or decl.type != "declaration" or value is None or init.end_byte > use.start_byte \
            or not _inside(use, decl.parent):
        return False
    quals = {tr.src.text_of(c) for c in decl.children if c.type == "type_qualifier"}
    type_node = decl.child_by_field_name("type")
    ctype = TYPES.get(" ".join(tr.src.text_of(type_node).split())) if type_node is not None else None
    if not quals & _QUALIFIERS or ctype is None or any(c.type == "storage_class_specifier" for c in decl.children):
        return False
    for ident in tr.src.index.under(value, "identifier"):
        if not _resolve(tr, f, tr.src.text_of(ident), init, names, floating, depth + 1):
            return False
    try:
        v = evaluate_typed(f"({tr.src.text_of(type_node)})({tr.src.text_of(value)})", names)
    except (CExprError, ValueError, TypeError, ZeroDivisionError, OverflowError):
        return False
    floating[0] = floating[0] or ctype.kind == "float"
    names[name] = v
    return True


def _declares(tr, f, name: str) -> bool:
    """Whether the function declares `name` itself (a local shadowing a file-scope constant)."""
    for ident in tr.src.index.under(f.node, "identifier"):
        up = ident.parent
        d = up.child_by_field_name("declarator") if up is not None else None
        if d is not None and d.id == ident.id and tr.src.text_of(ident) == name:
            return True
    return False


def _declared(tr, init: Node) -> str | None:
    d = init.child_by_field_name("declarator")
    return tr.src.text_of(d) if d is not None and d.type == "identifier" else None


def _inside(node: Node, scope: Node | None) -> bool:
    return scope is not None and scope.start_byte <= node.start_byte and node.end_byte <= scope.end_byte
