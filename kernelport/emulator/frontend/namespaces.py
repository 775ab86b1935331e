"""Calls of functions the file defines in a namespace (`util::compare_and_swap(a, i, j, up)` of
`namespace util { __device__ void compare_and_swap(...) }`, heldout60's bitonic sorts).

The front end reads a namespace's block as transparent (items.split_items): its functions are defined
under their own names, and a qualified use `util::f` became the identifier `util__NS__f`, which names
nothing ("unknown function").  A qualified use is the function's own name where the qualifier is the
namespace (or a trailing part of the nested namespaces: `b::f` and `a::b::f` inside `namespace a {
namespace b {`) that defines it.  Only where one namespace defines the name: a name also defined at file
scope or in another namespace stays qualified, so the run names it unknown (located) and never calls
the other one.
"""
from __future__ import annotations

import re

from .local_refs import _redeclared

from .items import Item


def qualified_names(items: list[Item]) -> dict[str, str]:
    """`ns::name` (each trailing part of the namespace path) -> name, for functions one namespace defines."""
    where: dict[str, set[str]] = {}
    for it in items:
        if it.name and it.kind != "decl":
            where.setdefault(it.name, set()).add(it.namespace)
    out: dict[str, str] = {}
    for name, spaces in where.items():
        if len(spaces) != 1 or "" in spaces:
            continue
        parts = next(iter(spaces)).split("::")
        for k in range(len(parts)):
            out["::".join(parts[k:] + [name])] = name
    return out


def unqualify(items: list[Item]) -> None:
    """Each item's qualified uses of such functions written as the function's own name."""
    _global_qualified(items)
    names = qualified_names(items)
    if not names:
        return
    spaced = {re.sub(r"\s+", "", k): v for k, v in names.items()}
    pat = re.compile(r"(?<![\w:])(?:::\s*)?((?:\w+\s*::\s*)+)(\w+)\b")

    def one(m: re.Match) -> str:
        key = re.sub(r"\s+", "", m.group(1)) + m.group(2)
        return spaced.get(key, m.group(0))
    for it in items:
        if "::" in it.text:
            it.text = pat.sub(one, it.text)


_GLOBAL = re.compile(r"(?<![\w:>)\]])::\s*([A-Za-z_]\w*)\b(?!\s*::)")


def _global_qualified(items: list[Item]) -> None:
    """`::sqrt(v)` (a global-scope qualified name, heldout85's gpu-conv) is `sqrt(v)`: the front end has one
    scope for what the file does not put in a namespace.  A name some namespace of the file also defines
    stays qualified (the run then names it, located, and never calls the namespace's one)."""
    spaced = {it.name for it in items if it.name and it.namespace}
    for it in items:
        if "::" in it.text:
            it.text = _GLOBAL.sub(lambda m, t=it.text: m.group(0) if m.group(1) in spaced or _redeclared(t, m.group(1))
                                  else m.group(1), it.text)
    # (nor where the item declares the name itself, a parameter or local `scale` beside `::scale`, the file's
    # variable: written bare it would read the local, a run computing something else than the GPU's)
