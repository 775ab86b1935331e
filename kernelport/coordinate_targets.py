"""The type a built-in coordinate read whole is converted to, where a backend spells it per type.

CUDA's `blockIdx`, `blockDim`, `threadIdx` and `gridDim` are `uint3` / `dim3` values, and CUDA's
`dim3` has a constructor from `uint3`: `f(blockIdx, blockDim, threadIdx)` calls bart's
`Wpmuladd(dim3 a, dim3 b, dim3 c)`.  ROCm 5.2's coordinates are objects of their own that a port
spells as a vector (`Backend.whole_coordinate`), and its `dim3` takes no vector: where the value
goes to a `dim3` (a parameter of every function of that name in the file, or a declared variable),
the backend's spelling for that type (`Backend.whole_coordinate_as`) is written instead."""
from __future__ import annotations

from tree_sitter import Node

from . import backends


def spelled(tr, n: Node, default: str) -> str:
    """The backend's spelling (`{c}` the coordinate) of the whole coordinate `n`, for the type its
    value goes to where the backend has one for that type, else `default`."""
    table = backends.get(tr.backend).whole_coordinate_as
    t = destination(tr, n) if table else None
    return table.get(t, default) if t is not None else default


def destination(tr, n: Node) -> str | None:
    """The type (without `const`) of what `n`'s value initialises: the variable it is declared with,
    or the parameter at its position in every function of the file the call can name; None where
    unknown or where they disagree."""
    p = n.parent
    if p is not None and p.type == "init_declarator" and p.parent is not None and p.parent.type == "declaration" \
            and p.child_by_field_name("declarator") is not None \
            and p.child_by_field_name("declarator").type == "identifier":
        ty = p.parent.child_by_field_name("type")
        return tr.src.text_of(ty).strip() if ty is not None else None
    if p is None or p.type != "argument_list" or p.parent is None or p.parent.type != "call_expression":
        return None
    fn = p.parent.child_by_field_name("function")
    if fn is None or fn.type not in ("identifier", "qualified_identifier"):
        return None
    name = tr.src.text_of(fn).rsplit("::", 1)[-1].strip()
    at = [c.id for c in p.named_children].index(n.id)
    types = {f.params[at].type for f in tr.module.functions.values() if f.name.rsplit("::", 1)[-1] == name
             and len(f.params) > at and not f.params[at].pointer}
    return types.pop() if len(types) == 1 else None
